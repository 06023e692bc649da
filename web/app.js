// app.js - the page's interface (web/index.html, docs/web.md; issue 28):
// takes the dropped files, folders and archives, has the worker
// (web/worker.js, from engine.js) lint them with w3dlint --format json, shows
// the findings and the selected finding on its model (web/report_ui.js,
// shared with the HTML report), and offers the JSON and SARIF reports and
// the repaired files (w3dfix; --unsafe behind a warning) for download.  For
// tests/web_browser.mjs, #status carries data-state (loading, ready, busy,
// done, failed) and data-ms (the lint's time in the worker).
import { ReportUI, download, el } from './report_ui.js';

const $ = (id) => document.getElementById(id);

// --- the worker -------------------------------------------------------------

const engine = globalThis.W3DLINT_ENGINE;
const worker = new Worker(URL.createObjectURL(new Blob([engine.glue, '\n', engine.worker],
	{ type: 'text/javascript' })));
const pending = new Map();
let seq = 0;
worker.onmessage = (e) => {
	const p = pending.get(e.data.id);
	pending.delete(e.data.id);
	if (e.data.ok)
		p.resolve(e.data);
	else
		p.reject(new Error(e.data.error));
};
function call(op, args, transfer) {
	const id = ++seq;
	return new Promise((resolve, reject) => {
		pending.set(id, { resolve, reject });
		worker.postMessage({ id, op, ...args }, transfer || []);
	});
}

function base64Bytes(b64) {
	const s = atob(b64), a = new Uint8Array(s.length);
	for (let i = 0; i < s.length; i++)
		a[i] = s.charCodeAt(i);
	return a;
}

function setStatus(state, text, ms) {
	const s = $('status');
	s.dataset.state = state;
	s.textContent = text;
	if (ms !== undefined)
		s.dataset.ms = String(Math.round(ms));
}

// --- state ------------------------------------------------------------------

const state = {
	roots: [],          // the dropped files and folders: the paths linted
	report: null,       // the last w3dlint --format json report, parsed
	reportText: '',
};

function lintArgs() {
	const args = [];
	if ($('target').value !== 'auto')
		args.push('--target', $('target').value);
	if ($('xref').checked)
		args.push('--xref');
	return args;
}

