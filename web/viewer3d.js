// viewer3d.js - the page's 3D view (docs/web.md; issue 28): the meshes of
// one file's geometry (w3ddump --geometry) drawn with three.js in the file's
// own coordinates (W3D: z up; B3D and P3D: y up; a mesh with a "transform",
// a W3D rigid mesh its HLOD puts on a bone, where the transform puts it),
// and the elements of the selected finding (web/locate.js) drawn over them:
// triangles in red, their edges and vertices in yellow, the rest of a P3D
// component in blue, an AABTree node's box in green, always on top.  Orbit
// with the mouse (OrbitControls), zoom to the finding, wireframe.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const MODEL = 0x9aa5b1, HIGHLIGHT = 0xe5372b, EDGE = 0xffd400, COMPONENT = 0x2f7de1, BOX = 0x2fe07a;
const OPEN_EDGE = 0xff2bd6; // a P3D face's open edges

// The mesh's transform as a Matrix4 (world from mesh), or null: absent, or
// not 16 finite numbers.
function transformOf(m) {
	const t = m && m.transform;
	if (!Array.isArray(t) || t.length !== 16 || !t.every(Number.isFinite))
		return null;
	return new THREE.Matrix4().fromArray(t);
}

// Puts object where mesh m's transform puts it (nothing without one).
function place(object, m) {
	const t = transformOf(m);
	if (t) {
		object.matrixAutoUpdate = false;
		object.matrix.copy(t);
	}
	return object;
}

// The 12 edges of box [min x, y, z, max x, y, z] as line segments.
function boxLines(b) {
	const c = [];
	for (let i = 0; i < 8; i++)
		c.push([b[i & 1 ? 3 : 0], b[i & 2 ? 4 : 1], b[i & 4 ? 5 : 2]]);
	const p = [];
	for (let i = 0; i < 8; i++)
		for (const bit of [1, 2, 4])
			if (!(i & bit))
				p.push(...c[i], ...c[i | bit]);
	const g = new THREE.BufferGeometry();
	g.setAttribute('position', new THREE.Float32BufferAttribute(p, 3));
	return g;
}

// The positions to draw: a W3D skin's vertices in the bind pose when the
// geometry has them (posed_positions: stored skin vertices are each in
// their bone's space), else as stored.
const positionsOf = (m) => m.posed_positions || m.positions;

// A BufferGeometry of the mesh's positions and its triangles whose three
// indices are vertices of the mesh (a damaged file's others are skipped).
function meshGeometry(m, triangles) {
	const nv = positionsOf(m).length / 3, idx = [];
	const list = triangles || Array.from({ length: m.triangles.length / 3 }, (_, t) => t);
	for (const t of list) {
		const a = m.triangles[3 * t], b = m.triangles[3 * t + 1], c = m.triangles[3 * t + 2];
		if (a < nv && b < nv && c < nv)
			idx.push(a, b, c);
	}
	const g = new THREE.BufferGeometry();
	g.setAttribute('position', new THREE.Float32BufferAttribute(positionsOf(m), 3));
	g.setIndex(idx);
	g.computeVertexNormals();
	return g;
}

function onTop(material) {
	material.depthTest = false;
	material.transparent = true;
	return material;
}

