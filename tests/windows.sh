#!/bin/sh
# tests/windows.sh WINBUILD NATIVEBUILD [EVERY] - the Windows build under
# Wine (issue 27; `make test-windows`, docs/windows.md).
#
#   1. WINBUILD/unit_tests.exe (the unit tests built for Windows) passes;
#   2. over ../shared/corpus (every EVERY-th file of each folder; default
#      1, the whole corpus), w3dlint.exe's text, JSON and SARIF reports and
#      exit statuses equal the Linux build's byte for byte once path
#      separators are made '/' (Wine is given the same '/' paths, which
#      Windows reads as Z:\...), and so do `w3dfix.exe -n --unsafe` and
#      `w3ddump.exe --json` of one file per format;
#   3. paths as modders type them, through all four tools: Z:\...\x.w3d,
#      mixed separators, a folder named Modèles (UTF-8 in the report, not
#      the ANSI code page), C:\... on Wine's C: drive, an extended-length
#      \\?\Z:\... path, and ARCHIVE:PATH as mod.big:Art\W3D\x.w3d;
#   4. w3dfix.exe's writes: -o, -i with --backup (the .bak beside it), a
#      read-only target refused and kept, no temporary file left.
#
# Skipped with one line when wine or WINBUILD/w3dlint.exe is absent, or the
# corpus is.  Exit 1 on any difference.
name=windows
. "$(dirname "$0")/lib.sh"

win=$(cd "$1" 2>/dev/null && pwd) || { echo "$name: skipped: no Windows build at $1 (make windows)"; exit 0; }
nat=$(cd "$2" && pwd) || exit 2
every=${3:-1}
if ! command -v wine >/dev/null 2>&1; then
	echo "$name: skipped: wine is not installed (sh scripts/setup-deps.sh windows)"
	exit 0
fi
if [ ! -f "$win/w3dlint.exe" ]; then
	echo "$name: skipped: no $win/w3dlint.exe (make windows)"
	exit 0
fi
export WINEDEBUG=-all
# A prefix of the test's own: nothing of the user's Wine set-up counts, and
# a fresh machine needs no wineboot of its own.
export WINEPREFIX="$tmp/wineprefix"
wrun() { wine "$@"; }
# Wine starts its server on first use; the first program pays for it.
wrun "$win/w3dlint.exe" --version >"$tmp/out" 2>"$tmp/err" || { bad "w3dlint.exe --version under wine"; exit 1; }
ok "$(head -n 1 "$tmp/out") runs under $(wine --version 2>/dev/null)"

# 1. unit tests
if [ -f "$win/unit_tests.exe" ]; then
	CK_FORK=no wrun "$win/unit_tests.exe" >"$tmp/out" 2>&1
	rc=$?
	line=$(grep -E '^[0-9]+%: Checks: ' "$tmp/out" | tail -n 1)
	if [ "$rc" = 0 ] && printf '%s\n' "$line" | grep -q 'Failures: 0, Errors: 0'; then
		ok "unit tests: $line"
	else
		bad "unit tests (exit $rc): ${line:-no summary}"
		grep -E ':[FE]:' "$tmp/out" | head -n 20
	fi
else
	echo "$name: unit tests skipped: no $win/unit_tests.exe"
fi

# 2. the corpus, the same reports
corpus=$(cd "$(dirname "$0")/../../shared/corpus" 2>/dev/null && pwd)
if [ -z "$corpus" ]; then
	echo "$name: corpus comparison skipped: no ../shared/corpus"
