#!/usr/bin/env python3
"""root-includes.py - rewrites the project's relative includes that climb
out of their folder ("../../core/x.h") into includes from the root of the
tree ("core/x.h"), which the Makefile's -I. resolves (issue 20 item 5).
Includes of the same folder ("checks.h") stay as they are.

Idempotent and re-runnable: the lead re-runs it after merging branches that
still write "../" includes (see scripts/rule-handles-convert.py for the
whole sequence):
    python3 scripts/root-includes.py && make -j2 WERROR=1 all
It rewrites every *.c and *.h outside build*/ and .git, prints the files it
changed, and reports an include it cannot resolve to a file of the tree
(left alone).  --check: change nothing, exit 1 when one is left.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INC = re.compile(r'^(\s*#\s*include\s+")(\.\./[^"]+)(")', re.M)


def main(argv):
    check = "--check" in argv
    left = 0
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not d.startswith("build"))
        for name in sorted(filenames):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()

            def fix(m):
                nonlocal left
                target = os.path.normpath(os.path.join(dirpath, m.group(2)))
                rel = os.path.relpath(target, ROOT)
                if rel.startswith("..") or not os.path.exists(target):
                    print("%s: cannot resolve %s" % (os.path.join(rel_dir, name), m.group(2)), file=sys.stderr)
                    left += 1
                    return m.group(0)
                return m.group(1) + rel.replace(os.sep, "/") + m.group(3)

            new = INC.sub(fix, text)
            if new != text:
                print(os.path.normpath(os.path.join(rel_dir, name)))
                if check:
                    left += 1
                else:
                    with open(path, "w", encoding="utf-8", errors="surrogateescape") as fh:
                        fh.write(new)
    return 1 if check and left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
