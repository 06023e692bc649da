// web_browser.mjs - the page of `make web` (build-wasm/web/index.html,
// docs/web.md; issue 28) in Debian's chromium, driven by puppeteer-core
// (web/package.json), opened from file:// with the network off:
//   node tests/web_browser.mjs BUILD WASM CORPUS ARTIFACTS
// 1. one W3D file with a degenerate triangle, one B3D file with a BONE
//    weight finding, one P3D file with an open component (the smallest of
//    each in CORPUS by the native report) and the smallest BIG archive are
//    copied to a temporary folder, dropped on the page (a real
//    drag-and-drop, item 5's dropFiles), then, after Clear, given to its
//    file input; both times the findings the page shows (per file and rule: the group's count and the
//    listed findings) must equal `BUILD/w3dlint --format json --xref` of
//    the same files;
// 2. a finding of each of the three files is selected: the highlighted
//    mesh and triangles (faces, bone vertices) must be those the native
//    `w3ddump --geometry` spans name for its chunk path; screenshots of the
//    three go to ARTIFACTS (degenerate-triangle.png, open-component.png,
//    bone-binding.png);
// 3. the whole W3D folder of CORPUS is given to the folder input: its
//    finding counts must equal the native report's, and the lint time in
//    the page is printed against the native CLI's;
// 4. the repaired files the page offers for download equal the native
//    w3dfix -o output of the same files;
// 5. a real drag-and-drop (Chrome DevTools Protocol Input.dispatchDragEvent:
//    dragEnter, dragOver, drop at the #drop element with the files' paths,
//    as the operating system hands them to Chrome).  From file:// Chrome
//    gives the page directory entries (webkitGetAsEntry) it cannot read:
//    entry.file() and readEntries() fail with EncodingError (an opaque
//    origin has no file system URL; --allow-file-access-from-files lifts
//    it); web/app.js reads dropped files as the event's File objects and
//    names a folder it could not read.  So two files and a folder are
//    dropped on the file:// page: the files' findings must equal the
//    native report's and the status must name the folder.  The full drop runs on the page served from
//    a loopback HTTP server of this test (the docs' "any static host") in
//    a second chromium whose only reachable host is that one: the smallest W3D file
//    with a finding at an HLOD sub-object, the smallest with a finding in an
//    AABTree (when the corpus has none, the fixture tests/geometry.py
//    --fixtures makes with w3ddump --text and w3dasm) and a folder of two
//    small W3D files; the findings shown must equal the native report's;
//    then an AABTREE_NODES, an AABTREE_POLYINDICES and an HLOD sub-object
//    finding are selected: the node, box, triangles and mesh highlighted
//    must be those the native w3ddump --geometry names (aabtree-box.png,
//    hlod-subobject.png);
// 6. no request leaves the page but file:, data: and blob: ones.
// Prints one line per check; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as common from './web_common.mjs';
import { byRule, countDiffs, expectedTree, highlightCase, offlineAndClean, selectFinding, shown, smallestBig } from './web_common.mjs';

const [build, wasm, corpus, artifacts] = process.argv.slice(2).map((p) => resolve(p));
const here = dirname(fileURLToPath(import.meta.url));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const puppeteer = createRequire(join(wasm, 'web-npm', 'package.json'))('puppeteer-core');
let failures = 0;
const fail = (msg) => { failures++; console.log(`web_browser: FAIL: ${msg}`); };
const ok = (msg) => console.log(`web_browser: ok: ${msg}`);

const nativeJson = (args, cwd) => common.nativeJson(build, args, cwd);
const geometry = (path) => common.geometry(build, path);
const pick = (folder, want) => common.pick(build, folder, want);

function compareCounts(what, got, want) {
	const diffs = countDiffs(got, want);
	if (diffs.length)
		fail(`${what}: ${diffs.length} file(s) differ: ${diffs.slice(0, 3).join('; ')}`);
	return !diffs.length && Object.keys(got).length > 0;
}

// Drops paths (files or folders) on the page's #drop element the way the
// operating system hands a drag to Chrome (CDP Input.dispatchDragEvent).
async function dropFiles(page, cdp, paths) {
	const r = await (await page.$('#drop')).boundingBox();
	const x = r.x + r.width / 2, y = r.y + r.height / 2;
	const data = { items: [], files: paths, dragOperationsMask: 1 };
	for (const type of ['dragEnter', 'dragOver', 'drop'])
		await cdp.send('Input.dispatchDragEvent', { type, x, y, data, modifiers: 0 });
}