else
	# the files: the corpus itself, or every EVERY-th file copied with its
	# folders into a sample tree; the same '/' path to both builds (a
	# Windows command line holds at most 32,767 characters: one folder, not
	# a list of files)
	if [ "$every" = 1 ]; then
		src=$corpus
	else
		src=$tmp/sample
		(cd "$corpus" && find . -type f | LC_ALL=C sort | awk -v e="$every" '(NR - 1) % e == 0') |
			while IFS= read -r f; do mkdir -p "$src/$(dirname "$f")" && cp "$corpus/$f" "$src/$f"; done
	fi
	n=$(find "$src" -type f | wc -l)
	# the HTML report too when both builds hold its viewer (make html-viewer)
	formats="text json sarif"
	if ! "$nat/w3dlint" -f html "$tmp/none" 2>&1 | grep -q "built without the HTML report's viewer"; then
		formats="$formats html"
	fi
	for f in $formats; do
		"$nat/w3dlint" --no-progress -f "$f" --show-infos "$src" >"$tmp/lin.$f" 2>"$tmp/lin.err"
		lrc=$?
		wine "$win/w3dlint.exe" --no-progress -f "$f" --show-infos "$src" >"$tmp/win.$f" 2>"$tmp/win.err"
		wrc=$?
		# Windows separators, should any reach a report, as '/'
		sed 's|\\\\|/|g' "$tmp/win.$f" >"$tmp/win.$f.n"
		sed 's|\\\\|/|g' "$tmp/lin.$f" >"$tmp/lin.$f.n"
		if [ "$lrc" != "$wrc" ]; then
			bad "corpus $f report: exit $wrc under wine, $lrc on Linux"
		elif ! cmp -s "$tmp/lin.$f.n" "$tmp/win.$f.n"; then
			bad "corpus $f report differs ($(wc -c <"$tmp/win.$f") bytes against $(wc -c <"$tmp/lin.$f"))"
			diff "$tmp/lin.$f.n" "$tmp/win.$f.n" | head -n 20
		else
			ok "corpus $f report of $n files: byte-identical, $(wc -c <"$tmp/lin.$f") bytes, exit $lrc, 0 differences"
		fi
	done
	"$nat/w3dfix" -n --unsafe "$src" >"$tmp/lin.fix" 2>&1
	lrc=$?
	wine "$win/w3dfix.exe" -n --unsafe "$src" >"$tmp/win.fix" 2>&1
	wrc=$?
	if [ "$lrc" = "$wrc" ] && cmp -s "$tmp/lin.fix" "$tmp/win.fix"; then
		ok "w3dfix -n --unsafe over $n files: identical ($(wc -l <"$tmp/lin.fix") lines, exit $lrc)"
	else
		bad "w3dfix -n --unsafe differs (exit $wrc under wine, $lrc on Linux)"
		diff "$tmp/lin.fix" "$tmp/win.fix" | head -n 20
	fi
	find "$src" -type f | LC_ALL=C sort >"$tmp/pick"
	for ext in w3d b3d p3d; do
		f=$(grep -i "\.$ext\$" "$tmp/pick" | head -n 1)
		[ -n "$f" ] || continue
		"$nat/w3ddump" --json "$f" >"$tmp/lin.dump" 2>/dev/null
		wine "$win/w3ddump.exe" --json "$f" >"$tmp/win.dump" 2>/dev/null
		if cmp -s "$tmp/lin.dump" "$tmp/win.dump"; then
			ok "w3ddump --json $(basename "$f"): identical"
		else
			bad "w3ddump --json $(basename "$f") differs"
		fi
	done
fi

