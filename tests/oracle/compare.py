#!/usr/bin/env python3
"""The B3D oracle tier (make oracle; docs/oracle.md): the engines' own loaders
judge what w3dlint and w3dfix claim.

Loads every B3D file of the shared corpus and of the rule fixtures
(corpus/rules/b3d-*/*.b3d.txt, assembled with w3dasm) with Irrlicht 1.8
(tests/oracle/irr_oracle.cpp) and Assimp (tests/oracle/assimp_oracle.c), one
process per loader over all files, and checks per target (irrlicht, assimp):

  (a) every file the loader refuses has a finding at error under the target;
  (b) every finding at warning or error under the target is backed by a
      difference the loader shows (BACKING below), or its rule is in the
      reviewed table tests/oracle/reviewed.tsv (why the loader cannot show
      it, and the engine line); a finding at error needs a refusal;
  (c) repairs: w3dfix (safe, then --unsafe) of every file loads with at least
      the meshes, vertices, triangles, joints, weights and keys of the input,
      and a safe repair leaves what the target loads and its pose unchanged.

Prints a table; a disagreement listed as open in reviewed.tsv (what it is,
what is to be done) is shown but passes; exits 1 on any other.
Usage: compare.py BUILD IRR_ORACLE ASSIMP_ORACLE CORPUS_B3D WORKDIR
"""
import array
import json
import math
import os
import shutil
import subprocess
import sys

TARGETS = ("irrlicht", "assimp")

# What a finding of each rule must be backed by under each target:
#   refused   the loader refuses the file;
#   fix       the file repaired by the rule's own fixer alone (w3dfix --select
#             RULE, --unsafe for an unsafe fixer) loads differently: other
#             counts, bones, weights, normals or (Irrlicht) pose; where the
#             loader refuses the input, the fixer runs on the safe repair
#             of the file when the loader accepts that;
#   zeronormal  the loader keeps a vertex normal of length 0;
#   noanim    Assimp imports no animation although the file has keys;
#   nonfinite the loader holds a NaN or infinite float (values line);
#   dupweight the loader keeps two weights of one bone on one vertex;
#   negkey    the loader keeps a key at a frame (Irrlicht) or time (Assimp)
#             below 0.
# A fix is compared on the values line's hash too (texture coordinates,
# weights, joint or node transforms, keys in stored order).
BACKING = {
    "b3d-not-b3d": ("refused",),
    "b3d-triangle-vertex-out-of-range": ("refused",),
    "b3d-bone-vertex-out-of-range": ("refused", "fix"),
    "b3d-texture-id-out-of-range": ("refused",),
    "b3d-keys-beyond-anim": ("refused",),
    "b3d-keys-beyond-anim-by1": ("refused",),
    "b3d-tris-empty": ("refused",),
    "b3d-duplicate-bone-name": ("refused",),
    "b3d-mesh-no-tris": ("refused",),
    "b3d-mesh-no-vertices": ("refused",),
    "b3d-anim-zero-frames": ("refused",),
    "b3d-normal-zero": ("zeronormal",),
    "b3d-weight-sum": ("fix",),
    "b3d-weight-over-4": ("fix",),
    "b3d-weight-negative": ("fix",),
    "b3d-keys-frame-order": ("fix",),
    "b3d-keys-duplicate-frame": ("fix",),
    "b3d-key-rotation-not-unit": ("fix",),
    "b3d-node-rotation-not-unit": ("fix",),
    "b3d-anim-multiple": ("noanim",),
    "b3d-brush-texture-count": ("refused",),
    "b3d-brush-texture-negative": ("refused",),
    "b3d-no-nodes": ("refused",),
    "b3d-no-tris": ("refused",),
    "b3d-float-not-finite": ("nonfinite",),
    "b3d-key-not-finite": ("nonfinite",),
    "b3d-weight-not-finite": ("nonfinite",),
    "b3d-tex-coord-layout": ("refused",),
    "b3d-string-unterminated": ("refused",),
    "b3d-brush-id-out-of-range": ("refused", "fix"),
    "b3d-record-slack": ("refused", "fix"),
    "b3d-weight-duplicate-vertex": ("dupweight",),
    "b3d-key-frame-below-1": ("negkey",),
}