const BIG_TIMEOUT = 600000;

async function waitDone(page) {
	await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('status').dataset.state),
		{ timeout: BIG_TIMEOUT });
	const st = await page.$eval('#status', (e) => ({ state: e.dataset.state, text: e.textContent, ms: Number(e.dataset.ms) }));
	if (st.state !== 'done')
		throw new Error(`the page failed: ${st.text}`);
	return st;
}

const isSub = (x) => /\/HLOD_SUB_OBJECT(#\d+)?$/.test(x.chunk_path || '');

// Serves folder's files on 127.0.0.1 (a free port); resolves to the server.
function serve(folder) {
	const types = { html: 'text/html', js: 'text/javascript', mjs: 'text/javascript', wasm: 'application/wasm' };
	const server = createServer((req, res) => {
		const name = basename(new URL(req.url, 'http://x').pathname) || 'index.html';
		const path = join(folder, name);
		if (!existsSync(path) || !statSync(path).isFile()) {
			res.writeHead(404).end();
			return;
		}
		res.writeHead(200, { 'content-type': types[name.split('.').pop()] || 'application/octet-stream' });
		res.end(readFileSync(path));
	});
	return new Promise((ok1) => server.listen(0, '127.0.0.1', () => ok1(server)));
}

// The drop on the page opened from file:// (the first browser's page): two
// files and a folder.  The files' findings must equal the native report's;
// Chrome lets such a page read no dropped folder, which the status must
// say (or, should a Chrome read it, its findings must be there too).
async function dropFileUrl(page, cdp, dir, names, wantFiles, wantAll) {
	await page.click('#clear');
	await page.waitForFunction(() => document.getElementById('status').dataset.state === 'ready');
	await dropFiles(page, cdp, [...names, 'folder'].map((n) => join(dir, n)));
	await page.waitForFunction(() => ['done', 'failed'].includes(document.getElementById('status').dataset.state),
		{ timeout: 60000 });
	const st = await page.$eval('#status', (e) => ({ state: e.dataset.state, text: e.textContent }));
	if (st.state !== 'done') {
		fail(`the drop on the file:// page: ${st.text}`);
		return;
	}
	const got = await shown(page, false);
	const folderUnread = /does not let this page read the dropped folder folder .*folder input/.test(st.text);
	const want = byRule(folderUnread ? wantFiles : wantAll, (p) => p);
	if (compareCounts('the files dropped on the file:// page', got.files, want))
		ok(`drag-and-drop of ${names.join(', ')} and a folder on the page opened from file://: the files' findings ` +
			`equal the native report's; ${folderUnread ? `the folder, which Chrome does not let the page read, is named: "${st.text.replace(/^.*; /, '')}"` : 'the folder read too'}`);
}

async function dropCase(page0, cdp0, tmp) {
	const rep = nativeJson([join(corpus, 'w3d')]);
	const smallest = (want) => rep.files.filter((f) => f.findings.some(want)).sort((a, b) => a.size - b.size)[0];
	const isTree = (x) => /\/AABTREE\/AABTREE_(NODES|POLYINDICES)\[\d+\]$/.test(x.chunk_path || '');
	const hlod = smallest(isSub);
	let tree = smallest(isTree), treeFrom = 'the corpus';
	const dir = join(tmp, 'drop');
	mkdirSync(join(dir, 'folder'), { recursive: true });
	if (!tree) {
		// no AABTree finding in the corpus: the fixture of tests/geometry.py
		const made = execFileSync('python3', [join(here, 'geometry.py'), '--fixtures', build, dir]).toString().trim();
		tree = { path: made };
		treeFrom = 'the fixture of tests/geometry.py --fixtures (w3ddump --text, edited, w3dasm)';
	}
	if (!hlod) {
		fail('the corpus has no W3D file with a finding at an HLOD sub-object');
		return;
	}
	const names = [basename(hlod.path), basename(tree.path)];
	copyFileSync(hlod.path, join(dir, names[0]));
	if (dirname(tree.path) !== dir)
		copyFileSync(tree.path, join(dir, names[1]));
	// the folder: the two smallest W3D files of the corpus with findings
	const small = [];
	for (const f of rep.files.filter((x) => x.findings.length).sort((a, b) => a.size - b.size))
		if (small.length < 2 && !small.some((x) => basename(x.path) === basename(f.path)))
			small.push(f);
	for (const f of small)
		copyFileSync(f.path, join(dir, 'folder', basename(f.path)));
	const want = nativeJson(['--xref', ...names, 'folder'], dir);
	await dropFileUrl(page0, cdp0, dir, names, nativeJson(['--xref', ...names], dir), want);

	// the page over HTTP on loopback, in a chromium that reaches nothing else
	const server = await serve(join(wasm, 'web'));
	const origin = `http://127.0.0.1:${server.address().port}`;
	const browser = await puppeteer.launch({
		executablePath: chromium,
		headless: true,
		args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--proxy-server=127.0.0.1:9',
			'--window-size=1400,900'],
		defaultViewport: { width: 1400, height: 900 },
	});
	try {
		const page = await browser.newPage();
		const requests = [], errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		page.on('request', (r) => { if (!/^(data|blob):/.test(r.url()) && !r.url().startsWith(origin + '/')) requests.push(r.url()); });
		await page.goto(origin + '/index.html');
		await page.waitForFunction(() => document.getElementById('status').dataset.state === 'ready', { timeout: 120000 });
		const cdp = await page.createCDPSession();
		await dropServed(page, cdp, dir, names, small, want, treeFrom);
		if (requests.length)
			fail(`the served page made ${requests.length} request(s) elsewhere: ${requests.slice(0, 3).join(' ')}`);
		if (errors.length)
			fail(`errors in the served page: ${errors.slice(0, 3).join(' | ')}`);
	} finally {
		await browser.close();
		server.close();
	}
}

