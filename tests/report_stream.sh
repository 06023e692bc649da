#!/bin/sh
# The streamed JSON and SARIF reports (lint/report/json_out.h) over the real-file
# corpus (../shared/corpus/{w3d,b3d,p3d}, or $W3DLINT_CORPUS_ROOT), each
# folder linted as one run (cross-file checks on):
#   - each document parses (python3 json) and is byte for byte the
#     two-space indented dump of itself (the layout jansson's
#     JSON_INDENT(2) writes, which the reports were written with before
#     they were streamed), with one final newline;
#   - the JSON report has the keys and types of docs/report-json.md
#     (top level, file, finding, counts; objects in the documented key
#     order), and its summary totals are the sums over its files;
#   - the SARIF log's results are the JSON report's findings, in the same
#     order, with the same rule, level, message, byte offset and length,
#     chunk path and file.
# The SARIF schema itself is checked by tests/sarif_validate.sh.  Skips with
# one line when python3 or the corpus is absent.
# Usage: tests/report_stream.sh W3DLINT
set -u
w3dlint=$1
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS_ROOT:-$root/../shared/corpus}
if ! command -v python3 >/dev/null 2>&1; then
	echo "report-stream: skipped: no python3"
	exit 0
fi
if [ ! -d "$corpus" ]; then
	echo "report-stream: skipped: no corpus at $corpus"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
checked=0
for fmt in w3d b3d p3d; do
	dir=$corpus/$fmt
	[ -d "$dir" ] || continue
	for kind in json sarif; do
		"$w3dlint" --no-progress --format "$kind" -o "$tmp/$fmt.$kind" "$dir" 2> "$tmp/$fmt.$kind.err"
		rc=$?
		if [ "$rc" -ge 2 ]; then
			echo "report-stream: FAIL $fmt $kind: w3dlint exit status $rc"
			head -n 5 "$tmp/$fmt.$kind.err"
			fail=1
		fi
	done
	python3 - "$tmp/$fmt.json" "$tmp/$fmt.sarif" <<'PY' || fail=1
import json, sys
from urllib.parse import quote

def load(path):
    raw = open(path, 'rb').read()
    doc = json.loads(raw.decode('utf-8'))
    again = (json.dumps(doc, indent=2, ensure_ascii=False) + '\n').encode('utf-8')
    if raw != again:
        n = next((i for i in range(min(len(raw), len(again))) if raw[i] != again[i]), min(len(raw), len(again)))
        sys.exit(f"report-stream: FAIL {path}: not the indented dump of itself at byte {n}: "
                 f"{raw[max(0, n - 60):n + 60]!r}")
    return doc

j = load(sys.argv[1])
s = load(sys.argv[2])

def keys(obj, want, optional=(), where=''):
    if not isinstance(obj, dict):
        sys.exit(f"report-stream: FAIL json {where}: not an object")
    got = [k for k in obj if k not in optional]
    if got != list(want):
        sys.exit(f"report-stream: FAIL json {where}: keys {list(obj)}, want {list(want)}")

def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0

COUNTS = ['errors', 'warnings', 'infos', 'dropped', 'baselined', 'not_shown']
keys(j, ['tool', 'files', 'summary'], ('baseline', 'unresolved'), 'top level')
keys(j['tool'], ['name', 'version'], (), 'tool')
if 'unresolved' in j:
    u = j['unresolved']
    keys(u, ['count', 'rules', 'names', 'message'], (), 'unresolved')
    if not (is_int(u['count']) and u['count'] > 0 and sum(u['rules'].values()) == u['count'] and
            isinstance(u['message'], str) and len(u['names']) <= 5 and
            all(list(n) == ['name', 'count'] for n in u['names'])):
        sys.exit("report-stream: FAIL json unresolved: not as docs/report-json.md says")
keys(j['summary'], ['files', 'files_with_errors'] + COUNTS + ['unreadable'], (), 'summary')
sums = dict.fromkeys(COUNTS, 0)
for f in j['files']:
    where = f.get('path', '?')
    keys(f, ['path', 'size', 'format', 'findings', 'dropped', 'summary'], (), where)
    if not (isinstance(f['path'], str) and is_int(f['size']) and f['format'] in ('w3d', 'b3d', 'p3d')):
        sys.exit(f"report-stream: FAIL json {where}: path, size or format")
    keys(f['summary'], COUNTS, (), where + ' summary')
    for x in f['findings']:
        keys(x, ['rule', 'severity', 'message', 'offset', 'length', 'chunk_path'] +
             (['related'] if 'related' in x else []), (), where + ' finding')
        ok = (isinstance(x['rule'], str) and x['severity'] in ('error', 'warning', 'info') and
              isinstance(x['message'], str) and x['message'] and is_int(x['offset']) and is_int(x['length']) and
              (x['chunk_path'] is None or isinstance(x['chunk_path'], str)))
        if not ok:
            sys.exit(f"report-stream: FAIL json {where}: finding {x}")
    if not all(isinstance(k, str) and is_int(v) for k, v in f['dropped'].items()):
        sys.exit(f"report-stream: FAIL json {where}: dropped")
    for c in COUNTS:
        if not is_int(f['summary'][c]):
            sys.exit(f"report-stream: FAIL json {where}: summary.{c}")
        sums[c] += f['summary'][c]
if j['summary']['files'] != len(j['files']):
    sys.exit("report-stream: FAIL json: summary.files is not the number of files")
for c in COUNTS:
    if sums[c] != j['summary'][c]:
        sys.exit(f"report-stream: FAIL json: summary.{c} {j['summary'][c]}, files sum to {sums[c]}")

# The SARIF results are the JSON findings.
level = {'error': 'error', 'warning': 'warning', 'info': 'note'}

def uri(path):  # report_sarif.c path_uri: RFC 3986 unreserved and '/' kept
    while path.startswith('./'):
        path = path[2:].lstrip('/')
    return ('file://' if path.startswith('/') else '') + quote(path, safe='/')

want = []
for f in j['files']:
    for x in f['findings']:
        want.append((uri(f['path']), x['rule'], level[x['severity']], x['message'], x['offset'], x['length'],
                     x['chunk_path']))
run = s['runs'][0]
got = []
for r in run['results']:
    loc = r['locations'][0]
    pl = loc['physicalLocation']
    logical = loc.get('logicalLocations')
    got.append((pl['artifactLocation']['uri'], r['ruleId'], r['level'], r['message']['text'],
                pl['region']['byteOffset'], pl['region']['byteLength'],
                logical[0]['fullyQualifiedName'] if logical else None))
if len(got) != len(want):
    sys.exit(f"report-stream: FAIL: {len(got)} SARIF results, {len(want)} JSON findings")
for g, w in zip(got, want):
    if g != w:
        sys.exit(f"report-stream: FAIL: SARIF result {g} is not JSON finding {w}")
print(f"report-stream: {sys.argv[1].rsplit('/', 1)[1].split('.')[0]}: {len(j['files'])} files, "
      f"{len(want)} findings: JSON and SARIF streamed, well-formed, in agreement")
PY
	checked=$((checked + 1))
done
if [ "$checked" -eq 0 ]; then
	echo "report-stream: skipped: no w3d, b3d or p3d folder under $corpus"
	exit 0
fi
[ "$fail" -eq 0 ] || exit 1