export class Viewer {
	constructor(canvas) {
		this.canvas = canvas;
		this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
		this.renderer.setPixelRatio(window.devicePixelRatio || 1);
		this.scene = new THREE.Scene();
		this.scene.background = new THREE.Color(0x1d2329);
		this.camera = new THREE.PerspectiveCamera(45, 1, 0.001, 1e6);
		this.controls = new OrbitControls(this.camera, canvas);
		this.controls.addEventListener('change', () => this.render());
		this.scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 1.6));
		this.light = new THREE.DirectionalLight(0xffffff, 1.4);
		this.scene.add(this.light);
		this.model = new THREE.Group();
		this.marks = new THREE.Group();
		this.scene.add(this.model, this.marks);
		this.wireframe = false;
		new ResizeObserver(() => this.resize()).observe(canvas.parentElement);
		this.resize();
	}

	resize() {
		const p = this.canvas.parentElement, w = p.clientWidth || 1, h = p.clientHeight || 1;
		this.renderer.setSize(w, h, false);
		this.camera.aspect = w / h;
		this.camera.updateProjectionMatrix();
		this.render();
	}

	render() {
		this.light.position.copy(this.camera.position);
		this.renderer.render(this.scene, this.camera);
	}

	clear(group) {
		for (const o of [...group.children]) {
			group.remove(o);
			o.geometry && o.geometry.dispose();
			o.material && o.material.dispose();
		}
	}

	// Draws geo's meshes (all, or only meshIndex >= 0) and frames them.
	show(geo, meshIndex) {
		this.geo = geo;
		this.meshIndex = meshIndex;
		this.clear(this.model);
		this.clear(this.marks);
		this.camera.up.set(0, 0, 1);
		if (geo.format !== 'w3d')
			this.camera.up.set(0, 1, 0);
		geo.meshes.forEach((m, i) => {
			if (meshIndex >= 0 && i !== meshIndex)
				return;
			const mat = new THREE.MeshLambertMaterial({ color: MODEL, side: THREE.DoubleSide, flatShading: true,
				wireframe: this.wireframe, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
			this.model.add(place(new THREE.Mesh(meshGeometry(m), mat), m));
		});
		this.frame(this.model);
	}

	// Puts the camera where the whole of object (or box) is in view.
	frame(object, box) {
		box = box || new THREE.Box3().setFromObject(object);
		if (box.isEmpty()) {
			box = new THREE.Box3(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1));
		}
		const c = box.getCenter(new THREE.Vector3());
		const r = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-3);
		const dir = this.camera.up.z ? new THREE.Vector3(1, -1.3, 0.8) : new THREE.Vector3(1, 0.8, 1.3);
		this.camera.position.copy(c).addScaledVector(dir.normalize(), r * 2.6);
		this.camera.near = r / 100;
		this.camera.far = r * 100;
		this.camera.updateProjectionMatrix();
		this.controls.target.copy(c);
		this.controls.update();
		this.render();
	}

	setWireframe(on) {
		this.wireframe = on;
		for (const o of this.model.children)
			o.material.wireframe = on;
		this.render();
	}

	// Draws the elements of h (web/locate.js) of the shown geometry.
	highlight(h) {
		this.clear(this.marks);
		this.h = h;
		if (!h || h.mesh < 0)
			return this.render();
		const m = this.geo.meshes[h.mesh];
		if (h.component && h.component.triangles.length) {
			const mat = onTop(new THREE.MeshBasicMaterial({ color: COMPONENT, opacity: 0.35, side: THREE.DoubleSide }));
			this.marks.add(new THREE.Mesh(meshGeometry(m, h.component.triangles), mat));
		}
		if (h.triangles.length) {
			const g = meshGeometry(m, h.triangles);
			const mat = onTop(new THREE.MeshBasicMaterial({ color: HIGHLIGHT, opacity: 0.85, side: THREE.DoubleSide }));
			this.marks.add(new THREE.Mesh(g, mat));
			// the edges too: a degenerate triangle has no area to fill
			const lines = onTop(new THREE.LineBasicMaterial({ color: EDGE }));
			this.marks.add(new THREE.LineSegments(new THREE.WireframeGeometry(g), lines));
		}
		if (h.vertices.length) {
			const p = [];
			for (const v of h.vertices)
				p.push(positionsOf(m)[3 * v], positionsOf(m)[3 * v + 1], positionsOf(m)[3 * v + 2]);
			const g = new THREE.BufferGeometry();
			g.setAttribute('position', new THREE.Float32BufferAttribute(p, 3));
			const mat = onTop(new THREE.PointsMaterial({ color: EDGE, size: h.kind === 'bone' ? 5 : 9,
				sizeAttenuation: false }));
			this.marks.add(new THREE.Points(g, mat));
		}
		if (h.edges && h.edges.length) {
			// a face's open edges: the lines and their ends, over the rest
			const p = [];
			for (const e of h.edges)
				for (const v of e)
					p.push(positionsOf(m)[3 * v], positionsOf(m)[3 * v + 1], positionsOf(m)[3 * v + 2]);
			const g = new THREE.BufferGeometry();
			g.setAttribute('position', new THREE.Float32BufferAttribute(p, 3));
			const lines = new THREE.LineSegments(g, onTop(new THREE.LineBasicMaterial({ color: OPEN_EDGE })));
			const ends = new THREE.Points(g.clone(), onTop(new THREE.PointsMaterial({ color: OPEN_EDGE, size: 12,
				sizeAttenuation: false })));
			lines.userData.last = ends.userData.last = true;
			this.marks.add(lines, ends);
		}
		if (h.box && h.box.every(Number.isFinite)) {
			const mat = onTop(new THREE.LineBasicMaterial({ color: BOX }));
			this.marks.add(new THREE.LineSegments(boxLines(h.box), mat));
		}
		for (const o of this.marks.children) {
			o.renderOrder = o.userData.last ? 2 : 1;
			place(o, m);
		}
		this.render();
	}

	// Frames the highlighted elements (with some of the model around them).
	zoomToHighlight() {
		// from the highlighted vertices (or the vertices of the highlighted
		// triangles) and the corners of a box, placed by the mesh's
		// transform: the marks' geometries hold every position of the mesh
		// (only their index is the finding's)
		const box = new THREE.Box3(), h = this.h;
		const m = h && h.mesh >= 0 && this.geo ? this.geo.meshes[h.mesh] : null;
		const t = transformOf(m), nv = m ? positionsOf(m).length / 3 : 0;
		const add = (x, y, z) => {
			const p = new THREE.Vector3(x, y, z);
			box.expandByPoint(t ? p.applyMatrix4(t) : p);
		};
		let vertices = m ? h.vertices : [];
		if (m && !vertices.length && h.triangles.length) {
			const seen = new Set();
			for (const i of h.triangles)
				for (let k = 0; k < 3; k++)
					if (m.triangles[3 * i + k] < nv)
						seen.add(m.triangles[3 * i + k]);
			vertices = [...seen];
		}
		for (const v of vertices)
			add(positionsOf(m)[3 * v], positionsOf(m)[3 * v + 1], positionsOf(m)[3 * v + 2]);
		if (m && h.box && h.box.every(Number.isFinite))
			for (let i = 0; i < 8; i++)
				add(h.box[i & 1 ? 3 : 0], h.box[i & 2 ? 4 : 1], h.box[i & 4 ? 5 : 2]);
		if (box.isEmpty())
			return this.frame(this.model);
		const whole = new THREE.Box3().setFromObject(this.model);
		const min = whole.isEmpty() ? 0 : whole.getSize(new THREE.Vector3()).length() * 0.08;
		const size = box.getSize(new THREE.Vector3()).length();
		if (size < min)
			box.expandByScalar((min - size) / 2);
		this.frame(null, box);
	}
}
