#!/usr/bin/env python3
"""html_report.py - checks a w3dlint --format html report against the JSON
report of the same run (docs/web.md "The HTML report"; make test-html):

    html_report.py REPORT.html REPORT.json W3DLINT W3DDUMP [CWD]

- the script elements: every '<script' is closed by the first '</script>'
  after it, and the JSON ones hold no '<';
- the script.w3dlint-json parts, joined with \\u003c turned back into '<',
  are the JSON report byte for byte;
- a script.w3dlint-geometry for each model file (W3D, B3D, P3D) with
  findings and for no other (an archive's own findings have none), each equal to `w3ddump --geometry PATH` (run in CWD);
- script#w3dlint-explain holds the rules with findings, each text equal to
  `w3dlint --explain RULE`;
- the viewer is the last script and holds no '</script' or '<!--'.
Prints one line; exits 1 with the differences.
"""
import json
import re
import subprocess
import sys

OPEN = re.compile(r'<script( type="application/json" (class|id)="([a-z0-9-]+)")?>')


def scripts(html):
    out, pos = [], 0
    while True:
        m = OPEN.search(html, pos)
        if not m:
            return out
        end = html.find('</script>', m.end())
        if end < 0:
            raise SystemExit('html_report: FAIL: a <script> element is not closed')
        out.append((m.group(3) or 'viewer', html[m.end():end]))
        pos = end + len('</script>')


# '\u003c' back to '<' where the backslash is not itself escaped
UNESCAPE = re.compile(r'(?<!\\)((?:\\\\)*)\\u003c')


def main():
    html_path, json_path, w3dlint, w3ddump = sys.argv[1:5]
    cwd = sys.argv[5] if len(sys.argv) > 5 else None
    html = open(html_path, encoding='utf-8').read()
    want = open(json_path, encoding='utf-8').read()
    parts = scripts(html)
    errors = []
    if html.count('<script') != len(parts) or html.count('</script>') != len(parts):
        errors.append(f'{html.count("<script")} <script and {html.count("</script>")} </script> for {len(parts)} elements')
    for kind, text in parts:
        if kind != 'viewer' and '<' in text:
            errors.append(f'a {kind} element holds "<"')
    joined = ''.join(UNESCAPE.sub(r'\1<', t) for k, t in parts if k == 'w3dlint-json')
    if joined != want:
        errors.append(f'the JSON parts joined ({len(joined)} bytes) differ from the JSON report ({len(want)} bytes)')
    report = json.loads(want)
    with_findings = [f['path'] for f in report['files'] if f['findings'] and f['format'] in ('w3d', 'b3d', 'p3d')]
    geos = [json.loads(t) for k, t in parts if k == 'w3dlint-geometry']
    if [g['path'] for g in geos] != with_findings:
        errors.append(f'geometry of {len(geos)} files, {len(with_findings)} model files have findings')
    meshes = 0
    for g in geos:
        native = json.loads(subprocess.run([w3ddump, '--geometry', g['path']], cwd=cwd, check=True,
                                           capture_output=True).stdout)
        meshes += len(native['meshes'])
        if g['geometry'] != native:
            errors.append(f'{g["path"]}: the geometry differs from w3ddump --geometry')
    explain = [json.loads(t) for k, t in parts if k == 'w3dlint-explain']
    rules = sorted({x['rule'] for f in report['files'] for x in f['findings']})
    if len(explain) != 1 or sorted(explain[0]) != rules:
        errors.append(f'explanations of {sorted(explain[0]) if explain else None}, rules found {rules}')
    else:
        for r in rules:
            text = subprocess.run([w3dlint, '--explain', r], check=True, capture_output=True, text=True).stdout
            if explain[0][r] != text:
                errors.append(f'{r}: the explanation differs from w3dlint --explain')
    if not parts or parts[-1][0] != 'viewer' or re.search(r'</script|<!--', parts[-1][1], re.I):
        errors.append('the viewer is not the last script, or could end its element')
    nfind = sum(len(f['findings']) for f in report['files'])
    if errors:
        for e in errors[:10]:
            print(f'html_report: FAIL: {html_path}: {e}')
        return 1
    print(f'html_report: ok: {html_path}: {len(report["files"])} files, {nfind} findings: the JSON parts joined are '
          f'the JSON report byte for byte; geometry of the {len(geos)} model files with findings ({meshes} meshes) equal '
          f'to w3ddump --geometry; {len(rules)} explanations equal to --explain; {len(html)} bytes')
    return 0


if __name__ == '__main__':
    sys.exit(main())
