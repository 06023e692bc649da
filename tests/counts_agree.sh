#!/bin/sh
# One folder through every report and w3dfix: the text summary, JSON's
# summary, SARIF (results plus the counts its notifications give for the
# findings it does not list), --write-baseline ("recorded N findings") and
# w3dfix --dry-run ("N findings before") must count the same findings,
# those capped per rule included (issue 16).  Folder: the B3D files of
# ../shared/corpus/b3d/voxelibre (capped rules, infos, warnings) or
# $COUNTS_FOLDER; skipped with one line when absent.
# Usage: tests/counts_agree.sh W3DLINT W3DFIX
set -u
w3dlint=$1
w3dfix=$2
name=counts_agree
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
folder=${COUNTS_FOLDER:-$root/../shared/corpus/b3d/voxelibre}
if [ ! -d "$folder" ]; then
	echo "$name: skipped: no folder $folder"
	exit 0
fi
# --no-xref: w3dfix repairs files one by one, so the cross-file findings
# (which only a folder run has) are left out of the comparison.
lint() { "$w3dlint" --no-progress --no-xref --config /dev/null "$@"; }
lint "$folder" > "$tmp/text" 2>/dev/null
text=$(tail -n 1 "$tmp/text" | sed -n 's/^[0-9]* files*, \([0-9]*\) errors*, \([0-9]*\) warnings*, \([0-9]*\) infos*.*/\1 \2 \3/p' |
	awk '{ print $1 + $2 + $3 }')
lint -f json "$folder" > "$tmp/json" 2>/dev/null
json=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["errors"]+s["warnings"]+s["infos"])' "$tmp/json")
lint -f sarif "$folder" > "$tmp/sarif" 2>/dev/null
sarif=$(python3 - "$tmp/sarif" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1]))["runs"][0]
n = len(run["results"])
for note in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
    m = re.match(r"(\d+) more findings are not listed", note["message"]["text"])
    if m:
        n += int(m.group(1))
print(n)
PY
)
lint --write-baseline "$tmp/base.json" "$folder" > /dev/null 2> "$tmp/err"
base=$(sed -n 's/.*: recorded \([0-9]*\) findings* in .*/\1/p' "$tmp/err")
"$w3dfix" --dry-run -q --config /dev/null "$folder" > "$tmp/fix" 2>/dev/null
fix=$(tail -n 1 "$tmp/fix" | sed -n 's/.* edits*, \([0-9]*\) findings* before, .*/\1/p')
echo "$name: text $text, json $json, sarif $sarif, baseline $base, w3dfix $fix"
if [ -n "$text" ] && [ "$text" -gt 0 ] && [ "$text" = "$json" ] && [ "$text" = "$sarif" ] &&
	[ "$text" = "$base" ] && [ "$text" = "$fix" ] && grep -q "capped" "$tmp/text"; then
	ok "every report, the baseline and w3dfix count the same $text findings (capped ones included)"
else
	echo "$name: FAIL: the counts differ (or none was found, or nothing was capped)"
	fail=1
fi
exit $fail
