#!/bin/sh
# The real archives of ../shared/corpus/archives (skipped with a message when
# absent): every archive walked by w3dlint without a crash, every model
# entry linted with the same findings as the same file extracted by an
# independent reader (tests/archive_check.py, not core/archive/), every
# archive reported, and each archive whose own checks fail reported by an
# archive-* rule with its readable entries still linted.
# Usage: tests/archive_sweep.sh W3DLINT
set -u
name=archive_sweep
. "$(dirname "$0")/lib.sh"
lint=$(abspath "$1")
here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/../../shared/corpus/archives"
if [ ! -d "$corpus" ]; then
	echo "$name: skipped: $corpus is absent"
	exit 0
fi
find "$corpus" -type f \( -iname '*.big' -o -iname '*.pbo' \) | LC_ALL=C sort > "$tmp/archives"
total=$(wc -l < "$tmp/archives")
if [ "$total" -eq 0 ]; then
	echo "$name: skipped: no archive under $corpus"
	exit 0
fi
# every rule on (at info when off by default), so that the comparison
# covers every finding a rule can make
{ echo "rules:"; "$lint" --list-rules | awk '$2 == "off" { print "  " $1 ": info" }'; } > "$tmp/all.yaml"
mkdir -p "$tmp/x"
models=0
while IFS= read -r a; do
	d="$tmp/x/$(basename "$a")"
	mkdir -p "$d"
	n=$(python3 "$here/archive_check.py" extract "$a" "$d" | wc -l)
	models=$((models + n))
done < "$tmp/archives"

"$lint" --no-xref --no-progress -c "$tmp/all.yaml" --fail-on off --format json $(cat "$tmp/archives") \
	> "$tmp/arch.json" 2> "$tmp/err"
rc=$?
if [ $rc -eq 0 ]; then
	ok "w3dlint walked $total archives, status 0 with --fail-on off"
else
	bad "w3dlint over the archives: status $rc"
fi
"$lint" --no-xref --no-progress -c "$tmp/all.yaml" --fail-on off --format json "$tmp/x" > "$tmp/plain.json" 2>> "$tmp/err"
if python3 "$here/archive_check.py" compare "$tmp/arch.json" "$tmp/plain.json" "$tmp/x" > "$tmp/out"; then
	ok "$models model entries: the same findings inside the archives as extracted ($(tail -n 1 "$tmp/out"))"
else
	bad "entries and extracted files differ"
fi
# every archive reported; an archive whose trailer or table is damaged is
# reported by an archive-* rule, and its entries are still linted
python3 - "$tmp/arch.json" "$tmp/archives" > "$tmp/out" <<'PY'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
wanted = [l.strip() for l in open(sys.argv[2]) if l.strip()]
reported = {f["path"]: f for f in files}
bad = [a for a in wanted if a not in reported]
damaged = [(a, sorted({x["rule"] for x in reported[a]["findings"] if x["rule"].startswith("archive-")}))
           for a in wanted if a in reported]
for a, rules in damaged:
    if rules:
        n = sum(1 for p in reported if p.startswith(a + ":"))
        print("damaged: %s: %s, %d model entries linted" % (a.rsplit("/", 1)[-1], ",".join(rules), n))
print("missing: %d" % len(bad))
PY
if grep -q '^missing: 0$' "$tmp/out"; then
	ok "every archive reported"
else
	bad "archives missing from the report"
fi
grep '^damaged' "$tmp/out" | sed "s/^/$name: /"
if grep -q 'archive-pbo-hash' "$tmp/out"; then
	ok "a PBO whose SHA-1 trailer does not verify is reported (archive-pbo-hash)"
else
	echo "$name: note: no archive here has a damaged trailer"
fi
exit $fail
