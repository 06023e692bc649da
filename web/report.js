// report.js - the viewer of w3dlint's HTML report (w3dlint --format html,
// lint/report/report_html.c; docs/web.md "The HTML report"), bundled with
// three.js by web/build.mjs into report-viewer.js, which w3dlint writes
// into the page after the data:
//   script.w3dlint-json       the JSON report (--format json), in parts:
//                             their texts joined are the document
//   script.w3dlint-geometry   {path, geometry} of each file with findings
//                             (w3ddump --geometry)
//   script#w3dlint-explain    {RULE: its --explain text}
// It lays out the page (web/layout.html, web/style.css) and shows the
// findings and the 3D view as the page does (web/report_ui.js).  For
// tests/html_report_browser.mjs, body carries data-state (done, failed).
import layout from './layout.html';
import style from './style.css';
import { ReportUI, download, el, summaryText } from './report_ui.js';

function parseAll(selector) {
	return [...document.querySelectorAll(selector)].map((s) => s.textContent);
}

function start() {
	const text = parseAll('script.w3dlint-json').join('');
	const report = JSON.parse(text);
	const geometry = new Map();
	for (const t of parseAll('script.w3dlint-geometry')) {
		const g = JSON.parse(t);
		geometry.set(g.path, g.geometry);
	}
	const explainEl = document.getElementById('w3dlint-explain');
	const explain = explainEl ? JSON.parse(explainEl.textContent) : {};

	document.head.append(el('style', { textContent: style }));
	const header = el('header', {}, el('h1', { textContent: 'w3dlint report' }),
		el('span', { id: 'status', textContent: `${report.tool.name} ${report.tool.version}` }));
	const dl = el('button', { textContent: 'JSON report' });
	dl.onclick = () => download('w3dlint.json', text, 'application/json');
	header.append(dl);
	document.body.insertAdjacentHTML('beforeend', layout);
	document.body.prepend(header);
	document.title = `w3dlint report: ${summaryText(report.summary)}`;

	const fail = (err) => {
		document.getElementById('status').textContent = String(err && err.message || err);
		document.body.dataset.state = 'failed';
		console.error(err);
	};
	const ui = new ReportUI({
		geometry: (path) => Promise.resolve(geometry.get(path) || null),
		explain: (rule) => Promise.resolve(explain[rule] ||
			`${rule}: no explanation in this report (a rule of a configuration, not of the catalogue)`),
		fail,
	});
	ui.render(report);
	document.getElementById('cmd').textContent = `${report.files.length} file(s) in this report; ` +
		`the geometry of the ${geometry.size} with findings`;
	document.body.dataset.state = 'done';
}

try {
	start();
} catch (err) {
	document.body.dataset.state = 'failed';
	document.body.prepend(document.createTextNode(`This report could not be shown: ${err && err.message || err}`));
	console.error(err);
}
