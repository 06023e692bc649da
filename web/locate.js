// locate.js - which elements of a file's geometry (w3ddump --geometry,
// textform/geometry.h) a finding names, by its chunk path: the page
// highlights them (docs/web.md; issue 28).
//
// locate(geometry, finding) returns null (nothing to show) or
//   {mesh, kind, triangles, vertices, bone, component, node, box, subobject}
// mesh: index into geometry.meshes; kind: 'triangle', 'face', 'vertex',
// 'bone', 'box', 'subobject' or 'mesh'; triangles, vertices: indices into
// the mesh's arrays; bone: {index, name} for a BONE weight (B3D);
// component: {name, triangles} for a P3D face (the component it belongs
// to) and edges, the face's edges that leave the component open ([lo, hi]
// vertex pairs, as p3d-component-open names them); for a W3D AABTree finding (kind 'box'): node, the node's index, and
// box, its [min x, y, z, max x, y, z] in mesh coordinates (AABTREE_NODES[i]:
// node i with its triangles when a leaf; AABTREE_POLYINDICES[k]: the
// triangle slot k names and the leaf holding slot k; the AABTREE or its
// header: the root, node 0); for a W3D HLOD sub-object (kind 'subobject'):
// subobject {index, name, bone} and every triangle of the mesh it names.
// Indices from the file are never trusted: those out of range are left out.

// 'A/B[12]' -> {base: 'A/B', index: 12}; no trailing index: index -1.
export function splitIndex(path) {
	const m = /^(.*)\[(\d+)\]$/.exec(path);
	return m ? { base: m[1], index: Number(m[2]) } : { base: path, index: -1 };
}

// The element of spans [{path, first, count}] that base[index] names, or -1.
function inSpans(spans, base, index) {
	for (const s of spans || [])
		if (s.path === base && index >= 0 && index < s.count)
			return s.first + index;
	return -1;
}

function range(a, b) {
	const r = [];
	for (let i = a; i < b; i++)
		r.push(i);
	return r;
}

// The distinct vertices of triangles (in the mesh's range only).
export function triangleVertices(mesh, triangles) {
	const nv = mesh.positions.length / 3, seen = new Set();
	for (const t of triangles)
		for (let k = 0; k < 3; k++) {
			const v = mesh.triangles[3 * t + k];
			if (v !== undefined && v < nv)
				seen.add(v);
		}
	return [...seen];
}

function faceTriangles(mesh, f) {
	const ft = mesh.face_triangles;
	return ft && f + 1 < ft.length ? range(ft[f], ft[f + 1]) : [];
}

// The triangles of polyindices slots [first, first + count) that are
// triangles of the mesh.
function slotTriangles(mesh, t, first, count) {
	const nt = mesh.triangles.length / 3, out = [];
	for (let k = Math.max(first, 0); k < Math.min(first + count, t.polyindices.length); k++)
		if (t.polyindices[k] < nt)
			out.push(t.polyindices[k]);
	return out;
}

function boxOf(t, i) {
	return i >= 0 && 6 * i + 6 <= t.boxes.length ? t.boxes.slice(6 * i, 6 * i + 6) : null;
}

// An AABTree finding of mesh mi: node i (its box, a leaf's triangles), a
// poly index slot (its triangle, the leaf holding it), the tree (the root).
function inTree(geo, mi, path, base, index) {
	const m = geo.meshes[mi], t = m.aabtree;
	if (!t)
		return null;
	const box = (node, triangles) => ({ mesh: mi, kind: 'box', node, box: boxOf(t, node), triangles,
		vertices: triangleVertices(m, triangles) });
	const node = inSpans(t.node_arrays, base, index);
	if (node >= 0) {
		const leaf = t.leaf_first[node] >= 0;
		return box(node, leaf ? slotTriangles(m, t, t.leaf_first[node], t.leaf_count[node]) : []);
	}
	const slot = inSpans(t.polyindex_arrays, base, index);
	if (slot >= 0) {
		const tri = slotTriangles(m, t, slot, 1);
		const leaf = t.leaf_first.findIndex((f, i) => f >= 0 && slot >= f && slot < f + t.leaf_count[i]);
		if (leaf >= 0)
			return box(leaf, tri);
		return tri.length ? { mesh: mi, kind: 'triangle', triangles: tri, vertices: triangleVertices(m, tri) } : null;
	}
	if ((path === t.path || path === t.header_path) && t.boxes.length >= 6)
		return box(0, []);
	return null;
}

