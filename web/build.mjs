// build.mjs - builds the page and the HTML report's viewer (make web, make
// html-viewer; docs/web.md; issue 28):
//   node web/build.mjs NPM_DIR OUT_DIR [report]
// NPM_DIR holds node_modules as web/package-lock.json pins them (three,
// esbuild); OUT_DIR holds w3dlint-web.js and .wasm (the Makefile's
// WebAssembly module; not needed with `report`).  Writes into OUT_DIR:
//   report-viewer.js  web/report.js bundled with three.js, web/layout.html
//               and web/style.css: the script w3dlint --format html writes
//               into its page (lint/report/report_html.c), so it must hold
//               no "</script" and no "<!--" (checked here)
// and, without `report`:
//   viewer.js   web/app.js bundled with three.js by esbuild: the interface
//               and the 3D view (a classic script: no ES module, which
//               Chrome does not load from file://)
//   engine.js   globalThis.W3DLINT_ENGINE = {glue, worker, wasm}: the
//               module's script and web/worker.js as text (the page makes
//               the worker from a Blob of both) and the .wasm as base64
//   index.html  web/index.html, which loads both
// and prints the page's size.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [npmDir, outDir, only] = process.argv.slice(2).map((p, i) => (i < 2 ? resolve(p) : p));
const here = dirname(fileURLToPath(import.meta.url));
const esbuild = createRequire(join(npmDir, 'package.json'))('esbuild');

// web/layout.html without its comment, web/style.css: in the page, and as
// text in the report's viewer
const layout = readFileSync(join(here, 'layout.html'), 'utf8').replace(/<!--[\s\S]*?-->\n?/g, '');
const style = readFileSync(join(here, 'style.css'), 'utf8');
const textFiles = {
	name: 'layout-and-style',
	setup(build) {
		build.onLoad({ filter: /[\\/]layout\.html$/ }, () => ({ contents: layout, loader: 'text' }));
		build.onLoad({ filter: /[\\/]style\.css$/ }, () => ({ contents: style, loader: 'text' }));
	},
};
const bundle = (entry, outfile) => esbuild.build({
	entryPoints: [join(here, entry)],
	bundle: true,
	format: 'iife',
	minify: true,
	target: 'es2020',
	nodePaths: [join(npmDir, 'node_modules')],
	outfile: join(outDir, outfile),
	logLevel: 'warning',
	legalComments: 'eof',
	plugins: [textFiles],
});

await bundle('report.js', 'report-viewer.js');
const viewer = readFileSync(join(outDir, 'report-viewer.js'), 'utf8');
for (const bad of [/<\/script/i, /<!--/])
	if (bad.test(viewer))
		throw new Error(`report-viewer.js holds ${bad}: it cannot be written into a <script> element`);
if (only === 'report') {
	console.log(`the HTML report's viewer: report-viewer.js ${(viewer.length / 1e3).toFixed(0)} KB`);
	process.exit(0);
}

await bundle('app.js', 'viewer.js');

const worker = (await esbuild.transform(readFileSync(join(here, 'worker.js'), 'utf8'),
	{ minify: true, target: 'es2020' })).code;
const glue = readFileSync(join(outDir, 'w3dlint-web.js'), 'utf8');
const wasm = readFileSync(join(outDir, 'w3dlint-web.wasm')).toString('base64');
writeFileSync(join(outDir, 'engine.js'),
	'/* w3dlint\'s WebAssembly engine for the page (docs/web.md): the module, its worker, the .wasm */\n' +
	`globalThis.W3DLINT_ENGINE = {glue: ${JSON.stringify(glue)},\nworker: ${JSON.stringify(worker)},\n` +
	`wasm: "${wasm}"};\n`);
writeFileSync(join(outDir, 'index.html'), readFileSync(join(here, 'index.html'), 'utf8')
	.replace('<style>/* web/style.css */</style>', () => `<style>\n${style}</style>`)
	.replace('<!-- web/layout.html -->\n', () => layout));

const page = ['index.html', 'viewer.js', 'engine.js'];
const sizes = page.map((f) => statSync(join(outDir, f)).size);
console.log(`the page: ${page.map((f, i) => `${f} ${(sizes[i] / 1e3).toFixed(0)} KB`).join(', ')}; ` +
	`${(sizes.reduce((a, b) => a + b, 0) / 1e6).toFixed(2)} MB in all`);
