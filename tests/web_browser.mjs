// web_browser.mjs - the page of `make web` (build-wasm/web/index.html,
// docs/web.md; issue 28) in Debian's chromium, driven by puppeteer-core
// (web/package.json), opened from file:// with the network off:
//   node tests/web_browser.mjs BUILD WASM CORPUS ARTIFACTS
// 1. one W3D file with a degenerate triangle, one B3D file with a BONE
//    weight finding, one P3D file with an open component (the smallest of
//    each in CORPUS by the native report) and the smallest BIG archive are
//    copied to a temporary folder and given to the page's file input; the
//    findings the page shows (per file and rule: the group's count and the
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
// 5. no request leaves the page but file:, data: and blob: ones.
// Prints one line per check; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [build, wasm, corpus, artifacts] = process.argv.slice(2).map((p) => resolve(p));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const puppeteer = createRequire(join(wasm, 'web-npm', 'package.json'))('puppeteer-core');
let failures = 0;
const fail = (msg) => { failures++; console.log(`web_browser: FAIL: ${msg}`); };
const ok = (msg) => console.log(`web_browser: ok: ${msg}`);

function nativeJson(args, cwd) {
	let out;
	try {
		out = execFileSync(join(build, 'w3dlint'), ['--no-progress', '--format', 'json', ...args],
			{ cwd, maxBuffer: 1 << 30 });
	} catch (e) {
		out = e.stdout; // status 1: findings
	}
	return JSON.parse(out);
}

function geometry(path) {
	return JSON.parse(execFileSync(join(build, 'w3ddump'), ['--geometry', path], { maxBuffer: 1 << 30 }));
}

// The smallest file of folder whose native findings match want(finding).
function pick(folder, want) {
	const rep = nativeJson([folder]);
	const hits = rep.files.filter((f) => f.findings.some(want)).sort((a, b) => a.size - b.size);
	return hits.length ? hits[0].path : null;
}

// 'A/B[12]' -> ['A/B', 12]
function split(path) {
	const m = /^(.*)\[(\d+)\]$/.exec(path || '');
	return m ? [m[1], Number(m[2])] : [path, -1];
}