def run(cmd, stdin=None, ok=(0, 1)):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit("oracle: %s failed (%d): %s" % (" ".join(cmd[:3]), p.returncode, p.stderr[-500:]))
    return p.stdout


def load(oracle, paths, dump=None):
    """What the loader makes of each path: {path: record}; a crash or hang is
    recorded for its file and the loader restarted after it."""
    out, todo, base = {}, list(paths), 0
    while todo:
        # the pose files keep the numbering of the whole list across restarts
        cmd = [oracle] + ([dump, str(base)] if dump else [])
        try:
            p = subprocess.run(cmd, input="".join(t + "\n" for t in todo), capture_output=True,
                               text=True, errors="replace", timeout=1800)
            text, rc = p.stdout, p.returncode
        except subprocess.TimeoutExpired as e:
            text, rc = (e.stdout or b"").decode("utf-8", "replace"), -1
        done, cur = 0, None
        for line in text.split("\n"):
            key, _, rest = line.partition(" ")
            if key == "file":
                cur = {"path": rest, "bones": [], "poses": [], "index": base + done}
            elif cur is None:
                continue
            elif key == "end":
                out[cur["path"]] = cur
                done += 1
                cur = None
            elif key == "refused":
                cur["refused"] = rest
            elif key == "mesh":
                cur["mesh"] = rest
            elif key == "joints":
                cur["joints"] = rest
            elif key == "values":
                cur["values"] = rest.split()
            elif key == "bone":
                cur["bones"].append(rest)
            elif key == "pose":
                cur["poses"].append(rest)
        if done == len(todo):
            break
        if rc == 0:
            sys.exit("oracle: %s stopped early without an error" % oracle)
        crashed = todo[done]
        out[crashed] = {"path": crashed, "refused": "CRASH (status %d)" % rc, "crash": True,
                        "bones": [], "poses": []}
        todo, base = todo[done + 1:], base + done + 1
    return out


def counts(r):
    """meshes, vertices, triangles, joints, weights, keys of a load."""
    if "refused" in r:
        return None
    m, j = r["mesh"].split(), r["joints"].split()
    return (int(m[0]), int(m[1]), int(m[2]), int(j[0]), int(j[1]), int(j[2]))


def noanim(r, target):
    """Assimp loaded keys into no animation (the file's KEYS are dropped)."""
    return target == "assimp" and "refused" not in r and r["joints"].split()[3] == "0"


def zeronormals(r, target):
    return 0 if "refused" in r else int(r["mesh"].split()[4 if target == "irrlicht" else 3])


def value(r, i):
    """Field i of the values line as a number (0 when refused): 0
    NONFINITE, 2 DUPWEIGHTS, 3 NEGKEYS."""
    return 0 if "refused" in r else int(r["values"][i])


def pose(dump, r):
    a = array.array("f")
    path = os.path.join(dump, "%d.pose" % r["index"])
    if os.path.exists(path):
        with open(path, "rb") as f:
            a.frombytes(f.read())
    return a


def pose_moves(dump_a, ra, dump_b, rb):
    """Largest vertex displacement between two Irrlicht poses, as a share of
    the first pose's bounding-box diagonal (0 when equal)."""
    pa, pb = pose(dump_a, ra), pose(dump_b, rb)
    if len(pa) != len(pb):
        return float("inf")
    if not pa:
        return 0.0
    lo = [min(pa[i::3]) for i in range(3)]
    hi = [max(pa[i::3]) for i in range(3)]
    diag = math.sqrt(sum((h - l) ** 2 for l, h in zip(lo, hi))) or 1.0
    worst = 0.0
    for i in range(0, len(pa), 3):
        d = (pa[i] - pb[i]) ** 2 + (pa[i + 1] - pb[i + 1]) ** 2 + (pa[i + 2] - pb[i + 2]) ** 2
        if d > worst:
            worst = d
    return math.sqrt(worst) / diag