async function dropServed(page, cdp, dir, names, small, want, treeFrom) {
	await dropFiles(page, cdp, [...names, 'folder'].map((n) => join(dir, n)));
	await waitDone(page);
	const got = await shown(page, true);
	const total = want.files.reduce((n, f) => n + f.findings.length, 0);
	if (compareCounts('the dropped files and folder', got.files, byRule(want, (p) => p)) && got.listed === total)
		ok(`drag-and-drop (Input.dispatchDragEvent) on the page served over HTTP of ${names.join(', ')} and a folder ` +
			`of ${small.length} files: ` +
			`${want.files.length} files, ${total} findings per file and rule equal to w3dlint --format json`);
	else if (got.listed !== total)
		fail(`dropped: ${got.listed} findings listed, the native report has ${total}`);

	const cases = [
		[names[1], (x) => /AABTREE_NODES\[\d+\]$/.test(x.chunk_path || ''), 'aabtree-box.png'],
		[names[1], (x) => /AABTREE_POLYINDICES\[\d+\]$/.test(x.chunk_path || ''), null],
		[names[0], isSub, 'hlod-subobject.png'],
	];
	for (const [name, want1, shot] of cases) {
		const file = want.files.find((f) => f.path === name);
		const k = file ? file.findings.findIndex(want1) : -1;
		if (k < 0) {
			if (shot)
				fail(`${name}: no finding for ${shot}`);
			continue;
		}
		const f = file.findings[k];
		const idx = file.findings.filter((x, j) => j < k && x.rule === f.rule).length;
		const sel = await selectFinding(page, name, f.rule, idx);
		const exp = expectedTree(geometry(join(dir, name)), f);
		if (shot) {
			await page.click('#zoom');
			await new Promise((r) => setTimeout(r, 300));
			await page.screenshot({ path: join(artifacts, shot) });
		}
		const gotSel = { mesh: sel.mesh, kind: sel.kind, triangles: sel.triangles ? sel.triangles.split(',').map(Number) : [] };
		if (exp && exp.kind === 'box') {
			gotSel.node = Number(sel.node);
			gotSel.box = sel.box.split(',').map(Number);
		}
		const wantSel = exp && { mesh: exp.mesh, kind: exp.kind, triangles: exp.triangles };
		if (exp && exp.kind === 'box') {
			wantSel.node = exp.node;
			wantSel.box = exp.box;
		}
		if (!exp || JSON.stringify(gotSel) !== JSON.stringify(wantSel))
			fail(`${name} ${f.rule} at ${f.chunk_path}: highlighted ${JSON.stringify(gotSel).slice(0, 200)}, ` +
				`w3ddump --geometry names ${JSON.stringify(wantSel).slice(0, 200)}`);
		else
			ok(`${name} (${name === names[1] ? treeFrom : 'the corpus'}) ${f.rule} at ${f.chunk_path}: ` +
				`${sel.text.slice(0, 200)}${shot ? ` (${shot})` : ''}`);
	}
}