# 3. paths as modders type them.  A model of the project's own corpus with
# findings that w3dfix repairs (influences-without-skin's fixture).
model=$tmp/Mod\ Files/Modèles/Tank.w3d
mkdir -p "$(dirname "$model")"
"$nat/w3dasm" "$(dirname "$0")/../corpus/rules/influences-without-skin/fire.w3d.txt" -o "$model" || exit 2
"$nat/w3dlint" --no-progress -f json "$model" >"$tmp/lin.json" 2>/dev/null
want=$(grep -c '"ruleId"\|"rule":' "$tmp/lin.json")
winpath() { printf 'Z:%s' "$1" | tr '/' '\\'; }
check_path() { # LABEL PATH: w3dlint.exe -f json PATH names the same findings
	wine "$win/w3dlint.exe" --no-progress -f json "$2" >"$tmp/out" 2>"$tmp/err"
	got=$(grep -c '"ruleId"\|"rule":' "$tmp/out")
	if [ "$got" = "$want" ] && grep -q 'Mod\xc3\xa8les\|Modèles' "$tmp/out"; then
		ok "$1: $want findings, the folder named in UTF-8"
	else
		bad "$1: $got findings against $want, or the name not in UTF-8 ($2)"
	fi
}
check_path "Z:\\ path" "$(winpath "$model")"
mixed=$(winpath "$model" | sed 's|\\Modèles\\|/Modèles/|')
check_path "mixed separators" "$mixed"
check_path "\\\\?\\ extended-length path" "\\\\?\\$(winpath "$model")"
check_path "folder walk of Modèles" "$(winpath "$(dirname "$model")")"
cdir="$WINEPREFIX/drive_c/Games/Zero Hour/Modèles"
mkdir -p "$cdir" && cp "$model" "$cdir/Tank.w3d"
check_path "C:\\ path" 'C:\Games\Zero Hour\Modèles\Tank.w3d'
# a root of the \\server\share shape: Wine has no file server, but its
# device namespace \\.\C:\ parses as one (server ".", share "C:")
check_path "\\\\.\\C:\\ (UNC-shaped) path" '\\.\C:\Games\Zero Hour\Modèles\Tank.w3d'
# URIs and CI annotations take '/': SARIF's artifact URI of a C:\ path is a
# file URI (RFC 8089), of a relative one a relative reference; GitHub's
# file= has '/' between folders
wine "$win/w3dlint.exe" --no-progress -f sarif 'C:\Games\Zero Hour\Modèles\Tank.w3d' >"$tmp/out" 2>"$tmp/err"
if grep -q '"uri": "file:///C:/Games/Zero%20Hour/Mod%C3%A8les/Tank.w3d"' "$tmp/out"; then
	ok "SARIF uri of C:\\...: file:///C:/Games/Zero%20Hour/Mod%C3%A8les/Tank.w3d"
else
	bad "SARIF uri of a C:\\ path: $(grep -m1 '"uri"' "$tmp/out")"
fi
(cd "$WINEPREFIX/drive_c/Games/Zero Hour" && wine "$win/w3dlint.exe" --no-progress -f sarif 'Modèles\Tank.w3d' >"$tmp/out" 2>"$tmp/err")
if grep -q '"uri": "Mod%C3%A8les/Tank.w3d"' "$tmp/out"; then
	ok "SARIF uri of Modèles\\Tank.w3d: Mod%C3%A8les/Tank.w3d"
else
	bad "SARIF uri of a relative path: $(grep -m1 '"uri"' "$tmp/out")"
fi
(cd "$WINEPREFIX/drive_c/Games/Zero Hour" && wine "$win/w3dlint.exe" --no-progress -f github 'Modèles\Tank.w3d' >"$tmp/out" 2>"$tmp/err")
if grep -q '^::[a-z]* file=Modèles/Tank.w3d,' "$tmp/out"; then
	ok "GitHub annotation of Modèles\\Tank.w3d: file=Modèles/Tank.w3d"
else
	bad "GitHub annotation of a relative path: $(head -n 1 "$tmp/out")"
fi
# w3ddump.exe and w3dfix.exe -n on PATH (shown as LABEL): each exits 0 or 1
# and writes something.
dump_and_fix() {
	for t in w3ddump w3dfix; do
		case $t in w3ddump) args= ;; w3dfix) args=-n ;; esac
		wine "$win/$t.exe" $args "$1" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -le 1 ] && [ -s "$tmp/out" ]; then ok "$t.exe $2: exit $rc"; else bad "$t.exe $2 (exit $rc)"; fi
	done
}
dump_and_fix 'C:\Games\Zero Hour\Modèles\Tank.w3d' 'C:\\...\\Modèles\\Tank.w3d'
wine "$win/w3ddump.exe" --text -o 'C:\Games\Tank.txt' 'C:\Games\Zero Hour\Modèles\Tank.w3d' >/dev/null 2>"$tmp/err" &&
	wine "$win/w3dasm.exe" 'C:\Games\Tank.txt' -o 'C:\Games\Zero Hour\Modèles\again.w3d' >/dev/null 2>>"$tmp/err"
