#!/bin/sh
# What the four tools share (cli/opts.h): one version ("TOOL X.Y.Z",
# the same X.Y.Z everywhere), one help layout (Usage, Options, Examples,
# Exit status, in that order), a man page (--man) with the same options as
# --help, and every short option letter meaning the same long option in
# every tool that has it.  Names read from a file print in the one escaped
# form of core/escape.h in every tool and report: a hierarchy named
# "FIR" ESC "[2J" 0xE9 "\\" shows as FIR\x1b[2J\xe9\\ in the text and
# GitHub reports, and as that string in the JSON and SARIF reports and in
# w3ddump --json (the raw bytes recoverable, no U+FFFD, no raw escape byte
# anywhere); the human w3ddump shows it as the text form's !hex.
# Usage: tests/cli_common.sh BUILD_DIR
set -u
name=cli_common
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
tools="w3dlint w3dfix w3ddump w3dasm"

versions=""
for t in $tools; do
	"$build/$t" --version >"$tmp/out" 2>"$tmp/err"
	rc=$?
	v=$(sed -n "s/^$t \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\$/\1/p" "$tmp/out")
	if [ $rc -eq 0 ] && [ -n "$v" ] && [ "$(wc -l < "$tmp/out")" -eq 1 ]; then
		ok "$t --version: $t $v"
	else
		bad "$t --version (status $rc): not one line '$t X.Y.Z'"
	fi
	versions="$versions $v"
done
n=$(printf '%s\n' $versions | sort -u | wc -l)
if [ "$n" -eq 1 ]; then ok "one version for all tools"; else bad "versions differ:$versions"; fi

: > "$tmp/letters"
for t in $tools; do
	"$build/$t" --help >"$tmp/out" 2>"$tmp/err"
	rc=$?
	order=$(grep -n -E '^(Usage: |Options:$|Examples:$|Exit status:$)' "$tmp/out" | sed 's/:.*//' | tr '\n' ' ')
	heads=$(grep -E '^(Usage: |Options:$|Examples:$|Exit status:$)' "$tmp/out" | sed 's/^Usage: .*/Usage/' | tr '\n' ' ')
	if [ $rc -eq 0 ] && [ "$heads" = "Usage Options: Examples: Exit status: " ] && head -n 1 "$tmp/out" | grep -q "^Usage: $t "; then
		ok "$t --help: Usage, Options, Examples, Exit status (lines $order)"
	else
		bad "$t --help layout (status $rc): '$heads'"
	fi
	# "  -x, --long" lines: letter and long name.
	sed -n 's/^  -\([A-Za-z]\), --\([a-z-]*\).*/\1 \2/p' "$tmp/out" | sed "s/\$/ $t/" >> "$tmp/letters"
	sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}--\([a-z-]*\).*/\2/p' "$tmp/out" | sort -u > "$tmp/help_opts"
	"$build/$t" --man >"$tmp/man" 2>"$tmp/err"
	sed -n 's/.*\\fB\\-\\-\([a-z\\-]*\)\\fR.*/\1/p' "$tmp/man" | sed 's/\\-/-/g' | sort -u > "$tmp/man_opts"
	if grep -q "^\.TH " "$tmp/man" && grep -q "^\.SH \"EXIT STATUS\"" "$tmp/man" && cmp -s "$tmp/help_opts" "$tmp/man_opts"; then
		ok "$t --man: a man page with the options of --help"
	else
		bad "$t --man differs from --help: $(diff "$tmp/help_opts" "$tmp/man_opts" | tr '\n' ' ')"
	fi
done
# A letter with two long names across the tools.
clash=$(sort -u -k1,2 "$tmp/letters" | awk '{print $1}' | uniq -d | tr '\n' ' ')
if [ -z "$clash" ]; then
	ok "every short option means one long option in every tool ($(awk '{print $1}' "$tmp/letters" | sort -u | tr -d '\n'))"
else
	for l in $clash; do grep "^$l " "$tmp/letters" | sed 's/^/    /'; done
	bad "short options with different meanings: $clash"
fi

# --- names read from a file, escaped in every tool and report
cat > "$tmp/names.txt" <<'TXT'
w3d-text: 1
chunks:
  - chunk: HIERARCHY
    children:
      - chunk: HIERARCHY_HEADER
        Version: 0x00040001
        Name: !hex "46 49 52 1b 5b 32 4a e9 5c 00 00 00 00 00 00 00"
        NumPivots: 1
        Center: [0, 0, 0]
      - chunk: PIVOTS
        items:
          - Name: !hex "52 4f 4f 54 00 00 00 00 00 00 00 00 00 00 00 00"
            ParentIdx: 0xFFFFFFFF
            Translation: [0, 0, 0]
            EulerAngles: [0, 0, 0]
            Rotation: [0, 0, 0, 1]
TXT
"$build/w3dasm" "$tmp/names.txt" -o "$tmp/names.w3d" || exit 2
esc='FIR\x1b[2J\xe9\\'
# names_ok WHAT: $tmp/out holds the escaped name and no raw ESC byte.
names_ok() {
	if grep -F -q -- "$esc" "$tmp/out" && ! grep -q "$(printf '\033')" "$tmp/out"; then
		ok "$1: the name escaped"
	else
		bad "$1: no '$esc', or a raw escape byte"
	fi
}
for f in text github; do
	"$build/w3dlint" --format $f "$tmp/names.w3d" >"$tmp/out" 2>"$tmp/err"
	names_ok "w3dlint --format $f"
done
"$build/w3ddump" "$tmp/names.w3d" >"$tmp/out" 2>"$tmp/err"
# the human dump shows a name that has no clean form as the text form's hex
if has 'Name: !hex "46 49 52 1b 5b 32 4a e9 5c' && ! grep -q "$(printf '\033')" "$tmp/out"; then
	ok "w3ddump: the name as hex, no raw escape byte"
else
	bad "w3ddump: the name is not shown as hex"
fi
for f in json sarif; do
	"$build/w3dlint" --format $f "$tmp/names.w3d" >"$tmp/json" 2>"$tmp/err"
	# the decoded JSON strings hold the escaped form
	python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1])), ensure_ascii=False))' "$tmp/json" \
		| sed 's/\\\\/\\/g' > "$tmp/out" 2>/dev/null
	names_ok "w3dlint --format $f"
done
"$build/w3ddump" --json "$tmp/names.w3d" >"$tmp/json" 2>"$tmp/err"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["chunks"][0]["children"][0]["fields"]["Name"])' "$tmp/json" >"$tmp/out" 2>"$tmp/err"
names_ok "w3ddump --json (the Name field)"
exit $fail