async function main() {
	if (!existsSync(chromium)) {
		console.log(`web_browser: skipped: no chromium at ${chromium} (apt-get install chromium; scripts/setup-deps.sh web)`);
		return 0;
	}
	if (!existsSync(join(corpus, 'w3d'))) {
		console.log(`web_browser: skipped: no corpus at ${corpus}`);
		return 0;
	}
	const page_html = join(wasm, 'web', 'index.html');
	mkdirSync(artifacts, { recursive: true });

	// 1. the files
	const w3d = pick(join(corpus, 'w3d'), (x) => x.rule === 'triangle-degenerate');
	const b3d = pick(join(corpus, 'b3d'), (x) => /\/BONE\[\d+\]$/.test(x.chunk_path || ''));
	const p3d = pick(join(corpus, 'p3d'), (x) => x.rule === 'p3d-component-open');
	const picked = [w3d, b3d, p3d, smallestBig(corpus)];
	if (picked.some((p) => !p)) {
		fail(`the corpus lacks a file for a check: ${JSON.stringify(picked)}`);
		return 1;
	}
	const tmp = mkdtempSync(join(tmpdir(), 'w3dlint-web-'));
	const names = picked.map((p) => basename(p));
	picked.forEach((p, i) => copyFileSync(p, join(tmp, names[i])));
	const want = nativeJson(['--xref', ...names], tmp);

	const requests = [];
	const browser = await puppeteer.launch({
		executablePath: chromium,
		headless: true,
		args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--proxy-server=127.0.0.1:9',
			'--proxy-bypass-list=<-loopback>', '--window-size=1400,900'],
		defaultViewport: { width: 1400, height: 900 },
	});
	try {
		const page = await browser.newPage();
		const errors = [];
		page.on('pageerror', (e) => errors.push(String(e)));
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		await page.setOfflineMode(true);
		page.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) requests.push(r.url()); });
		await page.goto(pathToFileURL(page_html).href);
		await page.waitForFunction(() => document.getElementById('status').dataset.state === 'ready', { timeout: 120000 });
		const wantCounts = byRule(want, (p) => p);
		const total = want.files.reduce((n, f) => n + f.findings.length, 0);
		// dropped (a real drag-and-drop, as the system hands it to Chrome),
		// then, after Clear, through the file input: the same findings
		const cdp0 = await page.createCDPSession();
		await dropFiles(page, cdp0, names.map((n) => join(tmp, n)));
		const st0 = await waitDone(page);
		if (compareCounts('the four files dropped', (await shown(page, false)).files, wantCounts))
			ok(`${names.join(', ')} dropped on the page (Input.dispatchDragEvent, file://): ${want.files.length} files ` +
				`and entries, ${total} findings per file and rule equal to w3dlint --format json ` +
				`(${Math.round(st0.ms)} ms in the page)`);
		await page.click('#clear');
		await page.waitForFunction(() => document.getElementById('status').dataset.state === 'ready');
		const input = await page.$('#files');
		await input.uploadFile(...names.map((n) => join(tmp, n)));
		const st = await waitDone(page);
		const got = await shown(page, true);
		if (compareCounts('the four files', got.files, wantCounts))
			ok(`${names.join(', ')} given to the file input: ${want.files.length} files and entries, ${total} findings ` +
				`per file and rule equal to w3dlint --format json (${Math.round(st.ms)} ms in the page)`);
		if (got.listed !== total)
			fail(`${got.listed} findings listed, the native report has ${total}`);

		// 2. highlights
		const cases = [
			[names[0], 'triangle-degenerate', 'degenerate-triangle.png'],
			[names[2], 'p3d-component-open', 'open-component.png'],
			[names[1], null, 'bone-binding.png'],
		];
		for (const [name, rule0, shot] of cases) {
			const { finding: f, sel, problem } = await highlightCase(page, build, tmp, want, name, rule0, join(artifacts, shot));
			if (problem)
				fail(`${name} ${f.rule} at ${f.chunk_path}: ${problem}`);
			else
				ok(`${name} ${f.rule} at ${f.chunk_path}: ${sel.text.slice(0, 160)} (${shot})`);
		}

		// the repaired files the page offers: the bytes of the native
		// w3dfix -o (safe fixes) of the same file
		const dl = mkdtempSync(join(tmpdir(), 'w3dlint-web-dl-'));
		const cdp = await page.createCDPSession();
		await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dl });
		for (const name of names.slice(0, 3)) {
			await page.evaluate((path) => [...document.querySelectorAll('details.file')]
				.find((x) => x.dataset.path === path).querySelector('summary button').click(), name);
			const out = join(dl, name);
			for (let i = 0; i < 100 && !existsSync(out); i++)
				await new Promise((r) => setTimeout(r, 100));
			const native = join(dl, 'native-' + name);
			try {
				execFileSync(join(build, 'w3dfix'), ['--no-progress', '-q', '-o', native, name], { cwd: tmp });
			} catch (e) { /* status 1: findings left */ }
			if (!existsSync(out))
				fail(`${name}: no repaired file downloaded`);
			else if (Buffer.compare(readFileSync(out), readFileSync(native)) !== 0)
				fail(`${name}: the repaired file differs from the native w3dfix -o's`);
			else
				ok(`${name}: the repaired file (${readFileSync(out).length} bytes) equals the native w3dfix -o's`);
		}
		rmSync(dl, { recursive: true, force: true });
		await cdp.send('Browser.setDownloadBehavior', { behavior: 'default' });

		// 3. the whole W3D folder, timed
		await page.click('#clear');
		await page.waitForFunction(() => document.getElementById('status').dataset.state === 'ready');
		const folder = await page.$('#folder');
		await folder.uploadFile(join(corpus, 'w3d'));
		const st2 = await waitDone(page);
		const got2 = await shown(page, false);
		const t0 = process.hrtime.bigint();
		const want2 = nativeJson(['w3d'], corpus);
		const native = Number(process.hrtime.bigint() - t0) / 1e6;
		const t1 = process.hrtime.bigint();
		nativeJson(['-j', '1', 'w3d'], corpus);
		const native1 = Number(process.hrtime.bigint() - t1) / 1e6;
		const n2 = want2.files.reduce((n, f) => n + f.findings.length, 0);
		if (compareCounts('the W3D folder', got2.files, byRule(want2, (p) => p)))
			ok(`the W3D folder: ${want2.files.length} files, ${n2} findings per file and rule equal to the native ` +
				`report; lint in the page ${Math.round(st2.ms)} ms, native CLI ${Math.round(native)} ms ` +
				`(-j 1: ${Math.round(native1)} ms): ratio ${(st2.ms / native).toFixed(1)} ` +
				`(${(st2.ms / native1).toFixed(1)} against -j 1)`);
		// a skinned model whose skeleton is another file of the folder
		// (NAME.w3d): the page poses it as the native geometry does
		const skinned = want2.files.find((f) => f.findings.length &&
			geometry(join(corpus, f.path)).meshes.some((m) => m.posed_positions && m.hierarchy_file));
		if (!skinned) {
			fail('the W3D folder has no file with findings whose skins a hierarchy of another file poses');
		} else {
			const geo = geometry(join(corpus, skinned.path));
			await page.evaluate((p) => {
				const d = [...document.querySelectorAll('details.file')].find((x) => x.dataset.path === p);
				d.open = true;
			}, skinned.path);
			await page.waitForFunction((p) => document.getElementById('model-name').textContent.startsWith(p + ' '),
				{ timeout: 60000 }, skinned.path);
			await new Promise((r) => setTimeout(r, 300));
			const mn = await page.$eval('#model-name', (e) => ({ ...e.dataset }));
			const want = { posed: geo.meshes.filter((m) => m.posed_positions).length,
				other: geo.meshes.filter((m) => m.hierarchy_file).length };
			await page.screenshot({ path: join(artifacts, 'posed-skin.png') });
			if (Number(mn.posed) !== want.posed || Number(mn.otherFile) !== want.other)
				fail(`${skinned.path}: the page poses ${mn.posed} skins (${mn.otherFile} by another file), the native ` +
					`geometry ${want.posed} (${want.other})`);
			else
				ok(`${skinned.path}: ${want.posed} skins posed, ${want.other} meshes by the hierarchy of another file ` +
					`of the folder, as the native w3ddump --geometry (posed-skin.png)`);
		}
		writeFileSync(join(artifacts, 'timing.txt'), `page_ms ${Math.round(st2.ms)}\nnative_ms ${Math.round(native)}\n` +
			`native_j1_ms ${Math.round(native1)}\nfiles ${want2.files.length}\n`);

		// 5. a real drop: an HLOD sub-object finding, an AABTree finding
		// (a fixture when the corpus has none) and a folder
		await dropCase(page, cdp, tmp);

		// 6. offline
		offlineAndClean('page', requests, errors, ok, fail);
	} finally {
		await browser.close();
		rmSync(tmp, { recursive: true, force: true });
	}
	return failures ? 1 : 0;
}

main().then((rc) => process.exit(rc), (e) => { console.log(`web_browser: FAIL: ${e.stack || e}`); process.exit(1); });
