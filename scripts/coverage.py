#!/usr/bin/env python3
"""Line coverage of a gcc --coverage build (make coverage).

Usage: coverage.py [--min PERCENT] [--files] BUILD DIR...

Runs gcov (JSON output, gcc 9 or later) on every .gcda file under BUILD/DIR
for each DIR, merges the lines of every source and header under the DIRs
(a line counts as executed when any object executed it), and prints the
line coverage per DIR and in all, then the ten files with the most
unexecuted lines (--files: every file).  Exits 1 when the total is below
--min (default 0), 2 when there is nothing to measure.
"""
import json
import os
import subprocess
import sys


def gcov_json(gcda, cwd):
    out = subprocess.run(
        ["gcov", "--json-format", "--stdout", "--object-directory",
         os.path.dirname(gcda), gcda],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    # One JSON document per line (one per object file).
    for line in out.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line:
            yield json.loads(line)


def main(argv):
    minimum = 0.0
    all_files = False
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--min" and i + 1 < len(argv):
            minimum = float(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--files":
            all_files = True
        else:
            args.append(argv[i])
        i += 1
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build, dirs = args[0], args[1:]
    root = os.getcwd()
    lines = {}  # file -> {line number: executed}
    for d in dirs:
        for top, _, names in os.walk(os.path.join(build, d)):
            for n in sorted(names):
                if not n.endswith(".gcda"):
                    continue
                for doc in gcov_json(os.path.join(top, n), root):
                    for f in doc.get("files", []):
                        path = os.path.normpath(f["file"])
                        if os.path.isabs(path):
                            path = os.path.relpath(path, root)
                        if path.split(os.sep)[0] not in dirs:
                            continue
                        seen = lines.setdefault(path, {})
                        for ln in f.get("lines", []):
                            k = ln["line_number"]
                            seen[k] = seen.get(k, False) or ln["count"] > 0
    if not lines:
        print("coverage: no .gcda files under %s (run the tests first)" % build)
        return 2

    def tally(files):
        total = sum(len(lines[f]) for f in files)
        hit = sum(sum(1 for v in lines[f].values() if v) for f in files)
        return hit, total

    print("coverage: lines executed by make test (gcov, %s/)" % build)
    for d in dirs:
        files = [f for f in lines if f.split(os.sep)[0] == d]
        hit, total = tally(files)
        pct = 100.0 * hit / total if total else 100.0
        print("  %-6s %6.2f%%  %6d of %6d lines, %d files" % (d + "/", pct, hit, total, len(files)))
    hit, total = tally(list(lines))
    pct = 100.0 * hit / total if total else 100.0
    print("  %-6s %6.2f%%  %6d of %6d lines" % ("total", pct, hit, total))
    ranked = sorted(lines, key=lambda f: (-(len(lines[f]) - tally([f])[0]), f))
    if not all_files:
        ranked = ranked[:10]
    print("  files with the most lines not executed:" if not all_files else "  per file:")
    for f in ranked:
        h, t = tally([f])
        print("    %-34s %6.2f%%  %5d of %5d" % (f, 100.0 * h / t if t else 100.0, h, t))
    if pct < minimum:
        print("coverage: FAIL: %.2f%% is below the minimum %.2f%%" % (pct, minimum))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
