#!/bin/sh
# The decoded P3D dump (issue 31, textform/p3d/model.c): every P3D file of
# ../shared/corpus dumps with exit 0 in both forms; in the JSON dump the
# "model" gives as many LODs as its lod_count, every LOD a resolution name,
# and every walked LOD integer point and face counts (ODOL: also sections
# and a bounding box); the human dump names every LOD the JSON names.  A
# file cut in half still dumps (exit 0) and says what it did not decode
# instead of giving counts.  Every "model" validates against
# docs/schemas/p3d-model.schema.json (python3-jsonschema), and a model with
# one LOD's name taken out does not.  Skipped with one line without the
# corpus (the schema checks: without jsonschema).
# Usage: tests/p3d_dump.sh W3DDUMP
set -u
w3ddump=$1
name=p3d_dump
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/../shared/corpus
schema=$root/docs/schemas/p3d-model.schema.json
if python3 -c 'import jsonschema' 2>/dev/null; then validate=1; else validate=0
	echo "$name: schema checks skipped: no python3 jsonschema"; fi
export schema validate
if [ ! -d "$corpus" ]; then
	echo "$name: skipped: no corpus at $corpus"
	exit 0
fi
find "$corpus" -iname '*.p3d' -type f | sort > "$tmp/list"
n=0
bad=0
while IFS= read -r f; do
	n=$((n + 1))
	if ! "$w3ddump" --json "$f" > "$tmp/j" 2>"$tmp/e"; then
		echo "$name: FAIL: --json exit $? on $f"; bad=$((bad + 1)); continue
	fi
	if ! "$w3ddump" --all "$f" > "$tmp/h" 2>"$tmp/e"; then
		echo "$name: FAIL: human dump exit $? on $f"; bad=$((bad + 1)); continue
	fi
	if ! python3 - "$tmp/j" "$tmp/h" "$f" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
human = open(sys.argv[2], encoding="utf-8", errors="replace").read()
m = j.get("model")
err = []
if not isinstance(m, dict):
    err.append("no model")
else:
    if m["lod_count"] != len(m["lods"]):
        err.append("lod_count %d but %d lods" % (m["lod_count"], len(m["lods"])))
    for l in m["lods"]:
        if not isinstance(l["name"], str) or not l["name"]:
            err.append("LOD %d unnamed" % l["index"])
        elif ('name: "%s"' % l["name"]) not in human:
            err.append("LOD %d name %r not in the human dump" % (l["index"], l["name"]))
        if l["walked"]:
            keys = ["points", "faces"] + ([] if m["kind"] == "MLOD" else ["sections"])
            for k in keys:
                if not isinstance(l.get(k), int):
                    err.append("LOD %d %s: %r" % (l["index"], k, l.get(k)))
            if m["kind"] == "ODOL" and not isinstance(l.get("bounds"), dict):
                err.append("LOD %d has no bounds" % l["index"])
    import os
    if os.environ["validate"] == "1":
        import jsonschema
        sch = json.load(open(os.environ["schema"]))
        for e in jsonschema.Draft202012Validator(sch).iter_errors(m):
            err.append("schema: %s at %s" % (e.message[:200], "/".join(map(str, e.absolute_path))))
        bad = json.loads(json.dumps(m))
        if bad["lods"]:
            del bad["lods"][0]["name"]
            if jsonschema.Draft202012Validator(sch).is_valid(bad):
                err.append("schema accepts a LOD without a name")
for e in err:
    print("%s: %s" % (sys.argv[3], e))
sys.exit(1 if err else 0)
PY
	then
		echo "$name: FAIL: $f"; bad=$((bad + 1))
	fi
done < "$tmp/list"
# Near miss: the first ODOL file cut in half dumps, saying what it did not
# decode rather than giving counts for LODs it could not walk.
odol=$(while IFS= read -r f; do head -c 4 "$f" | grep -q ODOL && { echo "$f"; break; }; done < "$tmp/list")
if [ -n "$odol" ]; then
	size=$(wc -c < "$odol")
	head -c $((size / 2)) "$odol" > "$tmp/cut.p3d"
	if ! "$w3ddump" --json "$tmp/cut.p3d" > "$tmp/cj" 2>/dev/null; then
		echo "$name: FAIL: the cut file's dump exits nonzero"; bad=$((bad + 1))
	elif ! python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["model"]
un = [l for l in m["lods"] if not l["walked"]]
ok = un and all(isinstance(l.get("counts"), str) and l["counts"].startswith("not decoded") or not isinstance(l.get("faces"), int) for l in un)
sys.exit(0 if ok else 1)' "$tmp/cj"; then
		echo "$name: FAIL: the cut file's unwalked LODs are not said to be undecoded"; bad=$((bad + 1))
	fi
fi
if [ "$bad" -ne 0 ]; then
	echo "$name: FAIL: $bad of $n files"
	exit 1
fi
echo "$name: ok: $n P3D files dumped, every LOD named and counted, models valid against the schema"
