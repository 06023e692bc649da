#!/usr/bin/env python3
"""The reviewed table of error-severity findings over ../shared/corpus/FORMAT.

  corpus-errors.py table REPORT.json          print the table rows (markdown)
  corpus-errors.py check REPORT.json TABLE.md  fail when the report's errors
                                               differ from the reviewed table

REPORT.json is `w3dlint --format json` over the corpus folder.  A row is
(file relative to the corpus, rule, offset); the reasons live in the table
file and are written by a person, per rule, after reviewing the findings.
"""
import json
import re
import sys


def errors(report):
    with open(report, encoding="utf-8") as f:
        doc = json.load(f)
    rows = set()
    for fi in doc["files"]:
        path = fi["path"]
        m = re.search(r"corpus/[a-z0-9]+/(.*)$", path)
        rel = m.group(1) if m else path
        for x in fi["findings"]:
            if x["severity"] == "error":
                rows.add((rel, x["rule"], x["offset"], x["chunk_path"]))
    return rows


def table_rows(table):
    rows = set()
    pat = re.compile(r"^\| `([^`]+)` \| `([a-z0-9-]+)` \| 0x([0-9A-Fa-f]+) \|")
    with open(table, encoding="utf-8") as f:
        for line in f:
            m = pat.match(line)
            if m:
                rows.add((m.group(1), m.group(2), int(m.group(3), 16)))
    return rows


def main(argv):
    if len(argv) == 3 and argv[1] == "table":
        for rel, rule, off, cpath in sorted(errors(argv[2])):
            print(f"| `{rel}` | `{rule}` | 0x{off:X} | `{cpath}` |")
        return 0
    if len(argv) == 4 and argv[1] == "check":
        have = {(a, b, c) for a, b, c, _ in errors(argv[2])}
        want = table_rows(argv[3])
        new, gone = sorted(have - want), sorted(want - have)
        for r in new:
            print(f"corpus-errors: NOT REVIEWED: {r[0]} {r[1]} at 0x{r[2]:X}")
        for r in gone:
            print(f"corpus-errors: no longer reported: {r[0]} {r[1]} at 0x{r[2]:X}")
        print(f"corpus-errors: {len(have)} error findings, {len(want)} reviewed rows, "
              f"{len(new)} new, {len(gone)} gone")
        return 1 if new or gone else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