// What the page must highlight for finding f of the file whose native
// geometry is geo: {mesh, triangles, vertices?, bone?}.
function expected(geo, f) {
	const [base, i] = split(f.chunk_path);
	for (const m of geo.meshes) {
		for (const s of m.triangle_arrays || [])
			if (s.path === base)
				return { mesh: m.name, triangles: [s.first + i] };
		for (const s of m.face_arrays || [])
			if (s.path === base) {
				const ft = m.face_triangles, tris = [];
				for (let t = ft[s.first + i]; t < ft[s.first + i + 1]; t++)
					tris.push(t);
				return { mesh: m.name, triangles: tris };
			}
	}
	if (base.endsWith('/BONE')) {
		const b = geo.bone_paths.indexOf(base.slice(0, -5));
		for (const m of geo.meshes) {
			const v = [];
			(m.bones || []).forEach((x, k) => { if (x === b) v.push(k); });
			if (v.length)
				return { mesh: m.name, triangles: [], vertices: v, bone: b };
		}
	}
	return null;
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

// The page's findings: {path: {rule: count}} from the groups, and the
// count of listed findings once every group is opened.
async function shown(page, open) {
	return page.evaluate((openAll) => {
		const out = {};
		let listed = 0;
		for (const d of document.querySelectorAll('details.file')) {
			const rules = {};
			for (const r of d.querySelectorAll('details.rule')) {
				rules[r.dataset.rule] = Number(r.dataset.count);
				if (openAll) {
					r.open = true;
					r.dispatchEvent(new Event('toggle'));
					listed += r.querySelectorAll('li.finding').length;
				}
			}
			out[d.dataset.path] = rules;
		}
		return { files: out, listed };
	}, open);
}

function byRule(report, strip) {
	const out = {};
	for (const f of report.files) {
		const rules = {};
		for (const x of f.findings)
			rules[x.rule] = (rules[x.rule] || 0) + 1;
		out[strip(f.path)] = rules;
	}
	return out;
}

function compareCounts(what, got, want) {
	const a = JSON.stringify(got, Object.keys(got).sort()), keys = Object.keys(want).sort();
	const diffs = [];
	for (const k of new Set([...Object.keys(got), ...keys]))
		if (JSON.stringify(got[k] || null, Object.keys(got[k] || {}).sort()) !==
		    JSON.stringify(want[k] || null, Object.keys(want[k] || {}).sort()))
			diffs.push(`${k}: page ${JSON.stringify(got[k] || null)}, native ${JSON.stringify(want[k] || null)}`);
	if (diffs.length)
		fail(`${what}: ${diffs.length} file(s) differ: ${diffs.slice(0, 3).join('; ')}`);
	return !diffs.length && a.length > 0;
}

async function selectFinding(page, file, rule, index) {
	await page.evaluate((path, r, k) => {
		const d = [...document.querySelectorAll('details.file')].find((x) => x.dataset.path === path);
		d.open = true;
		const g = [...d.querySelectorAll('details.rule')].find((x) => x.dataset.rule === r);
		g.open = true;
		g.dispatchEvent(new Event('toggle'));
		document.getElementById('selection').dataset.rule = '';
		g.querySelectorAll('li.finding')[k].click();
	}, file, rule, index);
	await page.waitForFunction((r) => document.getElementById('selection').dataset.rule === r, { timeout: 60000 }, rule);
	await new Promise((r) => setTimeout(r, 300));
	return page.$eval('#selection', (e) => ({ ...e.dataset, text: e.textContent }));
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
	const bigs = [];
	const walk = (d) => readdirSync(d).forEach((n) => {
		const p = join(d, n);
		if (statSync(p).isDirectory())
			walk(p);
		else if (/\.big$/i.test(n))
			bigs.push(p);
	});
	walk(join(corpus, 'archives'));
	bigs.sort((a, b) => statSync(a).size - statSync(b).size);
	const picked = [w3d, b3d, p3d, bigs[0]];
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
		const input = await page.$('#files');
		await input.uploadFile(...names.map((n) => join(tmp, n)));
		const st = await waitDone(page);
		const got = await shown(page, true);
		const wantCounts = byRule(want, (p) => p);
		const total = want.files.reduce((n, f) => n + f.findings.length, 0);
		if (compareCounts('the four files', got.files, wantCounts))
			ok(`${names.join(', ')}: ${want.files.length} files and entries, ${total} findings per file and rule ` +
				`equal to w3dlint --format json (${Math.round(st.ms)} ms in the page)`);
		if (got.listed !== total)
			fail(`${got.listed} findings listed, the native report has ${total}`);

		// 2. highlights
		const cases = [
			[names[0], 'triangle-degenerate', 'degenerate-triangle.png'],
			[names[2], 'p3d-component-open', 'open-component.png'],
			[names[1], null, 'bone-binding.png'],
		];
		for (const [name, rule0, shot] of cases) {
			const file = want.files.find((f) => f.path === name);
			const k = file.findings.findIndex((x) => rule0 ? x.rule === rule0 : /\/BONE\[\d+\]$/.test(x.chunk_path || ''));
			const f = file.findings[k];
			const idx = file.findings.filter((x, j) => j < k && x.rule === f.rule).length;
			const sel = await selectFinding(page, name, f.rule, idx);
			const exp = expected(geometry(join(tmp, name)), f);
			await page.screenshot({ path: join(artifacts, shot) });
			const gotSel = { mesh: sel.mesh, triangles: sel.triangles ? sel.triangles.split(',').map(Number) : [] };
			const wantSel = exp ? { mesh: exp.mesh, triangles: exp.triangles } : null;
			if (exp && exp.vertices) {
				gotSel.vertices = sel.vertices ? sel.vertices.split(',').map(Number) : [];
				gotSel.bone = Number(sel.bone);
				wantSel.vertices = exp.vertices;
				wantSel.bone = exp.bone;
			}
			if (JSON.stringify(gotSel) !== JSON.stringify(wantSel))
				fail(`${name} ${f.rule} at ${f.chunk_path}: highlighted ${JSON.stringify(gotSel).slice(0, 200)}, ` +
					`w3ddump --geometry names ${JSON.stringify(wantSel).slice(0, 200)}`);
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
		writeFileSync(join(artifacts, 'timing.txt'), `page_ms ${Math.round(st2.ms)}\nnative_ms ${Math.round(native)}\n` +
			`native_j1_ms ${Math.round(native1)}\nfiles ${want2.files.length}\n`);

		// 4. offline
		if (requests.length)
			fail(`the page made ${requests.length} network request(s): ${requests.slice(0, 3).join(' ')}`);
		else
			ok('no request but file:, data: and blob: (offline mode, proxy to a closed port)');
		if (errors.length)
			fail(`errors in the page: ${errors.slice(0, 3).join(' | ')}`);
	} finally {
		await browser.close();
		rmSync(tmp, { recursive: true, force: true });
	}
	return failures ? 1 : 0;
}

main().then((rc) => process.exit(rc), (e) => { console.log(`web_browser: FAIL: ${e.stack || e}`); process.exit(1); });
