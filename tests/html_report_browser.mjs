// html_report_browser.mjs - w3dlint --format html's report in Debian's
// chromium, driven by puppeteer-core (web/package.json), opened from file://
// with the network off (docs/web.md "The HTML report"; make test-html):
//   node tests/html_report_browser.mjs BUILD WASM CORPUS ARTIFACTS W3D.html W3D.json
// 1. one W3D file with a degenerate triangle, one B3D file with a BONE
//    weight finding, one P3D file with an open component (the smallest of
//    each in CORPUS by the native report) and the smallest BIG archive are
//    reported together (--xref): the findings the report shows per file
//    and rule, and those listed, equal --format json's;
// 2. a finding of each of the three files is selected: the highlighted
//    elements are those the native w3ddump --geometry names; screenshots
//    (report-degenerate-triangle.png, report-open-component.png,
//    report-bone-binding.png) go to ARTIFACTS;
// 3. the report of the whole W3D folder (W3D.html, with W3D.json of the
//    same run) shows the same findings per file and rule; the time it
//    takes to show is printed;
// 4. no request leaves the page but file:, data: and blob: ones, and the
//    page reports no error.
// Prints one line per check; exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LAUNCH_ARGS, byRule, countDiffs, highlightCase, nativeJson, offlineAndClean, pick, shown, smallestBig } from './web_common.mjs';

const [build, wasm, corpus, artifacts, w3dHtml, w3dJson] = process.argv.slice(2).map((p) => resolve(p));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const puppeteer = createRequire(join(wasm, 'web-npm', 'package.json'))('puppeteer-core');
let failures = 0;
const fail = (msg) => { failures++; console.log(`html_report_browser: FAIL: ${msg}`); };
const ok = (msg) => console.log(`html_report_browser: ok: ${msg}`);

// Opens the report file; resolves with the ms it took to be shown.
async function open(page, file) {
	const t0 = Date.now();
	await page.goto(pathToFileURL(file).href);
	await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state), { timeout: 300000 });
	const state = await page.evaluate(() => document.body.dataset.state);
	if (state !== 'done')
		throw new Error(`the report failed: ${await page.$eval('#status', (e) => e.textContent).catch(() => '?')}`);
	return Date.now() - t0;
}

function compare(what, got, want) {
	const diffs = countDiffs(got.files, byRule(want, (p) => p));
	const total = want.files.reduce((n, f) => n + f.findings.length, 0);
	if (diffs.length)
		fail(`${what}: ${diffs.length} file(s) differ: ${diffs.slice(0, 3).join('; ')}`);
	else if (got.listed !== undefined && got.listed !== total)
		fail(`${what}: ${got.listed} findings listed, the JSON report has ${total}`);
	return diffs.length ? -1 : total;
}

async function main() {
	const picked = [
		pick(build, join(corpus, 'w3d'), (x) => x.rule === 'triangle-degenerate'),
		pick(build, join(corpus, 'b3d'), (x) => /\/BONE\[\d+\]$/.test(x.chunk_path || '')),
		pick(build, join(corpus, 'p3d'), (x) => x.rule === 'p3d-component-open'),
		smallestBig(corpus),
	];
	if (picked.some((p) => !p)) {
		fail(`the corpus lacks a file for a check: ${JSON.stringify(picked)}`);
		return 1;
	}
	const tmp = mkdtempSync(join(tmpdir(), 'w3dlint-html-'));
	const names = picked.map((p) => basename(p));
	picked.forEach((p, i) => copyFileSync(p, join(tmp, names[i])));
	const want = nativeJson(build, ['--xref', ...names], tmp);
	try {
		execFileSync(join(build, 'w3dlint'), ['--no-progress', '--format', 'html', '--xref', '-o', 'four.html', ...names],
			{ cwd: tmp });
	} catch (e) {
		if (e.status !== 1)
			throw e;
	}

	const requests = [], errors = [];
	const browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: LAUNCH_ARGS,
		defaultViewport: { width: 1400, height: 900 } });
	try {
		const page = await browser.newPage();
		page.on('pageerror', (e) => errors.push(String(e)));
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		await page.setOfflineMode(true);
		page.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) requests.push(r.url()); });

		// 1. the four files
		const ms = await open(page, join(tmp, 'four.html'));
		const n = compare('the four files', await shown(page, true), want);
		if (n >= 0)
			ok(`${names.join(', ')}: ${want.files.length} files and entries, ${n} findings per file and rule ` +
				`equal to w3dlint --format json (report of ${statSync(join(tmp, 'four.html')).size} bytes shown in ${ms} ms)`);

		// 2. highlights
		const cases = [
			[names[0], 'triangle-degenerate', 'report-degenerate-triangle.png'],
			[names[2], 'p3d-component-open', 'report-open-component.png'],
			[names[1], null, 'report-bone-binding.png'],
		];
		for (const [name, rule0, shot] of cases) {
			const { finding: f, sel, problem } = await highlightCase(page, build, tmp, want, name, rule0, join(artifacts, shot));
			const explained = await page.$eval('#explain', (e) => e.textContent);
			if (problem)
				fail(`${name} ${f.rule} at ${f.chunk_path}: ${problem}`);
			else if (!explained.startsWith(f.rule))
				fail(`${name} ${f.rule}: the explanation shown is not the rule's: ${explained.slice(0, 80)}`);
			else
				ok(`${name} ${f.rule} at ${f.chunk_path}: ${sel.text.slice(0, 160)}; explained (${shot})`);
		}

		// 3. the whole W3D folder
		const ms2 = await open(page, w3dHtml);
		const want2 = JSON.parse(readFileSync(w3dJson, 'utf8'));
		const n2 = compare('the W3D folder', await shown(page, true), want2);
		if (n2 >= 0)
			ok(`the W3D folder's report (${statSync(w3dHtml).size} bytes): ${want2.files.length} files, ${n2} ` +
				`findings per file and rule equal to the JSON report; shown in ${ms2} ms`);

		// 4. offline, no error
		offlineAndClean('report', requests, errors, ok, fail);
	} finally {
		await browser.close();
		rmSync(tmp, { recursive: true, force: true });
	}
	return failures ? 1 : 0;
}

if (!existsSync(chromium)) {
	console.log(`html_report_browser: FAIL: no chromium at ${chromium}`);
	process.exit(1);
}
main().then((rc) => process.exit(rc), (e) => { console.log(`html_report_browser: FAIL: ${e.stack || e}`); process.exit(1); });