def same_load(ta, ra, da, rb, db):
    """None when two loads agree, else what differs."""
    if ("refused" in ra) != ("refused" in rb):
        return "refused" if "refused" in rb else "no longer refused"
    if "refused" in ra:
        return None
    for k in ("mesh", "joints"):
        if ra[k] != rb[k]:
            return "%s %s -> %s" % (k, ra[k], rb[k])
    if sorted(ra["bones"]) != sorted(rb["bones"]):
        return "bone bindings"
    if ta == "irrlicht":
        mv = pose_moves(da, ra, db, rb)
        if mv > 1e-4:
            return "pose moves %.3g%% of the bounding box" % (100 * mv)
    return None


def fix_differs(ta, ra, da, rb, db):
    """What a rule's own repair changes in what the loader holds: the
    counts, bindings and pose of same_load, else the values hash."""
    d = same_load(ta, ra, da, rb, db)
    if d or "refused" in ra or "refused" in rb:
        return d
    return "values" if ra["values"][1] != rb["values"][1] else None


def lint(build, target, paths):
    res = {}
    step = 200
    for i in range(0, len(paths), step):
        out = run([os.path.join(build, "w3dlint"), "--format", "json", "--target", target, "--fold", "0"]
                  + paths[i:i + step])
        for f in json.loads(out)["files"]:
            res[f["path"]] = f["findings"]
    return res


def stage(build, corpus, fixtures, work):
    """Copies of the inputs under WORK/in: corpus/ (the shared corpus's B3D
    files, same relative paths) and fixtures/RULE/NAME.b3d (assembled)."""
    inp = os.path.join(work, "in")
    shutil.rmtree(work, ignore_errors=True)
    files = []
    for root, _, names in os.walk(corpus):
        for n in sorted(names):
            if n.lower().endswith(".b3d"):
                src = os.path.join(root, n)
                dst = os.path.join(inp, "corpus", os.path.relpath(src, corpus))
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copyfile(src, dst)
                files.append(dst)
    for rule in sorted(os.listdir(fixtures)):
        if not rule.startswith("b3d-"):
            continue
        for n in sorted(os.listdir(os.path.join(fixtures, rule))):
            if n.endswith(".b3d.txt"):
                dst = os.path.join(inp, "fixtures", rule, n[:-4])
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                run([os.path.join(build, "w3dasm"), os.path.join(fixtures, rule, n), "-o", dst], ok=(0,))
                files.append(dst)
    return inp, sorted(files)


