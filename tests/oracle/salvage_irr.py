#!/usr/bin/env python3
"""salvage_irr.py - the engine's view of the B3D salvage (issue 29): every
output w3dfix wrote from a damaged file must load in Irrlicht 1.8 (the
loader Luanti's is forked from) with at least what Irrlicht loads from the
damaged file itself: meshes, vertices, triangles, joints, weights, keys -
or, where the damage made Irrlicht load more than the undamaged file holds
(a phantom joint read from misplaced bytes), at least what it loads from
the undamaged file: per count, at least the smaller of the two.

  salvage_irr.py IRR_ORACLE CASES IN OUT_UNSAFE OUT_SAFE ORIG [MAX_LESS]

CASES: tests/salvage.sh's case list (name TAB kind ...); IN: the damaged
files; OUT_UNSAFE, OUT_SAFE: w3dfix --unsafe -o and w3dfix -o outputs (a
case with no output there, or whose output is the damaged file unchanged,
was refused: the damaged file is kept, nothing to compare); ORIG: the undamaged files, named as CASES' fourth column
with '/' as '~'.  The files go through one irr_oracle process per processor
(compare.py load: restarted after a crash), which reports counts only
(IRR_ORACLE_COUNTS_ONLY=1: no poses) and gives each file
IRR_ORACLE_SECONDS (default here 3) before it counts as a hang.  A damaged file Irrlicht refuses counts as
nothing loaded; an output it refuses, of a damaged file it loads, loads
less.  Prints a table per damage kind and mode (outputs, at least as much,
less) and each output that loads less with both counts; exits 1 when more
than MAX_LESS (default 0) outputs load less.
"""
import hashlib
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (load, counts: the oracle tier's own reading)

FIELDS = ("meshes", "vertices", "triangles", "joints", "weights", "keys")


def kind_of(name, where):
    """The damage kind of a case, as tests/salvage.sh names its variants."""
    if where in ("deleted", "inserted", "swapped", "zeroed"):
        return where
    base = name.rsplit(".", 2)
    tag = base[-2] if len(base) == 3 else ""
    if tag[:1] == "t":
        return "cut"
    if tag[:1] == "s":
        return "size " + tag[1:].replace("p", "+").replace("m", "-")
    if tag[:1] == "g":
        return "grown " + tag[1:]
    return where or "other"


def same_bytes(a, b):
    """Do files a and b hold the same bytes?"""
    try:
        with open(a, "rb") as x, open(b, "rb") as y:
            return x.read() == y.read()
    except OSError:
        return False


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    oracle, cases, din, dun, dsafe, dorig = sys.argv[1:7]
    max_less = int(sys.argv[7]) if len(sys.argv) > 7 else 0
    rows = []
    with open(cases) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if cols and cols[0]:
                orig = cols[3].replace("/", "~") if len(cols) > 3 else ""
                rows.append((cols[0], kind_of(cols[0], cols[1] if len(cols) > 1 else ""), orig))
    paths = sorted({os.path.join(dorig, o) for _, _, o in rows if o})
    for name, _, _ in rows:
        paths.append(os.path.join(din, name))
        for d in (dun, dsafe):
            p = os.path.join(d, name)
            if os.path.exists(p):
                paths.append(p)
    os.environ["IRR_ORACLE_COUNTS_ONLY"] = "1"
    os.environ.setdefault("IRR_ORACLE_SECONDS", "3")
    # Each distinct content is loaded once: the safe and --unsafe outputs
    # are often the same bytes, and many equal their undamaged file.
    first, rep = {}, {}
    for p in paths:
        with open(p, "rb") as fh:
            digest = hashlib.sha1(fh.read()).hexdigest()
        rep[p] = first.setdefault(digest, p)
    unique = sorted(set(rep.values()))
    jobs = max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1, 8))
    parts = [unique[k::jobs] for k in range(jobs)]
    loaded = {}
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for part in ex.map(lambda ps: compare.load(oracle, ps) if ps else {}, parts):
            loaded.update(part)
    got = {p: loaded[r] for p, r in rep.items() if r in loaded}
    print("salvage_irr: %d files, %d distinct contents loaded" % (len(paths), len(unique)))
    table, less = {}, []
    for name, kind, orig in rows:
        before = compare.counts(got.get(os.path.join(din, name), {"refused": "missing"}))
        whole = compare.counts(got.get(os.path.join(dorig, orig), {"refused": "missing"})) if orig else None
        if before is not None and whole is not None:
            before = tuple(min(b, w) for b, w in zip(before, whole))
        for mode, d in (("--unsafe", dun), ("safe", dsafe)):
            p = os.path.join(d, name)
            if not os.path.exists(p):
                continue
            t = table.setdefault((kind, mode), [0, 0])
            t[0] += 1
            if same_bytes(p, os.path.join(din, name)):
                t[1] += 1  # refused: the damaged file written unchanged (-o)
                continue
            after = compare.counts(got.get(p, {"refused": "missing"}))
            if before is None or (after is not None and all(a >= b for a, b in zip(after, before))):
                t[1] += 1
                continue
            less.append((mode, name, before, after, got.get(p, {}).get("refused")))
    print("salvage_irr: %-14s %-8s %7s %7s %5s" % ("damage", "mode", "outputs", "as much", "less"))
    for (kind, mode) in sorted(table):
        n, ok = table[(kind, mode)]
        print("salvage_irr: %-14s %-8s %7d %7d %5d" % (kind, mode, n, ok, n - ok))
    for mode, name, before, after, why in less:
        if after is None:
            what = "refused: %s" % why
        else:
            what = ", ".join("%s %d -> %d" % (f, b, a) for f, b, a in zip(FIELDS, before, after) if a < b)
        print("salvage_irr: less: %s %s: %s" % (mode, name, what))
    total = sum(t[0] for t in table.values())
    print("salvage_irr: %d outputs of %d damaged files, %d load less in Irrlicht than the damaged file"
          % (total, len(rows), len(less)))
    if len(less) > max_less:
        print("salvage_irr: FAIL: %d outputs load less (allowed: %d)" % (len(less), max_less))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
