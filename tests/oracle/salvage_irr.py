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
less) and each output that loads less with both counts.

An output that loads less is then asked whether what it lacks is only
elements the damage itself touched: the undamaged file's elements are
walked here (every NODE's name and transform a joint, KEYS records by
their key components, BONE weights, VRTS vertices, TRIS triangles, a TRIS
header a mesh buffer; the B3D layout of ../shared/seeds, independent of
core/b3d), and per count the output may lack at most as many as the
elements whose bytes overlap the damage (CASES' fifth column: the cut and all after it, the
bytes deleted, inserted at, zeroed or swapped: tests/chunkwalk.py's
`outside`).  Such an output is listed as "damaged elements only" (a bone
NODE whose name or transform the cut took, a key record zeroed into a
repeated frame 0); one that lacks more lacks an intact element.  Exits 1
when more than MAX_LESS (default 0) outputs lack an intact element.
"""
import hashlib
import os
import struct
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import chunkwalk  # noqa: E402  (outside: is an element's byte range untouched)
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


def b3d_elements(data, start, end, out, depth=0):
    """The elements of the B3D chunks in data[start:end] as (field, offset,
    end, count) into out; field one of FIELDS, count the most elements
    Irrlicht makes of those bytes: a mesh buffer per TRIS, a joint per
    NODE, a key per component of a KEYS record (Irrlicht's finalize may
    then merge keys and weights: its counts are at most these)."""
    pos = start
    while pos + 8 <= end and depth < 64:
        tag = data[pos:pos + 4]
        size = struct.unpack_from("<I", data, pos + 4)[0]
        body, cend = pos + 8, min(pos + 8 + size, end)
        if tag == b"NODE":
            z = data.find(b"\0", body, cend)
            fixed = (z + 41) if z >= 0 else cend
            out.append(("joints", pos, min(fixed, cend), 1))
            if fixed < cend:
                b3d_elements(data, fixed, cend, out, depth + 1)
        elif tag == b"MESH":
            b3d_elements(data, body + 4, cend, out, depth + 1)
        elif tag == b"VRTS" and body + 12 <= cend:
            flags, sets, per = struct.unpack_from("<Iii", data, body)
            rec = 12 + (12 if flags & 1 else 0) + (16 if flags & 2 else 0) + 4 * max(sets, 0) * max(per, 0)
            for at in range(body + 12, cend, rec if rec > 0 else cend):
                out.append(("vertices", at, min(at + rec, cend), 1))
        elif tag == b"TRIS":
            out.append(("meshes", pos, min(body + 4, cend), 1))
            for at in range(body + 4, cend, 12):
                out.append(("triangles", at, min(at + 12, cend), 1))
        elif tag == b"BONE":
            for at in range(body + 4, cend, 8):
                out.append(("weights", at, min(at + 8, cend), 1))
        elif tag == b"KEYS" and body + 4 <= cend:
            flags = struct.unpack_from("<I", data, body)[0]
            rec = 4 + (12 if flags & 1 else 0) + (12 if flags & 2 else 0) + (16 if flags & 4 else 0)
            parts = bin(flags & 7).count("1")
            for at in range(body + 4, cend, rec):
                out.append(("keys", at, min(at + rec, cend), parts))
        elif tag == b"BB3D":
            b3d_elements(data, body + 4, cend, out, depth + 1)
        pos = pos + 8 + size
    return out


def damaged_allowance(orig, damage):
    """Per field of FIELDS, how many elements of the undamaged file orig
    (bytes) the damage (chunkwalk's tuple) touches."""
    allow = dict.fromkeys(FIELDS, 0)
    if not orig or not damage:
        return allow
    for field, off, end, n in b3d_elements(orig, 0, len(orig), []):
        if not chunkwalk.outside((field, off, end, None), damage):
            allow[field] += n
    return allow


def parse_damage(col):
    """CASES' fifth column ("cut 120", "zero 300 32", ...) as chunkwalk's
    tuple, or None."""
    d = col.split()
    try:
        return (d[0], int(d[1])) + tuple(int(x) for x in d[2:])
    except (IndexError, ValueError):
        return None


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
                damage = parse_damage(cols[4]) if len(cols) > 4 else None
                rows.append((cols[0], kind_of(cols[0], cols[1] if len(cols) > 1 else ""), orig, damage))
    paths = sorted({os.path.join(dorig, o) for _, _, o, _ in rows if o})
    for name, _, _, _ in rows:
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
    for name, kind, orig, damage in rows:
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
            inner = False
            if after is not None:
                with open(os.path.join(dorig, orig), "rb") as fh:
                    allow = damaged_allowance(fh.read(), damage)
                inner = all(a >= b - allow[f] for f, b, a in zip(FIELDS, before, after))
            less.append((mode, name, before, after, got.get(p, {}).get("refused"), inner))
    print("salvage_irr: %-14s %-8s %7s %7s %5s" % ("damage", "mode", "outputs", "as much", "less"))
    for (kind, mode) in sorted(table):
        n, ok = table[(kind, mode)]
        print("salvage_irr: %-14s %-8s %7d %7d %5d" % (kind, mode, n, ok, n - ok))
    for mode, name, before, after, why, inner in less:
        if after is None:
            what = "refused: %s" % why
        else:
            what = ", ".join("%s %d -> %d" % (f, b, a) for f, b, a in zip(FIELDS, before, after) if a < b)
        print("salvage_irr: less: %s %s: %s%s" % (mode, name, what,
                                                  " (damaged elements only)" if inner else " (an intact element)"))
    total = sum(t[0] for t in table.values())
    intact = sum(1 for x in less if not x[5])
    print("salvage_irr: %d outputs of %d damaged files, %d load less in Irrlicht than the damaged file: "
          "%d lack only elements the damage touched, %d lack an intact element"
          % (total, len(rows), len(less), len(less) - intact, intact))
    if intact > max_less:
        print("salvage_irr: FAIL: %d outputs lack an intact element (allowed: %d)" % (intact, max_less))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