def fix(build, target, inp, out, extra):
    run([os.path.join(build, "w3dfix"), "-q", "--target", target, "-o", out] + extra + [inp], ok=(0, 1, 2))


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    build, irr, asm, corpus, work = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    oracles = {"irrlicht": irr, "assimp": asm}
    unobservable, known = {}, []
    with open(os.path.join(here, "reviewed.tsv")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                t, key, kind, why = line.rstrip("\n").split("\t", 3)
                if kind == "unobservable":
                    unobservable[(t, key)] = why
                else:
                    known.append((t, key, why))
    inp, files = stage(build, corpus, os.path.join(here, "..", "..", "corpus", "rules"), work)
    rel = {p: os.path.relpath(p, inp) for p in files}
    disagree, agree, notes = [], 0, []
    backed_by, unjudged = {}, {}

    for t in TARGETS:
        dump = os.path.join(work, "pose", t, "in")
        os.makedirs(dump, exist_ok=True)
        base = load(oracles[t], files, dump if t == "irrlicht" else None)
        found = lint(build, t, files)
        refused = sum(1 for p in files if "refused" in base[p])
        crashes = [p for p in files if base[p].get("crash")]
        notes.append("%s: %d files, %d refused, %d crashed the loader" % (t, len(files), refused, len(crashes)))
        # the safe repair of every file: judged in (c), and the reference
        # for a rule's own fixer where the loader refuses the input for
        # another reason (Assimp refuses most corpus files for keys one frame
        # past ANIM, which the safe repair covers)
        safe_dir = os.path.join(work, "safe", t)
        fix(build, t, inp, safe_dir, [])
        safe_dump = os.path.join(work, "pose", t, "safe")
        os.makedirs(safe_dump, exist_ok=True)
        safe_loaded = load(oracles[t], [os.path.join(safe_dir, rel[p]) for p in files],
                           safe_dump if t == "irrlicht" else None)

        def reference(p):
            """The file a rule's fixer is judged on, what the loader makes of
            it and its pose folder: the input, or its safe repair when the
            loader refuses the input and loads the repair."""
            if "refused" in base[p]:
                o = os.path.join(safe_dir, rel[p])
                r2 = safe_loaded.get(o)
                if r2 and "refused" not in r2:
                    return o, r2, safe_dump
            return p, base[p], dump

        # which (file, rule) pairs need a single-rule repair to be judged
        wanted = {}
        for p in files:
            for f in found.get(p, []):
                if f["severity"] in ("warning", "error") and "fix" in BACKING.get(f["rule"], ()):
                    wanted.setdefault(f["rule"], set()).add(p)
        fixed = {}
        for rule, paths in sorted(wanted.items()):
            out = os.path.join(work, "rule", t, rule)
            # only the files with the rule's findings, linked under their
            # own relative paths; the rule's fixer alone, safe or not
            sub = os.path.join(work, "sub", t, rule)
            for p in paths:
                os.makedirs(os.path.dirname(os.path.join(sub, rel[p])), exist_ok=True)
                os.link(reference(p)[0], os.path.join(sub, rel[p]))
            fix(build, t, sub, out, ["--select", rule, "--unsafe"])
            outs = [os.path.join(out, rel[p]) for p in sorted(paths)]
            d = os.path.join(work, "pose", t, "rule", rule)
            os.makedirs(d, exist_ok=True)
            loaded = load(oracles[t], outs, d if t == "irrlicht" else None)
            for p, o in zip(sorted(paths), outs):
                _, rr, rd = reference(p)
                fixed[(rule, p)] = fix_differs(t, rr, rd, loaded.get(o, {"refused": "not written"}), d)

        for p in files:
            r = base[p]
            errors = [f for f in found.get(p, []) if f["severity"] == "error"]
            # (a) a refusal needs an error
            if "refused" in r:
                if errors:
                    agree += 1
                else:
                    disagree.append((t, rel[p], "-", "refused (%s) but no error finding" % r["refused"][:90]))
            # (b) each warning or error is backed
            seen = set()
            for f in found.get(p, []):
                if f["severity"] not in ("warning", "error") or (f["rule"], f["severity"]) in seen:
                    continue
                seen.add((f["rule"], f["severity"]))
                rule, why = f["rule"], None
                kinds = BACKING.get(rule, ())
                unseen = (t, rule) in unobservable or any(
                    k[0] == t and k[1].startswith(rule + "@") and k[1].split("@", 1)[1] in rel[p]
                    for k in unobservable)
                if (f["severity"] == "warning" and "refused" in r and "refused" not in kinds
                        and "refused" in reference(p)[1] and not unseen):
                    # the loader refuses the file and its safe repair for
                    # another finding's defect: it shows nothing to judge by
                    unjudged[(t, rule)] = unjudged.get((t, rule), 0) + 1
                    continue
                if f["severity"] == "error" and "refused" not in r and not unseen:
                    why = "error, but the loader loads the file"
                elif unseen:
                    backed_by[(t, rule, "reviewed")] = backed_by.get((t, rule, "reviewed"), 0) + 1
                    agree += 1
                    continue
                elif "refused" in kinds and "refused" in r:
                    backed_by[(t, rule, "refused")] = backed_by.get((t, rule, "refused"), 0) + 1
                elif "zeronormal" in kinds and zeronormals(r, t):
                    backed_by[(t, rule, "zeronormal")] = backed_by.get((t, rule, "zeronormal"), 0) + 1
                elif "noanim" in kinds and noanim(r, t):
                    backed_by[(t, rule, "noanim")] = backed_by.get((t, rule, "noanim"), 0) + 1
                elif "nonfinite" in kinds and value(r, 0):
                    backed_by[(t, rule, "nonfinite")] = backed_by.get((t, rule, "nonfinite"), 0) + 1
                elif "dupweight" in kinds and value(r, 2):
                    backed_by[(t, rule, "dupweight")] = backed_by.get((t, rule, "dupweight"), 0) + 1
                elif "negkey" in kinds and value(r, 3):
                    backed_by[(t, rule, "negkey")] = backed_by.get((t, rule, "negkey"), 0) + 1
                elif "fix" in kinds and fixed.get((rule, p)):
                    backed_by[(t, rule, "fix")] = backed_by.get((t, rule, "fix"), 0) + 1
                elif not kinds:
                    why = "no backing defined for the rule and not in reviewed.tsv"
                else:
                    why = "%s, but the loader shows no such difference" % f["severity"]
                if why:
                    disagree.append((t, rel[p], rule, why))
                else:
                    agree += 1

        # (c) repairs
        for mode, extra in (("safe", []), ("unsafe", ["--unsafe"])):
            out = os.path.join(work, mode, t)
            outs = [os.path.join(out, rel[p]) for p in files]
            d = os.path.join(work, "pose", t, mode)
            if mode == "safe":
                loaded = safe_loaded
            else:
                fix(build, t, inp, out, extra)
                os.makedirs(d, exist_ok=True)
                loaded = load(oracles[t], outs, d if t == "irrlicht" else None)
            for p, o in zip(files, outs):
                a, b = base[p], loaded.get(o, {"refused": "not written"})
                ca, cb = counts(a), counts(b)
                if ca is None:
                    agree += 1
                    continue
                if cb is None:
                    disagree.append((t, rel[p], "w3dfix " + mode, "the repair is refused: " + b["refused"][:90]))
                    continue
                names = ("meshes", "vertices", "triangles", "joints", "weights", "keys")
                lost = [n for n, x, y in zip(names, ca, cb) if y < x]
                # an unsafe repair may drop what the loader drops anyway (empty meshes, repeated keys)
                if lost and mode == "safe":
                    disagree.append((t, rel[p], "w3dfix " + mode, "loads fewer " + ", ".join(lost)))
                    continue
                diff = same_load(t, a, dump, b, d) if mode == "safe" else None
                if diff and diff != "no longer refused":
                    disagree.append((t, rel[p], "w3dfix safe", "changes what the target loads: " + diff))
                    continue
                agree += 1

    print("B3D oracle tier: Irrlicht 1.8 and Assimp as loaded on this machine")
    print("files: %d (%d corpus, %d fixtures)" % (len(files), sum(1 for p in files if rel[p].startswith("corpus")),
                                                  sum(1 for p in files if rel[p].startswith("fixtures"))))
    for n in notes:
        print("  " + n)
    print("backing of the findings at warning or error, per target, rule and kind (distinct file x rule):")
    for (t, rule, kind), n in sorted(backed_by.items()):
        print("  %-8s %-34s %-10s %d" % (t, rule, kind, n))
    print("reviewed as not observable by the loader (reviewed.tsv): %d findings" %
          sum(n for (t, rule, kind), n in backed_by.items() if kind == "reviewed"))
    print("not judged: warnings on files the loader refuses, with their safe repair, for another"
          " finding's defect: %d" % sum(unjudged.values()))
    for (t, rule), n in sorted(unjudged.items()):
        print("  %-8s %-34s %d" % (t, rule, n))
    print("agreements: %d" % agree)
    opened, unexplained = {}, []
    for d in disagree:
        t, p, rule, why = d
        hit = [k for k in known if k[0] == t and (k[1] == rule or (k[1].startswith(("refused:", "w3dfix:"))
                                                                    and rule in ("-", "w3dfix safe", "w3dfix unsafe")
                                                                    and k[1].split(":", 1)[1] in why))]
        if hit:
            opened.setdefault(hit[0], []).append(d)
        else:
            unexplained.append(d)
    print("disagreements: %d (%d open and explained in reviewed.tsv, %d unexplained)" %
          (len(disagree), len(disagree) - len(unexplained), len(unexplained)))
    for (t, key, why), ds in sorted(opened.items()):
        print("  open  %-8s %-34s %3d  %s" % (t, key, len(ds), why))
        for d in ds[:3]:
            print("          e.g. %s: %s" % (d[1], d[3][:110]))
    for t, p, rule, why in unexplained:
        print("  UNEXPLAINED %-8s %-30s %s: %s" % (t, rule, p, why))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
