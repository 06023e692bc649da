#!/bin/sh
# One folder through every report and w3dfix: the text summary, JSON's
# summary, SARIF (results plus the counts its notifications give for the
# findings it does not list), --write-baseline ("recorded N findings") and
# w3dfix --dry-run ("N findings before") must count the same findings,
# those capped per rule included (issue 16).  Folder: the B3D files of
# ../shared/corpus/b3d/voxelibre (capped rules, infos, warnings) or
# $COUNTS_FOLDER; skipped with one line when absent.  Then a W3D mod with
# the cross-file checks: the run's note on references no file defines is in
# no count (README "Base game"), and w3dfix, which lints the same PATHs as
# w3dlint first (cli/lint_pass.h), counts them the same (issue 30): per
# folder of the corpus, and an archive whose own finding is an error.
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
# --no-xref here: the fixers' own lint of each file (W3DFIX_OWN_COUNTS=1,
# no lint pass) must count what w3dlint counts without the cross-file
# checks; the cross-file comparison follows below.
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
W3DFIX_OWN_COUNTS=1 "$w3dfix" --dry-run -q --config /dev/null "$folder" > "$tmp/fix" 2>/dev/null
fix=$(tail -n 1 "$tmp/fix" | sed -n 's/.* edits*, \([0-9]*\) findings* before, .*/\1/p')
"$w3dfix" --dry-run -q --no-xref --config /dev/null "$folder" > "$tmp/fix2" 2>/dev/null
fix2=$(tail -n 1 "$tmp/fix2" | sed -n 's/.* edits*, \([0-9]*\) findings* before, .*/\1/p')
echo "$name: text $text, json $json, sarif $sarif, baseline $base, w3dfix (own lint) $fix, w3dfix --no-xref $fix2"
if [ -n "$text" ] && [ "$text" -gt 0 ] && [ "$text" = "$json" ] && [ "$text" = "$sarif" ] &&
	[ "$text" = "$base" ] && [ "$text" = "$fix" ] && [ "$text" = "$fix2" ] && grep -q "capped" "$tmp/text"; then
	ok "every report, the baseline and w3dfix count the same $text findings (capped ones included)"
else
	echo "$name: FAIL: the counts differ (or none was found, or nothing was capped)"
	fail=1
fi

# The configuration each file finds (.w3dlint.yaml of its folder or
# above) governs w3dfix as it governs w3dlint (issue 30): with the rule a
# file breaks turned off there, w3dlint reports nothing of it and w3dfix
# --dry-run neither counts it nor plans its edit; both exit 0.  With the
# rule on, both count it (a warning: both exit 0, the status w3dlint gives
# the files as they are; w3dfix --check exits 1: something is to fix).
src=$(find "$root/../shared/corpus/w3d" -maxdepth 2 -iname '*.w3d' 2>/dev/null | sort | head -n 1)
if [ -n "$src" ]; then
	mkdir -p "$tmp/cfg/mod"
	cp "$src" "$tmp/cfg/mod/model.w3d"
	printf 'ABC' >> "$tmp/cfg/mod/model.w3d"
	printf 'rules:\n  trailing-bytes: off\n' > "$tmp/cfg/.w3dlint.yaml"
	counts() { # $1: rule off in .w3dlint.yaml (off) or no configuration file (on)
		"$w3dlint" --no-progress --no-xref -f json "$tmp/cfg/mod" > "$tmp/cj" 2>/dev/null
		lrc=$?
		lt=$(grep -c '"rule": "trailing-bytes"' "$tmp/cj")
		ln=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["errors"]+s["warnings"]+s["infos"])' "$tmp/cj")
		"$w3dfix" --dry-run "$tmp/cfg/mod" > "$tmp/cf" 2>/dev/null
		frc=$?
		fn=$(tail -n 1 "$tmp/cf" | sed -n 's/.* edits*, \([0-9]*\) findings* before, .*/\1/p')
		ft=$(grep -c 'trailing-bytes' "$tmp/cf")
		"$w3dfix" --dry-run --check "$tmp/cfg/mod" > /dev/null 2>&1
		crc=$?
		echo "$name: rule $1: w3dlint $ln findings ($lt trailing-bytes), status $lrc; w3dfix -n $fn findings, $ft trailing-bytes lines, status $frc (--check $crc)"
	}
	counts off
	if [ "$lt" = 0 ] && [ "$ft" = 0 ] && [ "$ln" = "$fn" ] && [ "$lrc" = 0 ] && [ "$frc" = 0 ] && [ "$crc" = 0 ]; then
		ok "a rule off in the folder's .w3dlint.yaml: w3dlint and w3dfix -n agree (none, status 0)"
	else
		echo "$name: FAIL: .w3dlint.yaml with trailing-bytes off: w3dlint and w3dfix -n disagree"
		fail=1
	fi
	rm -f "$tmp/cfg/.w3dlint.yaml"
	counts on
	if [ "$lt" = 1 ] && [ "$ft" -ge 1 ] && [ "$ln" = "$fn" ] && [ "$lrc" = 0 ] && [ "$frc" = 0 ] && [ "$crc" = 1 ]; then
		ok "near miss: the same rule on: both count it and exit 0, w3dfix -n plans its edit, --check exits 1"
	else
		echo "$name: FAIL: trailing-bytes on: w3dlint and w3dfix -n disagree"
		fail=1
	fi
