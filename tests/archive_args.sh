#!/bin/sh
# Every ARCHIVE:PATH that a report prints is an argument every tool takes
# (issue 30 item 2): for each model entry of the corpus archives
# (../shared/corpus/archives, its BIG and PBO files), w3dlint, w3dfix -n and
# w3ddump read exactly that entry, named as the JSON report names it, and
# with '\' for '/' and the letter case changed (the games compare entry
# paths that way); a name no entry has is a clear error (status 2) in each.
# Skips with one line when the corpus is absent.
# Usage: tests/archive_args.sh BUILD
set -u
build=$1
name=archive_args
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/../shared/corpus/archives
if [ ! -d "$corpus" ]; then
	echo "$name: skipped: no corpus at $corpus"
	exit 0
fi
"$build/w3dlint" --no-progress --no-xref -f json "$corpus" > "$tmp/all.json" 2>/dev/null
python3 - "$tmp/all.json" > "$tmp/entries" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    p = f["path"]
    if ".pbo:" in p.lower() or ".big:" in p.lower():
        print(p)
PY
n=$(wc -l < "$tmp/entries")
if [ "$n" -eq 0 ]; then
	bad "no archive entry in the report of $corpus"
	exit 1
fi
# the paths of a JSON report (jansson puts each file's "path" on a line)
reported() { sed -n 's/^      "path": "\(.*\)",$/\1/p' "$1"; }
bad_lint=0 bad_fix=0 bad_dump=0 bad_alt=0 k=0
while IFS= read -r e; do
	k=$((k + 1))
	"$build/w3dlint" --no-progress --no-xref -f json "$e" > "$tmp/one.json" 2> "$tmp/err"
	rc=$?
	got=$(reported "$tmp/one.json")
	if [ "$rc" -ge 2 ] || [ "$got" != "$e" ]; then
		bad_lint=$((bad_lint + 1)); echo "$name: w3dlint $e: status $rc, reported '$got'"
	fi
	"$build/w3dfix" -n "$e" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ge 2 ] || ! grep -q '1 model entr' "$tmp/out"; then
		bad_fix=$((bad_fix + 1)); echo "$name: w3dfix -n $e: status $rc"; head -n 3 "$tmp/err"
	fi
	"$build/w3ddump" "$e" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		bad_dump=$((bad_dump + 1)); echo "$name: w3ddump $e: status $rc"; head -n 3 "$tmp/err"
	fi
	# every 4th entry also as typed on Windows: '\' and upper case
	if [ $((k % 4)) -eq 1 ]; then
		host=${e%%.pbo:*}
		case $e in *.pbo:*) sep=.pbo: ;; *) host=${e%%.big:*}; sep=.big: ;; esac
		inner=$(printf '%s' "${e#"$host$sep"}" | tr '/a-z' '\\A-Z')
		alt="$host$sep$inner"
		"$build/w3dlint" --no-progress --no-xref -f json "$alt" > "$tmp/one.json" 2>/dev/null
		rc=$?
		got=$(reported "$tmp/one.json")
		"$build/w3dfix" -n "$alt" > /dev/null 2>&1
		frc=$?
		"$build/w3ddump" "$alt" > /dev/null 2>&1
		drc=$?
		if [ "$rc" -ge 2 ] || [ "$got" != "$e" ] || [ "$frc" -ge 2 ] || [ "$drc" -ne 0 ]; then
			bad_alt=$((bad_alt + 1)); echo "$name: $alt: w3dlint $rc ('$got'), w3dfix $frc, w3ddump $drc"
		fi
	fi
done < "$tmp/entries"
if [ $((bad_lint + bad_fix + bad_dump + bad_alt)) -eq 0 ]; then
	ok "$n archive entries named as the report names them (and every 4th with '\\' and upper case): w3dlint, w3dfix -n and w3ddump read each"
else
	bad "entries not taken: w3dlint $bad_lint, w3dfix $bad_fix, w3ddump $bad_dump, Windows-typed $bad_alt"
fi
# Near miss: an entry the archive does not hold is an error in every tool.
first=$(head -n 1 "$tmp/entries")
missing="${first%:*}:no/such/entry.p3d"
"$build/w3dlint" --no-progress "$missing" > /dev/null 2>&1; l=$?
"$build/w3dfix" -n "$missing" > /dev/null 2>&1; f=$?
"$build/w3ddump" "$missing" > /dev/null 2>&1; d=$?
if [ "$l" -eq 2 ] && [ "$f" -eq 2 ] && [ "$d" -ne 0 ]; then
	ok "an entry the archive lacks: status 2 in w3dlint and w3dfix, an error in w3ddump"
else
	bad "missing entry: w3dlint $l, w3dfix $f, w3ddump $d"
fi
exit $fail
