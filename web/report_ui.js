// report_ui.js - the findings and the 3D view (web/layout.html), shared by
// the page (web/app.js, which lints in a worker) and the HTML report
// (web/report.js, whose data is in the file; docs/web.md): the findings of
// a w3dlint --format json report grouped by file and rule with their
// severities, messages and --explain text; the selected file's meshes with
// the selected finding's elements highlighted (web/viewer3d.js,
// web/locate.js).  For the browser tests, every file and rule group carries
// data-path, data-rule and data-count, and #selection the highlighted
// elements (locate.js selectionData).
import { Viewer } from './viewer3d.js';
import { describe, locate, selectionData } from './locate.js';

const $ = (id) => document.getElementById(id);
const SEVERITIES = ['error', 'warning', 'info'];

export function el(tag, props, ...children) {
	const e = document.createElement(tag);
	Object.assign(e, props || {});
	for (const c of children)
		e.append(c);
	return e;
}

// Offers data as a file to save.
export function download(name, data, type) {
	const url = URL.createObjectURL(new Blob([data], { type }));
	const a = el('a', { href: url, download: name });
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 10000);
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

export function summaryText(s) {
	return `${s.files} file(s): ${s.errors} error(s), ${s.warnings} warning(s), ${s.infos} info(s)` +
		(s.unreadable ? `, ${s.unreadable} unreadable` : '');
}

// source: {
//   geometry(path): a promise of the file's geometry (w3ddump --geometry),
//                   or of null when there is none to show
//   explain(rule):  a promise of rule's --explain text
//   fileButtons(file): elements for the file's line (the page: its
//                   repaired file), optional
//   fail(err):      shows an error
// }
export class ReportUI {
	constructor(source) {
		this.source = source;
		this.geometry = new Map();  // path -> promise of geometry
		this.selected = null;       // {file, finding}
		this.shownPath = null;
		this.view = 0;              // counts what was asked to be shown: the last wins
		this.h = null;
		this.viewer = null;
		$('wireframe').onchange = () => this.getViewer().setWireframe($('wireframe').checked);
		$('zoom').onclick = () => this.getViewer().zoomToHighlight();
		$('reset').onclick = () => this.getViewer().frame(this.getViewer().model);
		$('mesh').onchange = () => this.meshChanged().catch(source.fail);
	}

	getViewer() {
		if (!this.viewer)
			this.viewer = new Viewer($('canvas'));
		return this.viewer;
	}

	geometryOf(path) {
		if (!this.geometry.has(path))
			this.geometry.set(path, this.source.geometry(path));
		return this.geometry.get(path);
	}

	// Forgets the report, the selection and the model shown.
	clear() {
		this.geometry.clear();
		this.selected = null;
		this.shownPath = null;
		this.h = null;
		this.view++;
		$('report').textContent = '';
		$('explain').textContent = '';
		$('mesh').textContent = '';
		$('model-name').textContent = 'no model';
		const s = $('selection');
		s.textContent = 'Select a finding to see its elements on the model.';
		for (const k of Object.keys(s.dataset))
			delete s.dataset[k];
		if (this.viewer)
			this.viewer.show({ meshes: [], format: '' }, -1);
	}

	// Lists the report's files, each with its findings grouped by rule.
	render(rep) {
		const box = $('report');
		box.textContent = '';
		$('summary').textContent = summaryText(rep.summary);
		for (const file of rep.files)
			box.append(this.fileGroup(file));
	}

	fileGroup(file) {
		const det = el('details', { className: 'file' });
		det.dataset.path = file.path;
		det.dataset.count = String(file.findings.length);
		const sum = el('summary', {}, file.path,
			el('span', { className: 'counts', textContent: `${file.format || ''} - ${countText(counts(file.findings))}` }));
		if (file.findings.length && this.source.fileButtons)
			sum.append(...this.source.fileButtons(file));
		det.append(sum);
		// opening a file shows it, unless one of its findings is being shown
		det.addEventListener('toggle', () => {
			if (det.open && !(this.selected && this.selected.file.path === file.path))
				this.showFile(file.path).catch(this.source.fail);
		});
		const byRule = new Map();
		for (const f of file.findings) {
			if (!byRule.has(f.rule))
				byRule.set(f.rule, []);
			byRule.get(f.rule).push(f);
		}
		for (const [rule, list] of byRule)
			det.append(this.ruleGroup(file, rule, list));
		return det;
	}