if cmp -s "$cdir/Tank.w3d" "$cdir/again.w3d"; then
	ok "w3ddump.exe --text then w3dasm.exe on C:\\ paths: byte-identical"
else
	bad "w3ddump.exe --text | w3dasm.exe on C:\\ paths"
fi
# ARCHIVE:PATH with the game's own separators
"$nat/tool_mkarchive" bigf "$tmp/mod.big" 'Art\W3D\Tank.w3d'="$model" || exit 2
big=$(winpath "$tmp/mod.big")
wine "$win/w3dlint.exe" --no-progress -f json "$big:Art\\W3D\\Tank.w3d" >"$tmp/out" 2>"$tmp/err"
got=$(grep -c '"ruleId"\|"rule":' "$tmp/out")
if [ "$got" = "$want" ]; then ok "w3dlint.exe mod.big:Art\\W3D\\Tank.w3d: $want findings"; else bad "ARCHIVE:PATH through w3dlint.exe: $got findings against $want"; fi
dump_and_fix "$big:Art/W3D/Tank.w3d" 'mod.big:Art/W3D/Tank.w3d'

# 4. writes
mkdir -p "$cdir/a" "$cdir/b"
cp "$model" "$cdir/a/m.w3d" && cp "$model" "$cdir/b/m.w3d"
wine "$win/w3dfix.exe" -o 'C:\Games\out2' 'C:\Games\Zero Hour\Modèles\a\m.w3d' 'C:\Games\Zero Hour\Modèles\b\m.w3d' >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && errhas "would both be written" && [ ! -e "$WINEPREFIX/drive_c/Games/out2/m.w3d" ]; then
	ok "w3dfix.exe -o DIR a\\m.w3d b\\m.w3d: refused before anything is written"
else
	bad "output collision (exit $rc)"
fi
cp "$model" "$cdir/fix.w3d"
wine "$win/w3dfix.exe" -o 'C:\Games\Zero Hour\out\fixed.w3d' 'C:\Games\Zero Hour\Modèles\fix.w3d' >"$tmp/out" 2>"$tmp/err"
[ -s "$WINEPREFIX/drive_c/Games/Zero Hour/out/fixed.w3d" ] && ok "w3dfix.exe -o into a new folder" || bad "w3dfix.exe -o (exit $?)"
wine "$win/w3dfix.exe" -i --backup 'C:\Games\Zero Hour\Modèles\fix.w3d' >"$tmp/out" 2>"$tmp/err"
if [ -f "$cdir/fix.w3d.bak" ] && cmp -s "$cdir/fix.w3d.bak" "$model" && ! cmp -s "$cdir/fix.w3d" "$model"; then ok "w3dfix.exe -i --backup: the original kept as fix.w3d.bak"; else bad "w3dfix.exe -i --backup"; fi
cp "$model" "$cdir/ro.w3d"
wine attrib +r 'C:\Games\Zero Hour\Modèles\ro.w3d' >/dev/null 2>&1
wine "$win/w3dfix.exe" -i 'C:\Games\Zero Hour\Modèles\ro.w3d' >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && errhas "read-only" && cmp -s "$cdir/ro.w3d" "$model"; then ok "w3dfix.exe -i of a read-only file: refused, kept"; else bad "read-only target (exit $rc)"; fi
left=$(find "$WINEPREFIX/drive_c/Games" -name '*.wltmp-*' | wc -l)
[ "$left" = 0 ] && ok "no temporary file left" || bad "$left temporary files left"

[ "$fail" = 0 ] && echo "$name: all passed" || echo "$name: FAILED"
exit "$fail"
