// worker.js - the page's Web Worker (docs/web.md; issue 28): runs w3dlint,
// w3dfix and w3ddump of the WebAssembly module (web/web_main.c) on the files
// the user dropped, in memory: nothing leaves the browser.
//
// The page makes this worker from a Blob of the module's script (which
// defines W3dlintWeb) followed by this file (web/build.mjs puts both in
// engine.js), so it needs no URL of its own and works from file://.
//
// Messages in (each with an id, answered by a message with the same id):
//   {op: 'init', wasm: ArrayBuffer}       compiles the module once
//   {op: 'add', files: [{name, data}]}    keeps the files (name: relative
//                                         path with '/', data: ArrayBuffer)
//   {op: 'clear'}                         forgets them
//   {op: 'lint', paths, args, format}     w3dlint --format FORMAT ARGS PATHS
//                                         -> {status, text, ms}
//   {op: 'fix', path, args}               w3dfix ARGS -o OUT PATH
//                                         -> {status, bytes, log, ms}
//   {op: 'explain', rule}                 w3dlint --explain RULE -> {text}
//   {op: 'geometry', path}                w3ddump --geometry PATH -> {text}
//                                         (with the files of PATH's folder)
// Every call runs in a new instance of the compiled module (fresh memory
// and getopt state), on an in-memory file system holding the files under
// /in, the current folder, so that report paths are the dropped names.
/* global W3dlintWeb */
'use strict';

let compiled = null;
const files = new Map();

// The dropped file a path names: the file itself, or the archive of an
// entry path ARCHIVE:ENTRY (docs/archives.md).
function fileOf(path) {
	if (files.has(path))
		return path;
	let best = null;
	for (const name of files.keys())
		if (path.startsWith(name + ':') && (!best || name.length > best.length))
			best = name;
	return best;
}

async function instance(log) {
	return W3dlintWeb({
		print: (s) => log.push(s),
		printErr: (s) => log.push(s),
		instantiateWasm(imports, done) {
			WebAssembly.instantiate(compiled, imports).then((inst) => done(inst, compiled));
			return {};
		},
	});
}

function mkdirs(FS, path) {
	let at = '';
	for (const part of path.split('/').slice(0, -1)) {
		at += '/' + part;
		if (!FS.analyzePath(at).exists)
			FS.mkdir(at);
	}
}

// Runs TOOL ARGS with the named files under /in; returns the status, the
// lines printed and the file system (to read what the tool wrote).
async function run(tool, args, names) {
	const log = [];
	const mod = await instance(log);
	const FS = mod.FS;
	FS.mkdir('/in');
	FS.mkdir('/out');
	for (const name of names) {
		mkdirs(FS, '/in/' + name);
		FS.writeFile('/in/' + name, files.get(name));
	}
	FS.chdir('/in');
	const t0 = performance.now();
	let status;
	try {
		status = mod.callMain([tool, ...args]);
	} catch (e) {
		if (!(e && e.name === 'ExitStatus'))
			throw e;
		status = e.status;
	}
	return { status, log, FS, ms: performance.now() - t0 };
}

function readText(FS, path) {
	return FS.analyzePath(path).exists ? FS.readFile(path, { encoding: 'utf8' }) : '';
}

const ops = {
	async init(m) {
		compiled = await WebAssembly.compile(m.wasm);
		return {};
	},
	async add(m) {
		for (const f of m.files)
			files.set(f.name, new Uint8Array(f.data));
		return { count: files.size };
	},
	async clear() {
		files.clear();
		return {};
	},
	async lint(m) {
		const r = await run('w3dlint', ['--no-progress', '--format', m.format, '-o', '/out/report', ...m.args,
			...m.paths], [...files.keys()]);
		return { status: r.status, text: readText(r.FS, '/out/report'), log: r.log.join('\n'), ms: r.ms };
	},
	async fix(m) {
		const base = m.path.split(/[/:]/).pop();
		const own = fileOf(m.path);
		const r = await run('w3dfix', ['--no-progress', ...m.args, '-o', '/out/' + base, m.path], own ? [own] : []);
		const out = '/out/' + base;
		const bytes = r.FS.analyzePath(out).exists ? r.FS.readFile(out) : null;
		return { status: r.status, bytes, name: base, log: r.log.join('\n'), ms: r.ms };
	},
	async explain(m) {
		const r = await run('w3dlint', ['--explain', m.rule], []);
		return { status: r.status, text: r.log.join('\n') };
	},
	async geometry(m) {
		// with the other files of its folder: a W3D hierarchy the file
		// lacks is read from NAME.w3d beside it (cli/companions.h)
		const own = fileOf(m.path);
		const dir = (p) => p.slice(0, p.lastIndexOf('/') + 1);
		const near = own ? [...files.keys()].filter((n) => n === own || (!own.includes(':') && dir(n) === dir(own) &&
			!n.includes(':'))) : [];
		const r = await run('w3ddump', ['--geometry', '-o', '/out/geometry.json', m.path], near);
		return { status: r.status, text: readText(r.FS, '/out/geometry.json'), log: r.log.join('\n'), ms: r.ms };
	},
};

self.onmessage = async (e) => {
	const m = e.data;
	try {
		const r = await ops[m.op](m);
		const transfer = r.bytes ? [r.bytes.buffer] : [];
		self.postMessage({ id: m.id, ok: true, ...r }, transfer);
	} catch (err) {
		// an ErrnoError of the file system has no stack: its errno says more
		const errno = err && err.errno !== undefined ? ` (errno ${err.errno})` : '';
		self.postMessage({ id: m.id, ok: false, error: `${m.op}: ${String(err && err.stack || err)}${errno}` });
	}
};