// An HLOD sub-object: the whole mesh it names.
function inSubobject(geo, path) {
	const subs = geo.subobjects || [];
	const i = subs.findIndex((s) => s.path === path);
	if (i < 0)
		return null;
	const s = subs[i], mi = s.mesh >= 0 && s.mesh < geo.meshes.length ? s.mesh : -1;
	const triangles = [];
	if (mi >= 0) {
		const m = geo.meshes[mi], nv = m.positions.length / 3;
		for (let t = 0; 3 * t + 2 < m.triangles.length; t++)
			if (m.triangles[3 * t] < nv && m.triangles[3 * t + 1] < nv && m.triangles[3 * t + 2] < nv)
				triangles.push(t);
	}
	return { mesh: mi, kind: 'subobject', triangles, vertices: [], subobject: { index: i, name: s.name, bone: s.bone } };
}

// The outline of face f as directed edges [a, b]: the edges of its
// triangles that no other of its triangles has the other way (a quad's
// diagonal goes; the triangles keep the face's winding), degenerate ones
// left out.
function faceEdges(m, f) {
	const nv = m.positions.length / 3, dir = new Set(), out = [];
	const tris = faceTriangles(m, f);
	for (const t of tris)
		for (let k = 0; k < 3; k++)
			dir.add(`${m.triangles[3 * t + k]},${m.triangles[3 * t + (k + 1) % 3]}`);
	for (const t of tris)
		for (let k = 0; k < 3; k++) {
			const a = m.triangles[3 * t + k], b = m.triangles[3 * t + (k + 1) % 3];
			if (a !== b && a < nv && b < nv && !dir.has(`${b},${a}`))
				out.push([a, b]);
		}
	return out;
}

// The edges of face f that make component c open, as lint/p3d/
// check_components.c counts them: an edge (by its two vertex indices)
// not used by exactly two faces of the component, once each way.  Each
// [lo, hi], lo < hi.
function badEdges(m, c, f) {
	const use = new Map();
	for (const k of c.faces)
		for (const [a, b] of faceEdges(m, k)) {
			const key = a < b ? `${a},${b}` : `${b},${a}`;
			const u = use.get(key) || { n: 0, fwd: 0 };
			u.n++;
			u.fwd += a < b ? 1 : 0;
			use.set(key, u);
		}
	const out = [];
	for (const [a, b] of faceEdges(m, f)) {
		const u = use.get(a < b ? `${a},${b}` : `${b},${a}`);
		if (!(u.n === 2 && u.fwd === 1))
			out.push(a < b ? [a, b] : [b, a]);
	}
	return out;
}

function inMesh(geo, mi, base, index) {
	const m = geo.meshes[mi];
	const t = inSpans(m.triangle_arrays, base, index);
	if (t >= 0)
		return { mesh: mi, kind: 'triangle', triangles: [t], vertices: triangleVertices(m, [t]) };
	const f = inSpans(m.face_arrays, base, index);
	if (f >= 0) {
		const triangles = faceTriangles(m, f);
		const r = { mesh: mi, kind: 'face', face: f, triangles, vertices: triangleVertices(m, triangles) };
		const c = (m.components || []).find((x) => x.faces.includes(f));
		if (c) {
			r.component = { name: c.name || '', triangles: c.faces.flatMap((k) => faceTriangles(m, k)) };
			r.edges = badEdges(m, c, f);
		}
		return r;
	}
	let v = inSpans(m.vertex_arrays, base, index);
	if (v < 0)
		v = inSpans(m.vertex_channels, base, index);
	if (v >= 0)
		return { mesh: mi, kind: 'vertex', triangles: [], vertices: [v] };
	return null;
}

// A B3D joint: the finding's path is NODE (the joint) or NODE/BONE[k] (one
// of its weights); the vertices shown are those whose strongest weight is
// this joint's.
function inBone(geo, path, base) {
	const paths = geo.bone_paths || [];
	let b = paths.indexOf(base.endsWith('/BONE') ? base.slice(0, -5) : path);
	if (b < 0)
		return null;
	for (let mi = 0; mi < geo.meshes.length; mi++) {
		const bones = geo.meshes[mi].bones;
		if (!bones)
			continue;
		const vertices = [];
		bones.forEach((x, v) => { if (x === b) vertices.push(v); });
		if (vertices.length)
			return { mesh: mi, kind: 'bone', triangles: [], vertices, bone: { index: b, name: geo.bone_names[b] } };
	}
	return { mesh: -1, kind: 'bone', triangles: [], vertices: [], bone: { index: b, name: geo.bone_names[b] } };
}

