#!/bin/sh
# One escaping policy for every tool and stream (core/escape.h; issue 29):
# a file name, a BIG and a PBO entry name and a PBO prefix carrying an OSC
# title change (ESC ] 0 ; ... BEL), ESC[2J, CR, LF followed by a GitHub
# Actions workflow command ("::warning file=x::injected") and a byte that
# is not UTF-8 (0xFF), through w3dlint (text, JSON, SARIF, GitHub,
# --verbose, --write-baseline / --baseline), w3dfix (-n, -o, messages),
# w3ddump (human, --json, --chunks, archives, ARCHIVE:PATH, messages) and
# w3dasm (its messages, the "# source:" line of the text form).  Every
# stream must
#  - hold no raw control byte but LF and TAB, and no line that starts a
#    workflow command from the name ("::warning file=x");
#  - be valid UTF-8;
#  - name the file or entry (the escaped form \x1b]0;pwned is there), so
#    that a tool printing nothing does not pass.
# The baseline keeps the non-UTF-8 path in the escaped form and a second
# run matches it (no new finding).  B3D node names keep their bytes
# (NODE[café], NODE[Arm/L]), not '?'.
# Usage: tests/escape_names.sh BUILD_DIR
set -u
name=escape_names
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$tmp" || exit 2
"$build/w3dasm" "$top/corpus/rules/trailing-bytes/fire.w3d.txt" -o m.w3d || exit 2
bad=$(printf 'a\033]0;pwned\007b\033[2J\r\n::warning file=x::injected\377')
shown='a\x1b]0;pwned\x07b\x1b[2J\r\n::warning file=x::injected\xff'
mkdir d
cp m.w3d "d/$bad.w3d"
"$build/tool_mkarchive" bigf "d/$bad.big" "Art\\W3D\\$bad.w3d=m.w3d" || exit 2
MKARCHIVE_PREFIX="x\\$bad" "$build/tool_mkarchive" pbo "d/$bad.pbo" "Art\\W3D\\$bad.w3d=m.w3d" || exit 2
: > empty.yaml

checked=0
# clean FILE WHAT [quiet]: FILE holds no raw control byte but LF and TAB, no
# injected workflow command, only UTF-8, and (unless quiet) the escaped name.
clean() {
	checked=$((checked + 1))
	if LC_ALL=C grep -q -a -P '[\x00-\x08\x0b-\x1f\x7f]' "$1"; then
		bad "$2: a raw control byte: $(LC_ALL=C grep -a -m1 -P '[\x00-\x08\x0b-\x1f\x7f]' "$1" | cat -v | cut -c1-160)"
	elif grep -q -a '^::warning file=x' "$1"; then
		bad "$2: a line starts the injected workflow command"
	elif ! iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1; then
		bad "$2: not UTF-8"
	elif [ "${3:-}" != quiet ] && ! grep -q -F -- 'a\x1b]0;pwned' "$1" && ! grep -q -F -- 'a\\x1b]0;pwned' "$1"; then
		bad "$2: the name is not shown (escaped)"
	fi
}
# both WHAT CMD...: runs CMD, checks its standard output and error; the
# name must show in one of them.
both() {
	what=$1
	shift
	"$@" > out 2> err
	cat out err > all
	clean out "$what (stdout)" quiet
	clean err "$what (stderr)" quiet
	clean all "$what"
}

for f in text json sarif github; do
	both "w3dlint -f $f" "$build/w3dlint" --no-progress -c empty.yaml -f "$f" d
done
both "w3dlint --verbose" "$build/w3dlint" --no-progress --verbose -c empty.yaml d
both "w3dlint (a missing file)" "$build/w3dlint" --no-progress "d/$bad.missing.w3d"
both "w3dlint -o (a folder that is not there)" "$build/w3dlint" --no-progress -c empty.yaml -o "nothere/$bad.txt" d
"$build/w3dlint" --no-progress -c empty.yaml --write-baseline bl.json d > out 2> err
clean out "w3dlint --write-baseline (stdout)" quiet
clean err "w3dlint --write-baseline (stderr)" quiet
clean bl.json "the baseline file"
recorded=$(sed -n 's/.*recorded \([0-9]*\) finding.* in \([0-9]*\) file.*/\1 \2/p' err)
keys=$(python3 -c 'import json,sys; f=json.load(open("bl.json"))["files"]; print(sum(sum(f[k].values()) for k in f), len(f))')
if [ -n "$recorded" ] && [ "$recorded" = "$keys" ]; then
	ok "--write-baseline: recorded $recorded (findings, files) = written"
else
	bad "--write-baseline says '$recorded', the file holds '$keys'"