else
	echo "$name: skipped: the configuration case (no W3D corpus file)"
fi

# The cross-file checks of a folder (w3dfix, which repairs files one by one,
# has none): the reports and the baseline count the same findings, and the
# references no file defines (no --base) are one note in each report, in
# none of the counts.  Folder: ../shared/corpus/w3d/rotwk_evil or
# $COUNTS_XREF_FOLDER.
xfolder=${COUNTS_XREF_FOLDER:-$root/../shared/corpus/w3d/rotwk_evil}
if [ -d "$xfolder" ]; then
	xlint() { "$w3dlint" --no-progress --config /dev/null "$@"; }
	xlint "$xfolder" > "$tmp/xtext" 2>/dev/null
	xt=$(tail -n 1 "$tmp/xtext" | sed -n 's/^[0-9]* files*, \([0-9]*\) errors*, \([0-9]*\) warnings*, \([0-9]*\) infos*.*/\1 \2 \3/p' |
		awk '{ print $1 + $2 + $3 }')
	xnote=$(sed -n 's/^note: \([0-9]*\) references* to .*/\1/p' "$tmp/xtext")
	xlint -f json "$xfolder" > "$tmp/xjson" 2>/dev/null
	xlint -f sarif "$xfolder" > "$tmp/xsarif" 2>/dev/null
	xj=$(python3 - "$tmp/xjson" "$tmp/xsarif" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
run = json.load(open(sys.argv[2]))["runs"][0]
n, note = len(run["results"]), 0
for x in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
    m = re.match(r"(\d+) more findings are not listed", x["message"]["text"])
    if m:
        n += int(m.group(1))
    m = re.match(r"(\d+) references? to ", x["message"]["text"])
    if m:
        note = int(m.group(1))
print(s["errors"] + s["warnings"] + s["infos"], d.get("unresolved", {}).get("count", 0), n, note)
PY
)
	xlint --write-baseline "$tmp/xbase.json" "$xfolder" > /dev/null 2> "$tmp/xerr"
	xb=$(sed -n 's/.*: recorded \([0-9]*\) findings* in .*/\1/p' "$tmp/xerr")
	echo "$name: cross-file: text $xt (note $xnote), json/note, sarif/note: $xj, baseline $xb"
	if [ -n "$xt" ] && [ -n "$xnote" ] && [ "$xnote" -gt 0 ] && [ "$xj" = "$xt $xnote $xt $xnote" ] && [ "$xt" = "$xb" ]; then
		ok "with the cross-file checks every report and the baseline count the same $xt findings, the note of $xnote references in none"
	else
		echo "$name: FAIL: the cross-file counts or notes differ"
		fail=1
	fi
	"$w3dfix" --dry-run -q --config /dev/null "$xfolder" > "$tmp/xfix" 2>/dev/null
	xf=$(tail -n 1 "$tmp/xfix" | sed -n 's/.* edits*, \([0-9]*\) findings* before, .*/\1/p')
	if [ "$xf" = "$xt" ]; then
		ok "w3dfix -n counts the same $xt findings as w3dlint, the cross-file ones included"
	else
		echo "$name: FAIL: w3dfix -n counts $xf findings, w3dlint $xt (cross-file checks)"
		fail=1
	fi
