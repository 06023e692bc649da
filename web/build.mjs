// build.mjs - builds the page (make web, docs/web.md; issue 28):
//   node web/build.mjs NPM_DIR OUT_DIR
// NPM_DIR holds node_modules as web/package-lock.json pins them (three,
// esbuild); OUT_DIR holds w3dlint-web.js and .wasm (the Makefile's
// WebAssembly module).  Writes into OUT_DIR:
//   viewer.js   web/app.js bundled with three.js by esbuild: the interface
//               and the 3D view (a classic script: no ES module, which
//               Chrome does not load from file://)
//   engine.js   globalThis.W3DLINT_ENGINE = {glue, worker, wasm}: the
//               module's script and web/worker.js as text (the page makes
//               the worker from a Blob of both) and the .wasm as base64
//   index.html  web/index.html, which loads both
// and prints the page's size.
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [npmDir, outDir] = process.argv.slice(2).map((p) => resolve(p));
const here = dirname(fileURLToPath(import.meta.url));
const esbuild = createRequire(join(npmDir, 'package.json'))('esbuild');

await esbuild.build({
	entryPoints: [join(here, 'app.js')],
	bundle: true,
	format: 'iife',
	minify: true,
	target: 'es2020',
	nodePaths: [join(npmDir, 'node_modules')],
	outfile: join(outDir, 'viewer.js'),
	logLevel: 'warning',
	legalComments: 'eof',
});

const worker = (await esbuild.transform(readFileSync(join(here, 'worker.js'), 'utf8'),
	{ minify: true, target: 'es2020' })).code;
const glue = readFileSync(join(outDir, 'w3dlint-web.js'), 'utf8');
const wasm = readFileSync(join(outDir, 'w3dlint-web.wasm')).toString('base64');
writeFileSync(join(outDir, 'engine.js'),
	'/* w3dlint\'s WebAssembly engine for the page (docs/web.md): the module, its worker, the .wasm */\n' +
	`globalThis.W3DLINT_ENGINE = {glue: ${JSON.stringify(glue)},\nworker: ${JSON.stringify(worker)},\n` +
	`wasm: "${wasm}"};\n`);
copyFileSync(join(here, 'index.html'), join(outDir, 'index.html'));

const page = ['index.html', 'viewer.js', 'engine.js'];
const sizes = page.map((f) => statSync(join(outDir, f)).size);
console.log(`the page: ${page.map((f, i) => `${f} ${(sizes[i] / 1e3).toFixed(0)} KB`).join(', ')}; ` +
	`${(sizes.reduce((a, b) => a + b, 0) / 1e6).toFixed(2)} MB in all`);
