// web_module.mjs - the browser build of w3dlint (build-wasm/web/w3dlint.mjs,
// docs/web.md) used as a page uses it: a file's bytes written into the
// module's in-memory file system and linted there with callMain; its
// findings must equal those of the native report of the same file.
//   node --no-experimental-fetch tests/web_module.mjs MODULE FILE NATIVE.json
// Prints "N findings, equal" and exits 0, or says what differs and exits 1.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [modulePath, file, nativeJson] = process.argv.slice(2);
// Emscripten 3.1.6's ES module, when it runs under node, still looks up the
// CommonJS names __dirname and require: given here as globals, as a bundler
// would.
globalThis.__dirname = dirname(resolve(modulePath));
globalThis.require = createRequire(import.meta.url);
const factory = (await import(pathToFileURL(resolve(modulePath)).href)).default;
let out = '';
const mod = await factory({
	print: (s) => { out += s + '\n'; },
	printErr: () => {},
	locateFile: (f) => resolve(dirname(modulePath), f),
});
const name = '/in/' + basename(file);
mod.FS.mkdir('/in');
mod.FS.writeFile(name, readFileSync(file));
try {
	mod.callMain(['--no-progress', '--no-xref', '--format', 'json', name]);
} catch (e) {
	if (!(e && e.name === 'ExitStatus'))
		throw e;
}
// The findings without the path (the module's file is /in/NAME).
const strip = (report) => report.files.map((f) => ({ format: f.format, size: f.size, findings: f.findings, summary: f.summary }));
const got = strip(JSON.parse(out));
const want = strip(JSON.parse(readFileSync(nativeJson, 'utf8')));
const a = JSON.stringify(got), b = JSON.stringify(want);
if (a !== b) {
	console.error(`differs:\nmodule: ${a.slice(0, 400)}\nnative: ${b.slice(0, 400)}`);
	process.exit(1);
}
console.log(`${want.reduce((n, f) => n + f.findings.length, 0)} findings, equal`);
