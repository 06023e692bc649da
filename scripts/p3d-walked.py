#!/usr/bin/env python3
"""p3d-walked.py REPORT.json: the P3D part of tests/sweep.sh (issue 10).

Reads a w3dlint JSON report over the P3D corpus and says, per ODOL file,
whether the reader walked every LOD to its end: a file is not walked when
it has a finding of a rule that stops a walk (the LOD table not found, a
block that does not decode, a LOD whose structure does not land on its end,
an embedded material of a layout not known, a truncated header).  Prints
each such file with the rule, offset and message that stops it, then
"N of M ODOL files walked to the end of every LOD"; exit status 1 when a
file is not walked (the reviewed corpus state: every file is,
docs/corpus-errors-p3d.md)."""
import json
import sys

STOPS = {"p3d-lod-table-not-found", "p3d-block-decode", "p3d-lod-walk",
         "p3d-material-version", "p3d-truncated"}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
    odol = walked = 0
    for entry in report["files"]:
        path = entry["path"]
        with open(path, "rb") as model:
            if model.read(4) != b"ODOL":
                continue
        odol += 1
        stops = [x for x in entry["findings"] if x["rule"] in STOPS]
        if not stops:
            walked += 1
            continue
        for x in stops:
            print("sweep p3d: not walked to every LOD end: %s: %s at 0x%X: %s"
                  % (path, x["rule"], x["offset"], x["message"]))
    print("sweep p3d: %d of %d ODOL files walked to the end of every LOD" % (walked, odol))
    return 0 if walked == odol else 1


if __name__ == "__main__":
    sys.exit(main())
