#!/bin/sh
# The WebAssembly build (issue 28, docs/web.md; make test-web) against the
# native one, over ../shared/corpus:
#  - w3dlint's JSON and SARIF reports of the whole corpus byte for byte, and
#    the text report once the colours are taken out (a program under node
#    sees neither the host's terminal nor its environment, so NO_COLOR does
#    not reach it), with the same exit status;
#  - w3dfix -n over each format's folder: the same lines and status;
#  - w3ddump --json of the first file of each format: the same bytes;
#  - the browser module (build-wasm/web/w3dlint.mjs, an in-memory file system):
#    one file of each format written into it and linted there gives the
#    findings the native JSON report gives for that file (tests/web_module.mjs).
# Usage: tests/web_node.sh BUILD_DIR WASM_DIR; skips with one line without
# the corpus, node or the WebAssembly build.
set -u
name=web_node
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
build=$(abspath "$1")
wasm=$(abspath "$2")
corpus=${CORPUS:-$here/../../shared/corpus}
if [ ! -d "$corpus" ]; then
	echo "$name: skipped: no corpus at $corpus"
	exit 0
fi
if ! command -v node > /dev/null 2>&1 || [ ! -f "$wasm/w3dlint" ]; then
	echo "$name: skipped: needs node and the WebAssembly build (make web)"
	exit 0
fi
# Node 18+ fetches the .wasm by URL, which Emscripten 3.1.6's loader does
# not expect for a local file: it reads it from disk with fetch off.
wnode() { node --no-experimental-fetch "$@"; }
cd "$corpus/.." || exit 2
corpus=$(basename "$corpus")
nocolor() { sed 's/\x1b\[[0-9;]*m//g'; }

for fmt in json sarif text; do
	NO_COLOR=1 "$build/w3dlint" --no-progress --format "$fmt" "$corpus" > "$tmp/native" 2> "$tmp/native.err"
	nrc=$?
	wnode "$wasm/w3dlint" --no-progress --format "$fmt" "$corpus" 2> "$tmp/wasm.err" | nocolor > "$tmp/wasm"
	wrc=$(wnode "$wasm/w3dlint" --no-progress --format "$fmt" "$corpus" > /dev/null 2>&1; echo $?)
	[ "$fmt" = json ] && cp "$tmp/native" "$tmp/report.json"
	if [ "$nrc" = "$wrc" ] && cmp -s "$tmp/native" "$tmp/wasm"; then
		ok "w3dlint --format $fmt over the corpus: $(wc -c < "$tmp/native") bytes, status $nrc, equal"
	else
		bad "w3dlint --format $fmt: status $nrc native, $wrc wasm; $(cmp "$tmp/native" "$tmp/wasm" 2>&1 | head -n 1)"
	fi
done

for dir in w3d b3d p3d archives; do
	[ -d "$corpus/$dir" ] || continue
	# Standard output only: under node, w3dfix takes standard error for a
	# terminal and draws its progress line there.
	"$build/w3dfix" -n "$corpus/$dir" > "$tmp/native" 2> /dev/null
	nrc=$?
	wnode "$wasm/w3dfix" -n "$corpus/$dir" 2> /dev/null | nocolor > "$tmp/wasm"
	wrc=$(wnode "$wasm/w3dfix" -n "$corpus/$dir" > /dev/null 2>&1; echo $?)
	if [ "$nrc" = "$wrc" ] && cmp -s "$tmp/native" "$tmp/wasm"; then
		ok "w3dfix -n $dir: $(wc -l < "$tmp/native") lines, status $nrc, equal"
	else
		bad "w3dfix -n $dir: status $nrc native, $wrc wasm; $(diff "$tmp/native" "$tmp/wasm" | head -n 4 | cut -c 1-200 | tr '\n' ' ')"
	fi
done

# Per format, the first file of the corpus report with the most findings
# (not an archive entry), so that the module's findings are not an empty list.
for ext in w3d b3d p3d; do
	f=$(python3 -c 'import json, sys
files = [f for f in json.load(open(sys.argv[1]))["files"] if f["format"] == sys.argv[2] and ".pbo:" not in f["path"] and ".big:" not in f["path"]]
print(max(files, key=lambda f: len(f["findings"]))["path"] if files else "")' "$tmp/report.json" "$ext")
	[ -n "$f" ] || continue
	"$build/w3ddump" --json "$f" > "$tmp/native" 2>&1
	wnode "$wasm/w3ddump" --json "$f" > "$tmp/wasm" 2>&1
	if cmp -s "$tmp/native" "$tmp/wasm"; then
		ok "w3ddump --json $f: $(wc -c < "$tmp/native") bytes, equal"
	else
		bad "w3ddump --json $f differs"
	fi
	if [ -f "$wasm/web/w3dlint.mjs" ]; then
		NO_COLOR=1 "$build/w3dlint" --no-progress --no-xref --format json "$f" > "$tmp/native.json"
		if wnode "$here/web_module.mjs" "$wasm/web/w3dlint.mjs" "$f" "$tmp/native.json" > "$tmp/out" 2> "$tmp/err"; then
			ok "browser module on $f: $(cat "$tmp/out")"
		else
			bad "browser module on $f"
		fi
	fi
done
exit $fail
