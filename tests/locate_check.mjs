// locate_check.mjs - web/locate.js over every finding of the corpus, in
// node (make test-web-browser; docs/web.md):
//   node tests/locate_check.mjs BUILD CORPUS
// For each corpus folder (w3d, b3d, p3d), the native w3dlint --format json
// and, per file with findings, the native w3ddump --geometry; every
// finding is located as the page and the HTML report locate it:
// - a finding at an element of the geometry's spans (PATH[i] of a
//   vertex, triangle, face, AABTree node or poly index array) must be
//   located, at that element's kind;
// - a p3d-component-open finding must highlight the open edge its message
//   names among the face's edges (the same count as
//   lint/p3d/check_components.c, made here from the geometry's triangles).
// Prints the counts per kind; exits 1 on any failure.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { geometry, nativeJson, openEdgeOf, split } from './web_common.mjs';

const [build, corpus] = process.argv.slice(2).map((p) => resolve(p));
const here = new URL('.', import.meta.url).pathname;
const { locate } = await import(pathToFileURL(join(here, '..', 'web', 'locate.js')).href);

let failures = 0;
const fail = (msg) => { if (failures++ < 10) console.log(`locate_check: FAIL: ${msg}`); };

// The kind a finding at base[i] must be located as, from the geometry's
// spans alone, or null when it names no element.
function spanKind(geo, base, i) {
	const has = (spans) => (spans || []).some((s) => s.path === base && i >= 0 && i < s.count);
	for (const m of geo.meshes) {
		if (has(m.triangle_arrays))
			return ['triangle'];
		if (has(m.face_arrays))
			return ['face'];
		if (has(m.vertex_arrays) || has(m.vertex_channels))
			return ['vertex'];
		if (m.aabtree && (has(m.aabtree.node_arrays) || has(m.aabtree.polyindex_arrays)))
			return ['box', 'triangle'];
	}
	return null;
}

const kinds = {};
let findings = 0, edges = 0;
for (const folder of ['w3d', 'b3d', 'p3d']) {
	const rep = nativeJson(build, [folder], corpus);
	for (const file of rep.files) {
		if (!file.findings.length)
			continue;
		const geo = geometry(build, join(corpus, file.path));
		for (const f of file.findings) {
			findings++;
			const h = locate(geo, f);
			const k = h ? h.kind : 'none';
			kinds[k] = (kinds[k] || 0) + 1;
			const [base, i] = split(f.chunk_path || '');
			const want = spanKind(geo, base, i);
			if (want && (!h || !want.includes(h.kind)))
				fail(`${file.path}: ${f.rule} at ${f.chunk_path}: located as ${k}, the geometry holds a ${want.join(' or ')}`);
			const e = openEdgeOf(f);
			if (e) {
				edges++;
				if (!h || !(h.edges || []).some((x) => x.join('-') === e))
					fail(`${file.path}: ${f.rule} at ${f.chunk_path}: the open edge ${e} of its message is not among ` +
						`${JSON.stringify(h && h.edges)}`);
			}
		}
	}
}
if (failures) {
	console.log(`locate_check: FAIL: ${failures} finding(s) of ${findings}`);
	process.exit(1);
}
console.log(`locate_check: ok: ${findings} corpus findings located as the page locates them ` +
	`(${Object.entries(kinds).map(([k, n]) => `${k} ${n}`).join(', ')}); the open edge of each of the ${edges} ` +
	'p3d-component-open findings is among its face\'s highlighted edges');