else
	echo "$name: cross-file part skipped: no folder $xfolder"
fi

# Every folder of the corpus (each W3D mod, the B3D and P3D corpora, the
# archives): w3dlint and w3dfix -n count the same findings, with the
# cross-file checks of a folder run, and exit with the same status.
shared=$root/../shared/corpus
nf=0
for d in "$shared"/w3d/*/ "$shared"/b3d "$shared"/p3d "$shared"/archives; do
	[ -d "$d" ] || continue
	"$w3dlint" --no-progress --config /dev/null "$d" > "$tmp/fl" 2>/dev/null
	ls=$?
	lc=$(tail -n 1 "$tmp/fl" |
		sed -n 's/^[0-9]* files*, \([0-9]*\) errors*, \([0-9]*\) warnings*, \([0-9]*\) infos*.*/\1 \2 \3/p' |
		awk '{ print $1 + $2 + $3 }')
	"$w3dfix" --dry-run -q --config /dev/null "$d" > "$tmp/ff" 2>/dev/null
	fs=$?
	fc=$(grep ' findings* before, ' "$tmp/ff" | tail -n 1 | sed -n 's/.* edits*, \([0-9]*\) findings* before, .*/\1/p')
	nf=$((nf + 1))
	if [ -z "$lc" ] || [ "$lc" != "$fc" ] || [ "$ls" != "$fs" ]; then
		echo "$name: FAIL: $d: w3dlint counts '$lc' findings (status $ls), w3dfix -n '$fc' (status $fs)"
		fail=1
	fi
	echo "$name: $(basename "$d"): $lc findings, status $ls in both"
done
[ "$nf" -gt 0 ] && [ "$fail" = 0 ] && ok "$nf corpus folders: w3dlint and w3dfix -n count the same findings and exit with the same status"

# An archive's own error (a PBO whose SHA-1 trailer no longer matches: one
# data byte changed) is counted by w3dfix and keeps it at status 1, as it
# makes w3dlint's 1; the near miss, the archive as shipped, is 0 for both.
pbo=$(find "$shared/archives" -name '*.pbo' 2>/dev/null | LC_ALL=C sort | while read -r f; do
	"$w3dlint" --no-progress --config /dev/null "$f" > /dev/null 2>&1 && { echo "$f"; break; }; done)
if [ -n "$pbo" ]; then
	cp "$pbo" "$tmp/a.pbo"
	size=$(wc -c < "$tmp/a.pbo")
	at=$((size - 30)) # inside the data, before the 21-byte trailer
	byte=$(od -An -tu1 -j "$at" -N1 "$tmp/a.pbo" | tr -d ' ')
	printf "$(printf '\\%03o' $(( (byte + 1) % 256 )))" | dd of="$tmp/a.pbo" bs=1 seek="$at" conv=notrunc 2>/dev/null
	"$w3dlint" --no-progress --config /dev/null "$tmp/a.pbo" > "$tmp/al" 2>/dev/null
	alrc=$?
	"$w3dfix" --dry-run --config /dev/null "$tmp/a.pbo" > "$tmp/af" 2>/dev/null
	afrc=$?
	"$w3dfix" --dry-run --config /dev/null "$pbo" > /dev/null 2>&1
	nrc=$?
	if [ "$alrc" = 1 ] && [ "$afrc" = 1 ] && grep -q "archive-pbo-hash" "$tmp/al" &&
		grep -q "findings left: .*a.pbo (1 finding at the failing severity)" "$tmp/af" && [ "$nrc" = 0 ]; then
		ok "a PBO with a bad SHA-1: w3dlint and w3dfix -n both count the error and exit 1 (as shipped: 0)"
	else
		echo "$name: FAIL: bad SHA-1: w3dlint status $alrc, w3dfix -n status $afrc (shipped: $nrc)"
		sed 's/^/    /' "$tmp/af" | tail -n 3
		fail=1
	fi
else
	echo "$name: skipped: the archive case (no PBO that lints clean under ../shared/corpus/archives)"
fi
exit $fail