function quote(s) {
	return /^[\w@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
}

// --- taking files -----------------------------------------------------------

// Reads the entries of a dropped folder (FileSystemDirectoryEntry).
function readAll(dir) {
	const reader = dir.createReader(), out = [];
	return new Promise((resolve, reject) => {
		const next = () => reader.readEntries((batch) => {
			if (!batch.length)
				return resolve(out);
			out.push(...batch);
			next();
		}, reject);
		next();
	});
}

async function walkEntry(entry, out) {
	if (entry.isFile) {
		const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
		out.push({ name: entry.fullPath.replace(/^\//, ''), file });
	} else if (entry.isDirectory) {
		for (const e of await readAll(entry))
			await walkEntry(e, out);
	}
}

async function addFiles(list) {
	if (!list.length)
		return;
	const files = await Promise.all(list.map(async (f) => ({ name: f.name, data: await f.file.arrayBuffer() })));
	await call('add', { files }, files.map((f) => f.data));
	for (const f of list) {
		const root = f.name.split('/')[0];
		if (!state.roots.includes(root))
			state.roots.push(root);
	}
	ui.clear();
	await lint();
}

function fromInput(input) {
	const list = [...input.files].map((file) => ({ name: file.webkitRelativePath || file.name, file }));
	input.value = '';
	addFiles(list).catch(fail);
}

// --- linting and the report -------------------------------------------------

async function lint() {
	if (!state.roots.length)
		return;
	setStatus('busy', `linting ${state.roots.length} path(s)...`);
	const args = lintArgs();
	const r = await call('lint', { paths: state.roots, args, format: 'json' });
	if (!r.text) {
		setStatus('failed', `w3dlint exited ${r.status}: ${r.log}`);
		return;
	}
	state.reportText = r.text;
	state.report = JSON.parse(r.text);
	$('cmd').textContent = ['w3dlint', '--format', 'json', ...args, ...state.roots].map(quote).join(' ');
	ui.render(state.report);
	$('dl-json').disabled = $('dl-sarif').disabled = false;
	const s = state.report.summary;
	setStatus('done', `${s.files} file(s) linted in ${Math.round(r.ms)} ms (exit ${r.status})`, r.ms);
}

// --- downloads --------------------------------------------------------------

async function downloadFixed(path) {
	const args = [];
	if ($('target').value !== 'auto')
		args.push('--target', $('target').value);
	if ($('unsafe').checked) {
		if (!confirm('Unsafe fixes may change what the engines load (w3dfix --unsafe, docs/w3dfix.md). Repair with them?'))
			return;
		args.push('--unsafe');
	}
	setStatus('busy', `repairing ${path}...`);
	const r = await call('fix', { path, args });
	if (!r.bytes) {
		setStatus('done', `w3dfix wrote nothing for ${path} (exit ${r.status}): ${r.log}`);
		return;
	}
	download(r.name, r.bytes, 'application/octet-stream');
	setStatus('done', `repaired ${path} (w3dfix exit ${r.status}): ${r.log.split('\n').slice(-1)[0] || ''}`);
}

// --- wiring -----------------------------------------------------------------

function fail(err) {
	setStatus('failed', String(err && err.message || err));
	console.error(err);
}

const ui = new ReportUI({
	geometry: (path) => call('geometry', { path }).then((r) => JSON.parse(r.text || '{"meshes":[]}')),
	explain: (rule) => call('explain', { rule }).then((r) => r.text),
	fileButtons: (file) => {
		const b = el('button', { className: 'small', textContent: 'repaired file', title: 'w3dfix' });
		b.onclick = (e) => { e.preventDefault(); downloadFixed(file.path).catch(fail); };
		return [b];
	},
	fail,
});

$('files').onchange = () => fromInput($('files'));
$('folder').onchange = () => fromInput($('folder'));
$('target').onchange = () => lint().catch(fail);
$('xref').onchange = () => lint().catch(fail);
$('clear').onclick = () => {
	call('clear', {}).catch(fail);
	state.roots = [];
	state.report = null;
	ui.clear();
	$('cmd').textContent = '';
	$('dl-json').disabled = $('dl-sarif').disabled = true;
	setStatus('ready', 'ready');
};
$('dl-json').onclick = () => download('w3dlint.json', state.reportText, 'application/json');
$('dl-sarif').onclick = async () => {
	const r = await call('lint', { paths: state.roots, args: lintArgs(), format: 'sarif' });
	download('w3dlint.sarif', r.text, 'application/sarif+json');
};
document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
// A drop: each dropped file as the File the event holds (taken during the
// event: the list is emptied after it), each folder walked through its
// entry.  Chrome lets a page opened from file:// read no dropped folder
// (readEntries and file() fail with EncodingError from that origin): such
// a folder is left out and the status says to pick it with the folder
// input; the files dropped with it are linted.
document.addEventListener('drop', (e) => {
	e.preventDefault();
	document.body.classList.remove('dragging');
	const items = [...e.dataTransfer.items].filter((i) => i.kind === 'file');
	const dropped = items.map((i) => ({ entry: i.webkitGetAsEntry ? i.webkitGetAsEntry() : null, file: i.getAsFile() }));
	if (!items.length)
		for (const file of e.dataTransfer.files)
			dropped.push({ entry: null, file });
	(async () => {
		const out = [], unread = [];
		for (const d of dropped) {
			if (d.entry && d.entry.isDirectory) {
				const inFolder = [];
				try {
					await walkEntry(d.entry, inFolder);
					out.push(...inFolder);
				} catch (err) {
					unread.push(d.entry.name);
				}
			} else if (d.file) {
				out.push({ name: d.file.name, file: d.file });
			}
		}
		await addFiles(out);
		if (unread.length) {
			const s = $('status');
			s.textContent = `${out.length ? s.textContent + '; ' : ''}the browser does not let this page read the ` +
				`dropped folder${unread.length > 1 ? 's' : ''} ${unread.join(', ')} (a page opened from file://): ` +
				'pick it with the folder input';
			if (!out.length)
				s.dataset.state = 'done';
		}
	})().catch(fail);
});

call('init', { wasm: base64Bytes(engine.wasm).buffer })
	.then(() => setStatus('ready', 'ready: drop files'))
	.catch(fail);