	ruleGroup(file, rule, list) {
		const rd = el('details', { className: 'rule' });
		rd.dataset.rule = rule;
		rd.dataset.count = String(list.length);
		const sev = list[0].severity;
		const explainBtn = el('button', { className: 'small', textContent: 'explain' });
		explainBtn.onclick = (e) => { e.preventDefault(); this.explain(rule).catch(this.source.fail); };
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
				li.onclick = () => this.select(file, f, li).catch(this.source.fail);
				ol.append(li);
			});
			rd.append(ol);
		});
		return rd;
	}

	async explain(rule) {
		$('explain').textContent = await this.source.explain(rule);
	}

	fillMeshes(geo, meshIndex) {
		const sel = $('mesh');
		sel.textContent = '';
		sel.append(el('option', { value: '-1', textContent: `all ${geo.meshes.length} meshes` }));
		geo.meshes.forEach((m, i) => sel.append(el('option', { value: String(i),
			textContent: `${m.name || m.path} (${m.positions.length / 3} v, ${m.triangles.length / 3} t)` })));
		sel.value = String(meshIndex);
	}

	// Shows the file's meshes: all of a W3D or B3D file, the first LOD of a
	// P3D (LODs are the whole model each, at other detail).  null when
	// another file or finding was asked for meanwhile, or the file has no
	// geometry to show.
	async showFile(path, meshIndex, token) {
		token = token || ++this.view;
		const geo = await this.geometryOf(path);
		if (token !== this.view)
			return null;
		this.shownPath = path;
		if (!geo) {
			$('model-name').textContent = `${path}: no geometry in this report`;
			$('mesh').textContent = '';
			this.getViewer().show({ meshes: [], format: '' }, -1);
			return null;
		}
		if (meshIndex === undefined)
			meshIndex = geo.format === 'p3d' && geo.meshes.length ? 0 : -1;
		$('model-name').textContent = `${path} (${geo.format})`;
		// for the tests: the meshes placed or posed by a hierarchy of
		// another file (W3D NAME.w3d beside it), and the skins posed
		const mn = $('model-name');
		mn.dataset.posed = String(geo.meshes.filter((m) => m.posed_positions).length);
		mn.dataset.otherFile = String(geo.meshes.filter((m) => m.hierarchy_file).length);
		this.fillMeshes(geo, meshIndex);
		this.getViewer().show(geo, meshIndex);
		this.getViewer().highlight(null);
		return geo;
	}

	async select(file, finding, li) {
		for (const x of document.querySelectorAll('li.finding.selected'))
			x.classList.remove('selected');
		li.classList.add('selected');
		li.scrollIntoView({ block: 'nearest' });
		this.selected = { file, finding };
		const token = ++this.view;
		const geo = await this.geometryOf(file.path);
		const h = geo ? locate(geo, finding) : null;
		const shown = await this.showFile(file.path, h && h.mesh >= 0 ? h.mesh : undefined, token);
		if (token !== this.view)
			return;
		this.h = h;
		if (shown) {
			this.getViewer().highlight(h);
			if (h && (h.triangles.length || h.vertices.length || h.box))
				this.getViewer().zoomToHighlight();
		}
		const s = $('selection');
		s.textContent = `${finding.rule}: ${geo ? describe(h, geo) : 'no geometry in this report'}`;
		s.dataset.file = file.path;
		s.dataset.rule = finding.rule;
		s.dataset.path = finding.chunk_path || '';
		Object.assign(s.dataset, selectionData(h, geo));
		this.explain(finding.rule).catch(this.source.fail);
	}

	async meshChanged() {
		if (!this.shownPath)
			return;
		const geo = await this.geometryOf(this.shownPath);
		if (!geo)
			return;
		const mi = Number($('mesh').value);
		this.getViewer().show(geo, mi);
		if (this.h && (mi < 0 || mi === this.h.mesh))
			this.getViewer().highlight(this.h);
	}
}
