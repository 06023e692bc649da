#!/bin/sh
# w3dlint --format html (docs/web.md "The HTML report"; issue 28).
# Usage: tests/html_report.sh BUILD [WASM ARTIFACTS]
#   BUILD alone (make test): a w3dlint built without the viewer refuses
#   --format html with status 2 and says how to get it; one built with it
#   writes the W3D corpus folder's report, which tests/html_report.py checks
#   against --format json of the same run.
#   With WASM and ARTIFACTS (make test-html): every corpus folder (w3d, b3d,
#   p3d, archives) so checked, its size and time against --format json;
#   then the report opened in chromium (tests/html_report_browser.mjs,
#   needs puppeteer-core in WASM/web-npm), screenshots in ARTIFACTS.
# Skips with one line without the corpus.
set -u
name=html_report
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
corpus=${CORPUS:-$here/../../shared/corpus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

err=$("$build/w3dlint" --format html -o "$tmp/probe.html" "$here/../corpus/valid" 2>&1 >/dev/null)
rc=$?
case $err in
*"built without the HTML report's viewer"*)
	if [ $rc -ne 2 ] || [ -e "$tmp/probe.html" ] || ! printf '%s' "$err" | grep -q 'make html-viewer'; then
		echo "$name: FAIL: without a viewer: status $rc, '$err'"
		exit 1
	fi
	echo "$name: ok: this build holds no viewer: --format html refused (status 2, nothing written, says make html-viewer); make test-html checks the report"
	exit 0
	;;
esac
# Standard output a terminal (script(1) gives one): refused, -o asked for.
if command -v script >/dev/null 2>&1; then
	out=$(script -qec "'$build/w3dlint' --format html '$here/../corpus/valid'; echo status \$?" /dev/null 2>&1)
	case $out in
	*"give -o FILE"*"status 2"*) echo "$name: ok: --format html to a terminal: refused with status 2, -o asked for" ;;
	*) echo "$name: FAIL: --format html to a terminal: $out"; fail=1 ;;
	esac
fi
# A model inside archives, with findings: a BIG entry and a packed PBO
# entry are read again out of their archives for their geometry.
if [ -x "$build/tool_mkarchive" ] && [ -x "$build/w3dasm" ]; then
	mkdir "$tmp/arch"
	"$build/w3dasm" "$here/../corpus/rules/triangle-degenerate/fire.w3d.txt" -o "$tmp/arch/fire.w3d" &&
		(cd "$tmp/arch" && "$build/tool_mkarchive" bigf mod.big Art/W3D/tank.w3d=fire.w3d &&
			"$build/tool_mkarchive" pbo-packed addon.pbo a/tank.w3d=fire.w3d && rm fire.w3d) || exit 1
	(cd "$tmp/arch" && "$build/w3dlint" --no-progress --format json -o ../arch.json . ;
		"$build/w3dlint" --no-progress --format html -o ../arch.html .)
	if ! python3 "$here/html_report.py" "$tmp/arch.html" "$tmp/arch.json" "$build/w3dlint" "$build/w3ddump" "$tmp/arch" |
		sed 's/$/ (a BIG and a packed PBO entry)/' | tee "$tmp/arch.out" | grep -q 'ok:.*geometry of the 2 model files'; then
		cat "$tmp/arch.out"
		echo "$name: FAIL: the archives' entries with findings have no geometry"
		fail=1
	else
		cat "$tmp/arch.out"
	fi
fi
if [ ! -d "$corpus/w3d" ]; then
	echo "$name: skipped the corpus: none at $corpus"
	exit $fail
fi
corpus=$(cd "$corpus" && pwd)

# ms since an arbitrary start
now() { date +%s%N | cut -c1-13; }

folders="w3d"
[ $# -ge 3 ] && folders="w3d b3d p3d archives"
for f in $folders; do
	t0=$(now)
	(cd "$corpus" && "$build/w3dlint" --no-progress --format json -o "$tmp/$f.json" "$f")
	rj=$?
	t1=$(now)
	(cd "$corpus" && "$build/w3dlint" --no-progress --format html -o "$tmp/$f.html" "$f")
	rh=$?
	t2=$(now)
	if [ $rj -ne $rh ]; then
		echo "$name: FAIL: $f: exit status $rh with --format html, $rj with json"
		fail=1
		continue
	fi
	if ! python3 "$here/html_report.py" "$tmp/$f.html" "$tmp/$f.json" "$build/w3dlint" "$build/w3ddump" "$corpus"; then
		fail=1
		continue
	fi
	echo "$name: ok: $f: exit $rh as json; html $(wc -c < "$tmp/$f.html") bytes in $((t2 - t1)) ms, json $(wc -c < "$tmp/$f.json") bytes in $((t1 - t0)) ms"
done

if [ $# -ge 3 ]; then
	chromium=${CHROMIUM:-$(command -v chromium || true)}
	if [ -z "$chromium" ] || ! command -v node >/dev/null 2>&1 || [ ! -d "$2/web-npm/node_modules/puppeteer-core" ]; then
		echo "$name: FAIL: the browser check needs chromium, node and puppeteer-core (make html-viewer; scripts/setup-deps.sh node)"
		exit 1
	fi
	mkdir -p "$3"
	CHROMIUM=$chromium node "$here/html_report_browser.mjs" "$build" "$2" "$corpus" "$3" "$tmp/w3d.html" "$tmp/w3d.json" || fail=1
fi
[ $fail -eq 0 ] && echo "$name: all passed"
exit $fail
