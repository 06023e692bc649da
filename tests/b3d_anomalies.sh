#!/bin/sh
# docs/b3d-anomalies.md: w3dlint's per-rule counts (files, findings) over
# ../shared/corpus/b3d must equal the table's w3dlint columns.  Rules that
# fire and have no row fail too.  Skips with one line when the corpus or
# python3 is absent.
# Usage: tests/b3d_anomalies.sh W3DLINT
set -u
name=b3d_anomalies
. "$(dirname "$0")/lib.sh"
w3dlint=$1
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/../shared/corpus/b3d
if [ ! -d "$corpus" ]; then
	echo "b3d_anomalies: skipped: no corpus at $corpus"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "b3d_anomalies: skipped: python3 not found"
	exit 0
fi
# Every B3D target (--target any: Assimp's refusals are anomalies too),
# b3d-weight-zero (off by default) and chunk-unknown (off for every B3D
# target, which all skip unknown chunks) switched on for the count.
printf 'rules:\n  b3d-weight-zero: info\n  chunk-unknown: warning\n' > "$tmp/cfg.yaml"
"$w3dlint" --no-progress --no-xref --config "$tmp/cfg.yaml" --target any --format json -o "$tmp/r.json" "$corpus" 2> "$tmp/err"
if [ $? -ge 2 ]; then
	bad "w3dlint over $corpus failed"
	exit 1
fi
python3 - "$tmp/r.json" "$root/docs/b3d-anomalies.md" <<'PY'
import collections, json, re, sys
rep = json.load(open(sys.argv[1]))
files = collections.defaultdict(set)
occ = collections.Counter()
for f in rep["files"]:
    for x in f["findings"]:
        files[x["rule"]].add(f["path"])
        occ[x["rule"]] += 1
    for r, n in f["dropped"].items():
        files[r].add(f["path"])
        occ[r] += n
want = {}
for line in open(sys.argv[2], encoding="utf-8"):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    for c in cells:
        m = re.match(r"^`([a-z0-9-]+)`", c)
        if m and len(cells) >= 3:
            i = cells.index(c)
            nums = [x for x in cells[i + 1:i + 3]]
            if all(n.isdigit() for n in nums):
                want[m.group(1)] = (int(nums[0]), int(nums[1]))
            break
bad = 0
for r, (wf, wo) in sorted(want.items()):
    got = (len(files[r]), occ[r])
    if got != (wf, wo):
        print("b3d_anomalies: FAIL %s: %d files, %d findings; the table says %d, %d" % (r, got[0], got[1], wf, wo))
        bad += 1
for r in sorted(occ):
    if r not in want:
        print("b3d_anomalies: FAIL %s fires (%d files, %d findings) but has no row in docs/b3d-anomalies.md" % (r, len(files[r]), occ[r]))
        bad += 1
print("b3d_anomalies: %d rules compared with docs/b3d-anomalies.md, %d differences" % (len(want), bad))
sys.exit(1 if bad else 0)
PY