fi
if python3 -c 'import json,sys; f=json.load(open("bl.json"))["files"]; sys.exit(0 if "d/" + sys.argv[1] + ".w3d" in f else 1)' "$shown"; then
	ok "the baseline's key is the escaped path"
else
	bad "the baseline has no key d/$shown.w3d: $(cat bl.json)"
fi
"$build/w3dlint" --no-progress -c empty.yaml --baseline bl.json -f json d > out 2> err
rc=$?
new=$(python3 -c 'import json; print(sum(len(f["findings"]) for f in json.load(open("out"))["files"]))')
if [ $rc -eq 0 ] && [ "$new" = 0 ]; then
	ok "--baseline matches every path it wrote (0 new findings)"
else
	bad "--baseline: status $rc, $new new findings"
fi
"$build/w3dlint" --no-progress -c empty.yaml --baseline bl.json -f text d > out 2> err
clean out "w3dlint --baseline (stdout)" quiet
clean err "w3dlint --baseline (stderr)" quiet

both "w3dfix -n" "$build/w3dfix" -c empty.yaml -n d
both "w3dfix -n --diff" "$build/w3dfix" -c empty.yaml -n --diff "d/$bad.w3d"
both "w3dfix -o" "$build/w3dfix" -c empty.yaml -o od d
both "w3dfix -o (archives)" "$build/w3dfix" -c empty.yaml --unsafe -o ob "d/$bad.big"
both "w3dfix (a missing file)" "$build/w3dfix" -c empty.yaml -n "d/$bad.missing.w3d"
cp m.w3d "$bad.ro.w3d"
chmod 0444 "$bad.ro.w3d"
both "w3dfix -i (read-only)" "$build/w3dfix" -c empty.yaml -i "$bad.ro.w3d"

both "w3ddump FILE" "$build/w3ddump" "d/$bad.w3d"
both "w3ddump --json FILE" "$build/w3ddump" --json "d/$bad.w3d"
both "w3ddump --chunks FILE" "$build/w3ddump" --chunks "d/$bad.w3d"
both "w3ddump BIG" "$build/w3ddump" "d/$bad.big"
both "w3ddump --json BIG" "$build/w3ddump" --json "d/$bad.big"
both "w3ddump PBO (prefix)" "$build/w3ddump" "d/$bad.pbo"
if grep -q -F -- "prefix 'x\\\\$shown'" out; then ok "w3ddump shows the PBO prefix escaped"; else bad "no escaped prefix"; fi
both "w3ddump --json PBO" "$build/w3ddump" --json "d/$bad.pbo"
both "w3ddump ARCHIVE:PATH" "$build/w3ddump" "d/$bad.big:Art/W3D/$bad.w3d"
both "w3ddump ARCHIVE:missing" "$build/w3ddump" "d/$bad.big:Art/$bad.w3d"
both "w3ddump (a missing file)" "$build/w3ddump" "d/$bad.missing.w3d"

"$build/w3ddump" --text "d/$bad.w3d" > text.txt 2> err
clean text.txt "w3ddump --text FILE (# source:)"
cp text.txt "$bad.txt"
both "w3dasm -o (a folder that is not there)" "$build/w3dasm" "$bad.txt" -o "nothere/$bad.w3d"
"$build/w3dasm" "$bad.txt" -o "$bad.out.w3d" > out 2> err
clean out "w3dasm -o (stdout)" quiet
clean err "w3dasm -o (stderr)" quiet
if cmp -s "$bad.out.w3d" m.w3d; then ok "w3dasm of the text form gives the bytes back"; else bad "w3dasm round trip"; fi
both "w3dasm (a missing file)" "$build/w3dasm" "$bad.missing.txt" -o x.w3d
printf 'w3d-text: 1\nchunks: [\n' > "$bad.broken.txt"
both "w3dasm (a broken text form)" "$build/w3dasm" "$bad.broken.txt" -o x.w3d

# B3D names keep their bytes in chunk paths and messages.
sed -e 's/name: "Root"/name: "Arm\/L"/' -e 's/name: "Lower"/name: "café"/' -e 's/name: "Upper"/name: "café"/' \
	"$top/corpus/valid/skinned.b3d.txt" > s.b3d.txt
"$build/w3dasm" s.b3d.txt -o s.b3d || exit 2
"$build/w3dlint" --no-progress -c empty.yaml s.b3d > out 2> err
if grep -q -F "NODE name 'café' is already used" out && grep -q -F "(BB3D/NODE[Arm/L]/NODE[café]/NODE[café])" out; then
	ok "B3D node names keep their bytes (NODE[Arm/L]/NODE[café])"
else
	bad "B3D node names lose bytes"
fi

[ $fail -eq 0 ] && ok "$checked streams: no raw control byte, no injected workflow command, UTF-8, names escaped"
exit $fail
