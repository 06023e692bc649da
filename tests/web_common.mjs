// web_common.mjs - what the browser tests of the page (tests/web_browser.mjs)
// and of the HTML report (tests/html_report_browser.mjs) share: the native
// tools' answers (w3dlint --format json, w3ddump --geometry), the corpus
// file with a finding, what a finding's highlight must be, and the
// findings a page shows.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

// What the page must highlight for a W3D AABTree or HLOD sub-object
// finding f, from the native geometry geo: {mesh, kind, node?, box?,
// triangles}, or null.
export function expectedTree(geo, f) {
	const [base, i] = split(f.chunk_path);
	for (const m of geo.meshes) {
		const t = m.aabtree, nt = m.triangles.length / 3;
		if (!t)
			continue;
		// the triangles of slots [a, b) that exist
		const slots = (a, b) => t.polyindices.slice(Math.max(a, 0), Math.max(b, 0)).filter((x) => x < nt);
		const node = (k, tris) => ({ mesh: m.name, kind: 'box', node: k, box: t.boxes.slice(6 * k, 6 * k + 6),
			triangles: tris });
		for (const s of t.node_arrays || [])
			if (s.path === base && i >= 0 && i < s.count) {
				const k = s.first + i;
				return node(k, t.leaf_first[k] >= 0 ? slots(t.leaf_first[k], t.leaf_first[k] + t.leaf_count[k]) : []);
			}
		for (const s of t.polyindex_arrays || [])
			if (s.path === base && i >= 0 && i < s.count) {
				const k = s.first + i;
				const leaf = t.leaf_first.findIndex((a, j) => a >= 0 && k >= a && k < a + t.leaf_count[j]);
				return leaf >= 0 ? node(leaf, slots(k, k + 1)) : { mesh: m.name, kind: 'triangle', triangles: slots(k, k + 1) };
			}
	}
	const sub = (geo.subobjects || []).find((s) => s.path === f.chunk_path);
	if (!sub)
		return null;
	const m = sub.mesh >= 0 ? geo.meshes[sub.mesh] : null, tris = [];
	for (let t = 0; m && 3 * t < m.triangles.length; t++)
		if ([0, 1, 2].every((k) => m.triangles[3 * t + k] < m.positions.length / 3))
			tris.push(t);
	return { mesh: m ? m.name : '', kind: 'subobject', triangles: tris };
}

// The open edge a p3d-component-open finding names in its message ("the
// edge of face F from vertex A (...) to vertex B"), as the page's
// selection writes it ('A-B'), or null for another finding.
export function openEdgeOf(f) {
	const m = /component-open$/.test(f.rule) && /from vertex (\d+) \(.*\) to vertex (\d+) \(/.exec(f.message);
	return m ? `${m[1]}-${m[2]}` : null;
}

// '' when the page's selection sel shows the open edge finding f names (or
// f names none), else what is wrong.
export function openEdgeProblem(f, sel) {
	const e = openEdgeOf(f);
	if (!e)
		return '';
	return (sel.edges || '').split(',').includes(e) ? '' :
		`the open edge ${e} of the message is not among the highlighted ${sel.edges || '(none)'}`;
}

// Selects in page the first finding of file name (in want, a --format json
// report of the files in dir) that matches rule0 (a rule id, or null: a B3D
// BONE weight), saves a screenshot to shot, and compares the highlight with
// what the native w3ddump --geometry of the file names.  Returns {finding,
// sel, problem}: problem '' when they agree.
export async function highlightCase(page, build, dir, want, name, rule0, shot) {
	const file = want.files.find((f) => f.path === name);
	const k = file.findings.findIndex((x) => rule0 ? x.rule === rule0 : /\/BONE\[\d+\]$/.test(x.chunk_path || ''));
	const f = file.findings[k];
	const idx = file.findings.filter((x, j) => j < k && x.rule === f.rule).length;
	const sel = await selectFinding(page, name, f.rule, idx);
	const exp = expected(geometry(build, join(dir, name)), f);
	await page.screenshot({ path: shot });
	const gotSel = { mesh: sel.mesh, triangles: sel.triangles ? sel.triangles.split(',').map(Number) : [] };
	const wantSel = exp ? { mesh: exp.mesh, triangles: exp.triangles } : null;
	if (exp && exp.vertices) {
		gotSel.vertices = sel.vertices ? sel.vertices.split(',').map(Number) : [];
		gotSel.bone = Number(sel.bone);
		wantSel.vertices = exp.vertices;
		wantSel.bone = exp.bone;
	}
	let problem = openEdgeProblem(f, sel);
	if (JSON.stringify(gotSel) !== JSON.stringify(wantSel))
		problem = `highlighted ${JSON.stringify(gotSel).slice(0, 200)}, w3ddump --geometry names ` +
			`${JSON.stringify(wantSel).slice(0, 200)}`;
	return { finding: f, sel, problem };
}

// The last checks of a page's test: no request left it but file:, data:
// and blob: ones (requests: those that did), and it reported no error.
// Calls ok or fail for each.
export function offlineAndClean(what, requests, errors, ok, fail) {
	if (requests.length)
		fail(`the ${what} made ${requests.length} network request(s): ${requests.slice(0, 3).join(' ')}`);
	else
		ok('no request but file:, data: and blob: (offline mode, proxy to a closed port)');
	if (errors.length)
		fail(`errors in the ${what}: ${errors.slice(0, 3).join(' | ')}`);
}

// The smallest BIG archive below corpus/archives, or undefined.
export function smallestBig(corpus) {
	const bigs = [];
	const walk = (d) => readdirSync(d).forEach((n) => {
		const p = join(d, n);
		if (statSync(p).isDirectory())
			walk(p);
		else if (/\.big$/i.test(n))
			bigs.push(p);
	});
	walk(join(corpus, 'archives'));
	return bigs.sort((a, b) => statSync(a).size - statSync(b).size)[0];
}
