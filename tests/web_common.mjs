// web_common.mjs - what the browser tests of the page (tests/web_browser.mjs)
// and of the HTML report (tests/html_report_browser.mjs) share: the native
// tools' answers (w3dlint --format json, w3ddump --geometry), the corpus
// file with a finding, what a finding's highlight must be, and the
// findings a page shows.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The chromium options of both tests: headless, software WebGL, every
// request but file:, data: and blob: sent to a closed port.
export const LAUNCH_ARGS = ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
	'--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>', '--window-size=1400,900'];

export function nativeJson(build, args, cwd) {
	let out;
	try {
		out = execFileSync(join(build, 'w3dlint'), ['--no-progress', '--format', 'json', ...args],
			{ cwd, maxBuffer: 1 << 30 });
	} catch (e) {
		out = e.stdout; // status 1: findings
	}
	return JSON.parse(out);
}

export function geometry(build, path) {
	return JSON.parse(execFileSync(join(build, 'w3ddump'), ['--geometry', path], { maxBuffer: 1 << 30 }));
}

// The smallest file of folder whose native findings match want(finding).
export function pick(build, folder, want) {
	const rep = nativeJson(build, [folder]);
	const hits = rep.files.filter((f) => f.findings.some(want)).sort((a, b) => a.size - b.size);
	return hits.length ? hits[0].path : null;
}

// 'A/B[12]' -> ['A/B', 12]
export function split(path) {
	const m = /^(.*)\[(\d+)\]$/.exec(path || '');
	return m ? [m[1], Number(m[2])] : [path, -1];
}

// What the page must highlight for finding f of the file whose native
// geometry is geo: {mesh, triangles, vertices?, bone?}.
export function expected(geo, f) {
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

// The page's findings: {path: {rule: count}} from the groups, and the
// count of listed findings once every group is opened.
export async function shown(page, open) {
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

export function byRule(report, strip) {
	const out = {};
	for (const f of report.files) {
		const rules = {};
		for (const x of f.findings)
			rules[x.rule] = (rules[x.rule] || 0) + 1;
		out[strip(f.path)] = rules;
	}
	return out;
}

// The files whose counts differ, as lines (none: equal).
export function countDiffs(got, want) {
	const keys = Object.keys(want).sort();
	const diffs = [];
	for (const k of new Set([...Object.keys(got), ...keys]))
		if (JSON.stringify(got[k] || null, Object.keys(got[k] || {}).sort()) !==
		    JSON.stringify(want[k] || null, Object.keys(want[k] || {}).sort()))
			diffs.push(`${k}: page ${JSON.stringify(got[k] || null)}, native ${JSON.stringify(want[k] || null)}`);
	return diffs;
}

export async function selectFinding(page, file, rule, index) {
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