export function locate(geo, finding) {
	if (!geo || !finding)
		return null;
	const path = finding.chunk_path || '';
	const { base, index } = splitIndex(path);
	for (let mi = 0; mi < geo.meshes.length; mi++) {
		const r = inMesh(geo, mi, base, index) || inTree(geo, mi, path, base, index);
		if (r)
			return r;
	}
	const b = inBone(geo, path, base) || inSubobject(geo, path);
	if (b)
		return b;
	let best = -1;
	geo.meshes.forEach((m, mi) => {
		if ((path === m.path || path.startsWith(m.path + '/')) && (best < 0 || m.path.length > geo.meshes[best].path.length))
			best = mi;
	});
	return best >= 0 ? { mesh: best, kind: 'mesh', triangles: [], vertices: [] } : null;
}

// One line for the selection bar: what h (locate's answer) shows of geo.
export function describe(h, geo) {
	if (!h)
		return 'this finding names no element of the geometry (a chunk, header or table): nothing to highlight';
	const m = h.mesh >= 0 ? geo.meshes[h.mesh] : null;
	const parts = [m ? `mesh ${m.name || m.path}` : 'no mesh'];
	if (h.subobject)
		parts.unshift(`sub-object ${h.subobject.index} ${h.subobject.name} on bone ${h.subobject.bone}` +
			(m ? '' : ': names no mesh of this file'));
	if (h.kind === 'face')
		parts.push(`face ${h.face}`);
	if (h.kind === 'box' && h.box) {
		const t = m.aabtree, leaf = t.leaf_first[h.node] >= 0;
		const f = (a) => a.map((x) => +x.toPrecision(6)).join(', ');
		parts.push(`node ${h.node} (${leaf ? `leaf of ${t.leaf_count[h.node]} polys` : 'internal'}), ` +
			`box min (${f(h.box.slice(0, 3))}) max (${f(h.box.slice(3))})`);
	}
	if (h.kind === 'subobject' && h.triangles.length)
		parts.push(`all ${h.triangles.length} triangles`);
	else if (h.triangles.length)
		parts.push(`triangle${h.triangles.length > 1 ? 's' : ''} ${h.triangles.join(', ')}`);
	if (h.bone)
		parts.push(`bone ${h.bone.index} ${h.bone.name}`);
	if (h.vertices.length)
		parts.push(`${h.vertices.length} ${h.vertices.length > 1 ? 'vertices' : 'vertex'}` +
			(h.vertices.length <= 8 ? ' ' + h.vertices.join(', ') : ''));
	if (h.component)
		parts.push(`component ${h.component.name || ''} (${h.component.triangles.length} triangles)`);
	if (h.edges && h.edges.length)
		parts.push(`open edge${h.edges.length > 1 ? 's' : ''} ${h.edges.map((e) => e.join('-')).join(', ')}`);
	if (h.kind === 'mesh')
		parts.push('(the whole mesh)');
	return parts.join('; ');
}

// The highlighted elements as the selection bar's data attributes, which
// tests/web_browser.mjs compares with the native w3ddump --geometry: mesh
// (its name), kind, triangles and vertices (comma-separated indices), bone,
// node and box (an AABTree node and its 6 floats), subobject (its index in
// geometry.subobjects), edges (a P3D face's open edges, 'lo-hi,...').  Every key is always set ('' when it does not
// apply): the page assigns them over the previous selection's.
export function selectionData(h, geo) {
	return {
		mesh: h && h.mesh >= 0 ? geo.meshes[h.mesh].name : '',
		kind: h ? h.kind : '',
		triangles: h ? h.triangles.join(',') : '',
		vertices: h ? h.vertices.join(',') : '',
		bone: h && h.bone ? String(h.bone.index) : '',
		node: h && h.kind === 'box' ? String(h.node) : '',
		box: h && h.box ? h.box.join(',') : '',
		subobject: h && h.subobject ? String(h.subobject.index) : '',
		edges: h && h.edges ? h.edges.map((e) => e.join('-')).join(',') : '',
	};
}
