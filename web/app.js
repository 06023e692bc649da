// app.js - the page's interface (web/index.html, docs/web.md; issue 28):
// takes the dropped files, folders and archives, has the worker
// (web/worker.js, from engine.js) lint them with w3dlint --format json, shows
// the findings grouped by file and rule with their severities, messages and
// --explain text, draws the selected file with the selected finding's
// elements (web/viewer3d.js, web/locate.js), and offers the JSON and SARIF
// reports and the repaired files (w3dfix; --unsafe behind a warning) for
// download.  For tests/web_browser.mjs, #status carries data-state
// (loading, ready, busy, done, failed) and data-ms (the lint's time in the
// worker), every file and rule group data-path, data-rule and data-count,
// and #selection the highlighted elements (data-mesh, data-kind,
// data-triangles, data-vertices, data-bone).
import { Viewer } from './viewer3d.js';
import { describe, locate, selectionData } from './locate.js';

const $ = (id) => document.getElementById(id);
const SEVERITIES = ['error', 'warning', 'info'];

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
	geometry: new Map(), // path -> geometry (w3ddump --geometry), or a promise
	selected: null,     // {file, finding}
	shownPath: null,
	view: 0,            // counts what was asked to be shown: the last wins
	h: null,
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
	state.geometry.clear();
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
	renderReport();
	$('dl-json').disabled = $('dl-sarif').disabled = false;
	const s = state.report.summary;
	setStatus('done', `${s.files} file(s) linted in ${Math.round(r.ms)} ms (exit ${r.status})`, r.ms);
}

function counts(findings) {
	const c = { error: 0, warning: 0, info: 0 };
	for (const f of findings)
		c[f.severity] = (c[f.severity] || 0) + 1;
	return c;
}

function countText(c) {
	return SEVERITIES.filter((s) => c[s]).map((s) => `${c[s]} ${s}${c[s] > 1 ? 's' : ''}`).join(', ') || 'no findings';
}

function el(tag, props, ...children) {
	const e = document.createElement(tag);
	Object.assign(e, props || {});
	for (const c of children)
		e.append(c);
	return e;
}

function renderReport() {
	const rep = state.report, box = $('report');
	box.textContent = '';
	const s = rep.summary;
	$('summary').textContent = `${s.files} file(s): ${s.errors} error(s), ${s.warnings} warning(s), ` +
		`${s.infos} info(s)` + (s.unreadable ? `, ${s.unreadable} unreadable` : '');
	for (const file of rep.files) {
		const det = el('details', { className: 'file' });
		det.dataset.path = file.path;
		det.dataset.count = String(file.findings.length);
		const fixBtn = el('button', { className: 'small', textContent: 'repaired file', title: 'w3dfix' });
		fixBtn.onclick = (e) => { e.preventDefault(); downloadFixed(file.path).catch(fail); };
		const sum = el('summary', {}, file.path,
			el('span', { className: 'counts', textContent: `${file.format || ''} - ${countText(counts(file.findings))}` }));
		if (file.findings.length)
			sum.append(fixBtn);
		det.append(sum);
		// opening a file shows it, unless one of its findings is being shown
		det.addEventListener('toggle', () => {
			if (det.open && !(state.selected && state.selected.file.path === file.path))
				showFile(file.path).catch(fail);
		});
		const byRule = new Map();
		for (const f of file.findings) {
			if (!byRule.has(f.rule))
				byRule.set(f.rule, []);
			byRule.get(f.rule).push(f);
		}
		for (const [rule, list] of byRule) {
			const rd = el('details', { className: 'rule' });
			rd.dataset.rule = rule;
			rd.dataset.count = String(list.length);
			const sev = list[0].severity;
			const explainBtn = el('button', { className: 'small', textContent: 'explain' });
			explainBtn.onclick = (e) => { e.preventDefault(); explain(rule).catch(fail); };
			rd.append(el('summary', {}, el('span', { className: 'sev ' + sev, textContent: sev }), rule,
				el('span', { className: 'counts', textContent: `(${list.length})` }), explainBtn));
			// the findings are listed when the group is opened
			rd.addEventListener('toggle', () => {
				if (!rd.open || rd.querySelector('ol'))
					return;
				const ol = el('ol', { className: 'findings', start: 1 });
				list.forEach((f) => {
					const li = el('li', { className: 'finding' }, f.message + ' ',
						el('code', { textContent: `${f.chunk_path || ''} @${f.offset}` }));
					li.dataset.path = f.chunk_path || '';
					li.onclick = () => select(file, f, li).catch(fail);
					ol.append(li);
				});
				rd.append(ol);
			});
			det.append(rd);
		}
		box.append(det);
	}
}

async function explain(rule) {
	const r = await call('explain', { rule });
	$('explain').textContent = r.text;
}

