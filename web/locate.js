// locate.js - which elements of a file's geometry (w3ddump --geometry,
// textform/geometry.h) a finding names, by its chunk path: the page
// highlights them (docs/web.md; issue 28).
//
// locate(geometry, finding) returns null (nothing to show) or
//   {mesh, kind, triangles, vertices, bone, component}
// mesh: index into geometry.meshes; kind: 'triangle', 'face', 'vertex',
// 'bone' or 'mesh'; triangles, vertices: indices into the mesh's arrays;
// bone: {index, name} for a BONE weight (B3D); component: {name,
// triangles} for a P3D face (the component it belongs to).

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
		if (c)
			r.component = { name: c.name || '', triangles: c.faces.flatMap((k) => faceTriangles(m, k)) };
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
		const r = inMesh(geo, mi, base, index);
		if (r)
			return r;
	}
	const b = inBone(geo, path, base);
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
	if (h.kind === 'face')
		parts.push(`face ${h.face}`);
	if (h.triangles.length)
		parts.push(`triangle${h.triangles.length > 1 ? 's' : ''} ${h.triangles.join(', ')}`);
	if (h.bone)
		parts.push(`bone ${h.bone.index} ${h.bone.name}`);
	if (h.vertices.length)
		parts.push(`${h.vertices.length} ${h.vertices.length > 1 ? 'vertices' : 'vertex'}` +
			(h.vertices.length <= 8 ? ' ' + h.vertices.join(', ') : ''));
	if (h.component)
		parts.push(`component ${h.component.name || ''} (${h.component.triangles.length} triangles)`);
	if (h.kind === 'mesh')
		parts.push('(the whole mesh)');
	return parts.join('; ');
}

// The highlighted elements as the selection bar's data attributes, which
// tests/web_browser.mjs compares with the native w3ddump --geometry: mesh
// (its name), kind, triangles and vertices (comma-separated indices), bone.
export function selectionData(h, geo) {
	return {
		mesh: h && h.mesh >= 0 ? geo.meshes[h.mesh].name : '',
		kind: h ? h.kind : '',
		triangles: h ? h.triangles.join(',') : '',
		vertices: h ? h.vertices.join(',') : '',
		bone: h && h.bone ? String(h.bone.index) : '',
	};
}
