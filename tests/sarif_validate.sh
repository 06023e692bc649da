#!/bin/sh
# Validates `w3dlint --format sarif` against the OASIS SARIF 2.1.0 schema
# (../shared/schemas/sarif-schema-2.1.0.json, JSON Schema draft-04, or
# $SARIF_SCHEMA) with python3-jsonschema, then checks what GitHub code
# scanning needs beyond the schema (docs/report-sarif.md): $schema, rules
# with shortDescription/fullDescription/help text, one location per result
# with region.startLine and the byte range, ruleIndex pointing at the rule,
# partialFingerprints.primaryLocationLineHash.
#
# Logs checked: the demo models (tests/tools/gen_demo.c) with and without a
# baseline that has stale entries (toolExecutionNotifications), and the
# real-file corpus (all of ../shared/corpus: W3D, B3D, P3D, or
# $W3DLINT_CORPUS) when present, which must hold at most 25,000 results
# (GitHub's limit per run; the rest is one notification), and a run naming
# a path that does not exist (executionSuccessful false, a notification
# naming it).
# Skips with one line when no python3 with jsonschema or no schema is found.
# Usage: tests/sarif_validate.sh W3DLINT GEN_DEMO
set -u
w3dlint=$1
gen_demo=$2
root=$(cd "$(dirname "$0")/.." && pwd)
schema=${SARIF_SCHEMA:-$root/../shared/schemas/sarif-schema-2.1.0.json}
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus}

py=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import jsonschema' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "sarif: skipped: no python3 with jsonschema (apt-get install python3-jsonschema)"
	exit 0
fi
if [ ! -f "$schema" ]; then
	echo "sarif: skipped: no schema at $schema"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/demo"
"$gen_demo" "$tmp/demo" > /dev/null || { echo "sarif: FAIL: $gen_demo did not run"; exit 1; }

fail=0
# run NAME ARGS...: writes $tmp/NAME.sarif; exit status 2 or more fails.
run() {
	name=$1
	shift
	"$w3dlint" --no-progress --format sarif -o "$tmp/$name.sarif" "$@" 2> "$tmp/$name.err"
	rc=$?
	if [ "$rc" -ge 2 ]; then
		echo "sarif: FAIL $name: w3dlint exit status $rc"
		sed 's/^/    /' "$tmp/$name.err" | head -n 20
		fail=1
		return 1
	fi
	logs="$logs $tmp/$name.sarif"
}

logs=""
run demo "$tmp/demo"
# A baseline recording a finding that the clean model does not have: stale.
printf '{ "w3dlint-baseline": 1, "files": { "demo/clean_quad.w3d": { "chunk-truncated": 1 },\n  "demo/gone.w3d": { "chunk-truncated": 2 } } }\n' > "$tmp/w3dlint-baseline.json"
run baseline --baseline "$tmp/w3dlint-baseline.json" "$tmp/demo"
if [ -d "$corpus" ]; then
	run corpus "$corpus"
fi
run capped --max-findings 5 "$tmp/demo"
# A missing path: exit status 2, but a valid log that says so.
"$w3dlint" --no-progress --format sarif -o "$tmp/missing.sarif" "$tmp/demo" "$tmp/no-such-folder" 2> /dev/null
if [ $? -eq 2 ]; then
	logs="$logs $tmp/missing.sarif"
else
	echo "sarif: FAIL missing: a missing path did not give exit status 2"
	fail=1
fi

"$py" - "$schema" $logs <<'EOF' || fail=1
import json, sys
import jsonschema

schema_path, logs = sys.argv[1], sys.argv[2:]
with open(schema_path, encoding="utf-8") as f:
    schema = json.load(f)
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
bad = 0

def fail(log, msg):
    global bad
    bad += 1
    print(f"sarif: FAIL {log}: {msg}")

for log in logs:
    with open(log, encoding="utf-8") as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    for e in errors[:10]:
        fail(log, f"schema: {'/'.join(map(str, e.path))}: {e.message[:300]}")
    # What GitHub code scanning needs beyond the schema.
    if not doc.get("$schema"):
        fail(log, "no $schema")
    if len(doc.get("runs", [])) != 1:
        fail(log, "expected one run")
        continue
    run = doc["runs"][0]
    rules = run["tool"]["driver"].get("rules", [])
    ids = [r["id"] for r in rules]
    if len(set(ids)) != len(ids):
        fail(log, "duplicate rule ids")
    for r in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            if not r.get(key, {}).get("text"):
                fail(log, f"rule {r['id']}: no {key}.text")
    results = run.get("results", [])
    seen_fp = set()
    for i, res in enumerate(results):
        where = f"results[{i}]"
        if not res.get("message", {}).get("text"):
            fail(log, f"{where}: no message text")
        idx = res.get("ruleIndex")
        if idx is None or not (0 <= idx < len(rules)) or rules[idx]["id"] != res.get("ruleId"):
            fail(log, f"{where}: ruleIndex {idx} does not name rule {res.get('ruleId')}")
        locs = res.get("locations", [])
        if len(locs) != 1:
            fail(log, f"{where}: {len(locs)} locations, want 1")
            continue
        phys = locs[0].get("physicalLocation", {})
        region = phys.get("region", {})
        if not phys.get("artifactLocation", {}).get("uri"):
            fail(log, f"{where}: no artifactLocation.uri")
        if region.get("startLine") != 1 or "byteOffset" not in region or "byteLength" not in region:
            fail(log, f"{where}: region needs startLine 1, byteOffset and byteLength: {region}")
        fp = res.get("partialFingerprints", {}).get("primaryLocationLineHash")
        if not fp:
            fail(log, f"{where}: no partialFingerprints.primaryLocationLineHash")
        key = (phys.get("artifactLocation", {}).get("uri"), fp)
        if key in seen_fp:
            fail(log, f"{where}: fingerprint {fp} repeated in one file")
        seen_fp.add(key)
    print(f"sarif: {log.rsplit('/', 1)[-1]}: {len(results)} results, {len(rules)} rules, "
          f"{len(errors)} schema errors")
    if log.endswith("baseline.sarif"):
        notes = run.get("invocations", [{}])[0].get("toolExecutionNotifications", [])
        if len(notes) != 2:
            fail(log, f"expected 2 stale-entry notifications, got {len(notes)}")
    if len(results) > 25000:
        fail(log, f"{len(results)} results: GitHub code scanning takes at most 25,000 per run")
    inv = run.get("invocations", [{}])[0]
    if log.endswith("capped.sarif"):
        notes = [n["message"]["text"] for n in inv.get("toolExecutionNotifications", [])]
        if len(results) != 5 or not any("more findings are not listed" in n for n in notes):
            fail(log, f"--max-findings 5: want 5 results and one notification with the count, got {len(results)}, {notes}")
    if log.endswith("missing.sarif"):
        notes = [n["message"]["text"] for n in inv.get("toolExecutionNotifications", [])]
        if inv.get("executionSuccessful") is not False or not any("no-such-folder" in n for n in notes):
            fail(log, f"a missing path: want executionSuccessful false and a notification naming it, got {notes}")
    if log.endswith("demo.sarif") and not results:
        fail(log, "the demo models gave no results")
sys.exit(1 if bad else 0)
EOF

if [ "$fail" -ne 0 ]; then
	echo "sarif: FAIL"
	exit 1
fi
echo "sarif: all logs valid against $(basename "$schema")"