// --- the 3D view ------------------------------------------------------------

let viewer = null;
function getViewer() {
	if (!viewer)
		viewer = new Viewer($('canvas'));
	return viewer;
}

async function geometryOf(path) {
	if (!state.geometry.has(path))
		state.geometry.set(path, call('geometry', { path }).then((r) => JSON.parse(r.text || '{"meshes":[]}')));
	return state.geometry.get(path);
}

function fillMeshes(geo, meshIndex) {
	const sel = $('mesh');
	sel.textContent = '';
	sel.append(el('option', { value: '-1', textContent: `all ${geo.meshes.length} meshes` }));
	geo.meshes.forEach((m, i) => sel.append(el('option', { value: String(i),
		textContent: `${m.name || m.path} (${m.positions.length / 3} v, ${m.triangles.length / 3} t)` })));
	sel.value = String(meshIndex);
}

// Shows the file's meshes: all of a W3D or B3D file, the first LOD of a P3D
// (LODs are the whole model each, at other detail).
async function showFile(path, meshIndex, token) {
	token = token || ++state.view;
	const geo = await geometryOf(path);
	if (token !== state.view)
		return null; // another file or finding was asked for meanwhile
	if (meshIndex === undefined)
		meshIndex = geo.format === 'p3d' && geo.meshes.length ? 0 : -1;
	state.shownPath = path;
	$('model-name').textContent = `${path} (${geo.format})`;
	fillMeshes(geo, meshIndex);
	getViewer().show(geo, meshIndex);
	getViewer().highlight(null);
	return geo;
}

async function select(file, finding, li) {
	for (const x of document.querySelectorAll('li.finding.selected'))
		x.classList.remove('selected');
	li.classList.add('selected');
	li.scrollIntoView({ block: 'nearest' });
	state.selected = { file, finding };
	const token = ++state.view;
	const geo = await geometryOf(file.path);
	const h = locate(geo, finding);
	if (!await showFile(file.path, h && h.mesh >= 0 ? h.mesh : undefined, token))
		return;
	state.h = h;
	getViewer().highlight(h);
	if (h && (h.triangles.length || h.vertices.length))
		getViewer().zoomToHighlight();
	const s = $('selection');
	s.textContent = `${finding.rule}: ${describe(h, geo)}`;
	s.dataset.file = file.path;
	s.dataset.rule = finding.rule;
	s.dataset.path = finding.chunk_path || '';
	Object.assign(s.dataset, selectionData(h, geo));
	explain(finding.rule).catch(fail);
}

// --- downloads --------------------------------------------------------------

function download(name, data, type) {
	const url = URL.createObjectURL(new Blob([data], { type }));
	const a = el('a', { href: url, download: name });
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 10000);
}

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

$('files').onchange = () => fromInput($('files'));
$('folder').onchange = () => fromInput($('folder'));
$('target').onchange = () => lint().catch(fail);
$('xref').onchange = () => lint().catch(fail);
$('clear').onclick = () => {
	call('clear', {}).catch(fail);
	state.roots = [];
	state.report = null;
	state.selected = null;
	state.geometry.clear();
	$('report').textContent = '';
	$('cmd').textContent = '';
	$('dl-json').disabled = $('dl-sarif').disabled = true;
	setStatus('ready', 'ready');
};
$('dl-json').onclick = () => download('w3dlint.json', state.reportText, 'application/json');
$('dl-sarif').onclick = async () => {
	const r = await call('lint', { paths: state.roots, args: lintArgs(), format: 'sarif' });
	download('w3dlint.sarif', r.text, 'application/sarif+json');
};
$('wireframe').onchange = () => getViewer().setWireframe($('wireframe').checked);
$('zoom').onclick = () => getViewer().zoomToHighlight();
$('reset').onclick = () => getViewer().frame(getViewer().model);
$('mesh').onchange = () => {
	if (!state.shownPath)
		return;
	geometryOf(state.shownPath).then((geo) => {
		getViewer().show(geo, Number($('mesh').value));
		if (state.h && (Number($('mesh').value) < 0 || Number($('mesh').value) === state.h.mesh))
			getViewer().highlight(state.h);
	}).catch(fail);
};
document.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dragging'); });
document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
document.addEventListener('drop', (e) => {
	e.preventDefault();
	document.body.classList.remove('dragging');
	const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
	(async () => {
		const out = [];
		if (entries.length) {
			for (const en of entries)
				await walkEntry(en, out);
		} else {
			for (const file of e.dataTransfer.files)
				out.push({ name: file.name, file });
		}
		await addFiles(out);
	})().catch(fail);
});

call('init', { wasm: base64Bytes(engine.wasm).buffer })
	.then(() => setStatus('ready', 'ready: drop files'))
	.catch(fail);
