#!/usr/bin/env python3
"""geometry.py BUILD: w3ddump --geometry (issue 28: the meshes the web page
draws, textform/geometry.h) over every W3D, B3D and P3D file of
../shared/corpus, checked three ways:

1. shape: per mesh, positions in threes, triangles in threes, normals (when
   given) one per vertex, uvs two per vertex, bones one per vertex; the
   vertex_arrays and triangle_arrays spans tile the vertices and triangles;
2. counts against a walk of its own (not core/): per file the vertices and
   triangles equal the records of the file's vertex and triangle chunks -
   W3D VERTICES (12 bytes a vertex) and TRIANGLES (32 bytes) of each MESH,
   B3D VRTS records (sized by their flags, tests/oracle/salvage_irr.py's
   b3d_elements) and TRIS records (12 bytes); P3D: per LOD the faces equal
   w3ddump --json's count (which tests/p3d_crosscheck.py checks against its
   own decoder) and face_triangles gives each face 1 or 2 triangles;
3. findings: every finding of `w3dlint --format json` over the same files
   whose chunk path is ARRAY[i], ARRAY a vertex, triangle or (P3D) face
   array of the file's geometry (W3D vertex_channels, VERTEX_NORMALS[i] and
   the like, count as vertex arrays), names an element the geometry holds
   (i < its count; a P3D vertex finding, LOD[i][v] or LOD[i]/points[v], is
   one of the LOD's vertices); a B3D BONE[k] finding's NODE is one of
   bone_paths: what the page highlights exists;
4. W3D AABTrees, HLOD sub-objects and transforms, against a walk of its own
   (w3d_walk: MESH_HEADER3, AABTREE_NODES of 32 bytes, AABTREE_POLYINDICES
   of 4, HIERARCHY_HEADER and PIVOTS of 60 bytes, HLOD_HEADER and
   HLOD_SUB_OBJECT of 36): each mesh's "aabtree" has the file's nodes
   (6 floats a box, leaf_first/leaf_count per node) and poly indices; the
   "subobjects" are the file's HLOD_SUB_OBJECT chunks, each naming the
   first mesh of its name (or -1 when none); a rigid mesh an HLOD places
   has the "transform" of its bone's base pose, recomputed here from the
   pivots (T(Translation) R(Rotation) chained through the parents,
   htree.cpp:281-293) and absent otherwise; every finding at an AABTREE
   (AABTREE_NODES[i], AABTREE_POLYINDICES[k], the AABTREE or its header)
   and at an HLOD_SUB_OBJECT names a node, slot, tree or sub-object the
   geometry holds.  The corpus holds no AABTree finding, so fixtures()
   makes some: the smallest corpus W3D file with an AABTree on a rigid
   mesh an HLOD places, dumped (w3ddump --text) with one leaf box halved
   (its Max moved to its centre), one poly index out of range and one sub-object's bone out
   of range, assembled back (w3dasm), and checked the same way; they must
   hold aabtree-box-too-small, aabtree-polyindex-out-of-range and
   hlod-bone-index-out-of-range findings, which must resolve.
Exit 1 on any difference; skipped with one line without the corpus.

geometry.py --fixtures BUILD OUT writes the fixture to OUT/aabtree-hlod.w3d
and prints its path (tests/web_browser.mjs uses it when the corpus has no
finding of a kind)."""
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "oracle"))
from salvage_irr import b3d_elements  # noqa: E402


def own_counts(fmt, data):
    """(vertices, triangles) of the file by the walk of its own."""
    if fmt == "w3d":
        # top-level MESH chunks (id 0; old Renegade exporters leave its
        # container bit clear), and their VERTICES (0x02) and TRIANGLES
        # (0x20) children
        v = t = 0
        pos = 0
        while pos + 8 <= len(data):
            cid, raw = struct.unpack_from("<II", data, pos)
            end = pos + 8 + (raw & 0x7FFFFFFF)
            if end > len(data):
                break
            q = pos + 8 if cid == 0 else end
            while q + 8 <= end:
                kid, kraw = struct.unpack_from("<II", data, q)
                kend = q + 8 + (kraw & 0x7FFFFFFF)
                if kend > end:
                    break
                v += (kend - q - 8) // 12 if kid == 0x02 else 0
                t += (kend - q - 8) // 32 if kid == 0x20 else 0
                q = kend
            pos = end
        return v, t
    v = t = 0
    for field, _, _, n in b3d_elements(data, 0, len(data), []):
        if field == "vertices":
            v += n
        elif field == "triangles":
            t += n
    return v, t


def chunks(data, start, end, limit=None):
    """(id, payload start, payload end) of the chunks that start in
    data[start:end]; a chunk running past end is cut at end, or at limit
    when given: the reader takes a container whose last child runs past it
    as one whose size is wrong and ends it there (container-size-at-eof,
    core/chunk.h)."""
    pos = start
    while pos + 8 <= end:
        cid, raw = struct.unpack_from("<II", data, pos)
        stop = min(pos + 8 + (raw & 0x7FFFFFFF), limit or end)
        yield cid, pos + 8, stop
        pos = stop


def cname(raw):
    """A name field up to its first NUL, letters folded (the engine's
    stricmp)."""
    return raw.split(b"\0")[0].upper()


def w3d_walk(data):
    """The file's meshes (name, skin, AABTree node and slot counts, in file
    order), hierarchies ({NAME: (NumPivots, pivots)}, the first of a name),
    HLODs ([(header complete, HierarchyName, [(kind, [(ok, bone,
    NAME)])])]) by a walk of the chunks of its own."""
    meshes, hiers, hlods = [], {}, []
    pos = 0
    while pos + 8 <= len(data):
        cid, raw = struct.unpack_from("<II", data, pos)
        a, b = pos + 8, min(pos + 8 + (raw & 0x7FFFFFFF), len(data))
        # an HLOD's LOD array may run past the HLOD's size at the end of
        # the file: the HLOD then ends where its children end
        kids = list(chunks(data, a, b, len(data) if cid == 0x700 else None)) if cid in (0, 0x100, 0x700) else []
        pos = max([b] + [k[2] for k in kids])
        if cid == 0:
            m = {"name": b"", "skin": False, "aabtree": None}
            hdr = [k for k in kids if k[0] == 0x1F]
            if hdr and hdr[0][2] - hdr[0][1] >= 40:
                h = hdr[0][1]
                mesh, cont = cname(data[h + 8:h + 24]), cname(data[h + 24:h + 40])
                m["name"] = cont + b"." + mesh if cont else mesh
                m["skin"] = struct.unpack_from("<I", data, h + 4)[0] & 0xFF0000 == 0x20000
            m["skin"] = m["skin"] or any(k[0] in (0x0E, 0xC03) for k in kids)
            vch = [k for k in kids if k[0] == 0x02]
            ich = [k for k in kids if k[0] == 0x0E]
            m["vertices"] = [struct.unpack_from("<3f", data, p) for p in range(vch[0][1], vch[0][2] - 11, 12)] \
                if vch else []
            m["influences"] = [struct.unpack_from("<H", data, p)[0] for p in range(ich[0][1], ich[0][2] - 7, 8)] \
                if ich else None
            for k in kids:
                if k[0] == 0x90 and m["aabtree"] is None:
                    tk = list(chunks(data, k[1], k[2]))
                    nodes = [x for x in tk if x[0] == 0x93]
                    polys = [x for x in tk if x[0] == 0x92]
                    m["aabtree"] = ((nodes[0][2] - nodes[0][1]) // 32 if nodes else 0,
                                    (polys[0][2] - polys[0][1]) // 4 if polys else 0)
            meshes.append(m)
        elif cid == 0x100:
            hdr = [k for k in kids if k[0] == 0x101]
            piv = [k for k in kids if k[0] == 0x102]
            if not hdr:
                continue
            h = hdr[0][1]
            name = cname(data[h + 4:min(h + 20, hdr[0][2])])
            records = []
            if piv:
                for p in range(piv[0][1], piv[0][2] - 59, 60):
                    parent = struct.unpack_from("<I", data, p + 16)[0]
                    t = struct.unpack_from("<3f", data, p + 20)
                    q = struct.unpack_from("<4f", data, p + 44)
                    records.append((parent, t, q))
            n = struct.unpack_from("<I", data, h + 20)[0] if hdr[0][2] - h >= 36 else len(records)
            hiers.setdefault(name, (n, records))
        elif cid == 0x700:
            hdr = [k for k in kids if k[0] == 0x701]
            ok = bool(hdr) and hdr[0][2] - hdr[0][1] >= 40
            hier = cname(data[hdr[0][1] + 24:hdr[0][1] + 40]) if ok else b""
            arrays = []
            for k in kids:
                if k[0] in (0x702, 0x705, 0x706):
                    subs = []
                    for x in chunks(data, k[1], k[2], len(data)):
                        if x[0] == 0x704:
                            full = x[2] - x[1] >= 36
                            bone = struct.unpack_from("<I", data, x[1])[0] if x[2] - x[1] >= 4 else 0
                            subs.append((full, bone, cname(data[x[1] + 4:min(x[1] + 36, x[2])])))
                    arrays.append(({0x702: "lod", 0x705: "aggregate", 0x706: "proxy"}[k[0]], subs))
            hlods.append((ok, hier, arrays))
    return meshes, hiers, hlods


def qmul(a, b):
    """Hamilton product of quaternions X, Y, Z, W."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def qmat(q):
    """Rows of the rotation matrix of unit q (quat.cpp:824-845)."""
    x, y, z, w = q
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
            (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
            (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)))


def base_pose(records, bone):
    """(q, t) of pivot bone's base pose in model space, or None when a
    pivot on its chain is not finite, its rotation shorter than 0.5, or its
    parent neither the root marker nor an earlier pivot."""
    poses = []
    for i, (parent, t, q) in enumerate(records[:bone + 1]):
        n = math.sqrt(sum(c * c for c in q)) if all(map(math.isfinite, q + t)) else 0
        if not n >= 0.5 or (parent != 0xFFFFFFFF and (parent >= i or poses[parent] is None)):
            poses.append(None)
            continue
        q = tuple(c / n for c in q)
        if parent != 0xFFFFFFFF:
            pq, pt = poses[parent]
            r = qmat(pq)
            t = tuple(sum(r[k][j] * t[j] for j in range(3)) + pt[k] for k in range(3))
            q = qmul(pq, q)
        poses.append((q, t))
    return poses[bone] if bone < len(poses) else None


def companion_hiers(path, name, cache={}):
    """The hierarchies ({NAME: (NumPivots, pivots)}) and path of the file
    NAME.w3d beside path (letter case ignored: the engine loads a
    hierarchy it lacks from NAME.w3d, assetmgr.cpp:898-920), or ({}, None)."""
    if not path or not name or any(c in name for c in b"/\\:") or b".." in name:
        return {}, None
    folder = os.path.dirname(path) or "."
    want = (name + b".w3d").lower()
    key = (folder, want)
    if key not in cache:
        found = None
        for e in sorted(os.listdir(folder)):
            full = os.path.join(folder, e)
            if os.fsencode(e).lower() == want and os.path.isfile(full) and os.path.abspath(full) != os.path.abspath(path):
                found = full
        hiers = {}
        if found:
            with open(found, "rb") as fh:
                hiers = w3d_walk(fh.read())[1]
        cache[key] = (hiers, found)
    return cache[key]


def tree_of(hier, hiers, path):
    """(NumPivots, pivots, file) of hierarchy hier: the file's own (file
    None), else from NAME.w3d beside path; None when neither has it."""
    if hier in hiers:
        return hiers[hier] + (None,)
    other, found = companion_hiers(path, hier)
    return other[hier] + (found,) if hier in other else None


def want_transform(m, hiers, hlods, path=None):
    """The transform (16 floats, column-major) the mesh should have, or
    None: a rigid mesh, the first HLOD with a complete header with a LOD or
    aggregate sub-object naming it, in it the top LOD array's first, then
    the lower arrays', then the aggregates'; its bone's base pose in the
    hierarchy the HLOD names (an empty name: bone 0, the identity)."""
    if m["skin"] or not m["name"]:
        return None
    for ok, hier, arrays in hlods:
        if not ok:
            continue
        lods = [subs for kind, subs in arrays if kind == "lod"]
        aggs = [subs for kind, subs in arrays if kind == "aggregate"]
        named = [s for subs in lods[::-1] + aggs for s in subs if s[0] and s[2] == m["name"]]
        if not named:
            continue
        bone = named[0][1]
        found = None
        if not hier:
            pose = ((0, 0, 0, 1), (0, 0, 0)) if bone == 0 else None
        else:
            n, records, found = tree_of(hier, hiers, path) or (0, [], None)
            pose = base_pose(records, bone) if bone < min(n, len(records)) else None
        if pose is None:
            return None
        r = qmat(pose[0])
        return [r[0][0], r[1][0], r[2][0], 0, r[0][1], r[1][1], r[2][1], 0, r[0][2], r[1][2], r[2][2], 0,
                pose[1][0], pose[1][1], pose[1][2], 1], found
    return None


def want_posed(m, hiers, hlods, path=None):
    """A skin's vertices in the bind pose ([x, y, z, ...]), or None: the
    first HLOD with a complete header with a LOD or aggregate sub-object
    naming it gives the hierarchy (an empty name: one pivot, the identity);
    each vertex goes through the base pose of its VERTEX_INFLUENCES bone;
    None when the hierarchy is not in the file or a vertex cannot be posed.
    Skins with only VERTEX_INFLUENCES_EXTENDED: \"skip\"."""
    if not m["skin"] or not m["name"] or not m["vertices"]:
        return None
    if m["influences"] is None:
        return "skip"
    for ok, hier, arrays in hlods:
        if not ok or not any(s[0] and s[2] == m["name"] for kind, subs in arrays if kind != "proxy" for s in subs):
            continue
        tree = tree_of(hier, hiers, path) if hier else (1, [(0xFFFFFFFF, (0, 0, 0), (0, 0, 0, 1))], None)
        if tree is None:
            return None
        n, records, found = tree
        n = min(n, len(records))
        out = []
        for i, v in enumerate(m["vertices"]):
            if i >= len(m["influences"]) or m["influences"][i] >= n:
                return None
            pose = base_pose(records, m["influences"][i])
            if pose is None or not all(map(math.isfinite, v)):
                return None
            r = qmat(pose[0])
            out += [sum(r[k][j] * v[j] for j in range(3)) + pose[1][k] for k in range(3)]
        return out, found
    return None


def w3d_checks(g, data, path=None):
    """The problems of a W3D geometry's aabtree, subobjects and transforms
    against the walk of its own."""
    err = []
    meshes, hiers, hlods = w3d_walk(data)
    if len(meshes) != len(g["meshes"]):
        return ["%d meshes, the walk finds %d" % (len(g["meshes"]), len(meshes))]
    for m, own in zip(g["meshes"], meshes):
        t = m.get("aabtree")
        if (t is None) != (own["aabtree"] is None):
            err.append("%s: aabtree %s, the walk %s" % (m["path"], t is not None, own["aabtree"]))
        elif t:
            nn = sum(s["count"] for s in t.get("node_arrays", []))
            npi = sum(s["count"] for s in t.get("polyindex_arrays", []))
            if (nn, npi) != own["aabtree"]:
                err.append("%s: %d nodes, %d poly indices; the walk %r" % (t["path"], nn, npi, own["aabtree"]))
            if (len(t["boxes"]), len(t["leaf_first"]), len(t["leaf_count"]), len(t["polyindices"])) != \
                    (6 * nn, nn, nn, npi):
                err.append("%s: %d box floats, %d leaf_first, %d leaf_count, %d polyindices for %d nodes, %d "
                           "slots" % (t["path"], len(t["boxes"]), len(t["leaf_first"]), len(t["leaf_count"]),
                                      len(t["polyindices"]), nn, npi))
            if any(f < -1 or (f == -1 and c != 0) for f, c in zip(t["leaf_first"], t["leaf_count"])):
                err.append("%s: an internal node (leaf_first -1) with a leaf_count" % t["path"])
        want = want_transform(own, hiers, hlods, path)
        want, found = want if want else (None, None)
        from_file = found
        got = m.get("transform")
        if (got is None) != (want is None):
            err.append("%s: transform %s, expected %s" % (m["path"], got, want))
        elif got and (len(got) != 16 or any(abs(a - b) > 1e-4 * max(1, abs(b)) for a, b in zip(got, want))):
            err.append("%s: transform %s, the pivots give %s" % (m["path"], got, want))
        want = want_posed(own, hiers, hlods, path)
        if want not in (None, "skip"):
            want, from_file = want
        got = m.get("posed_positions")
        if m.get("hierarchy_file") != from_file and want != "skip":
            err.append("%s: hierarchy_file %r, expected %r" % (m["path"], m.get("hierarchy_file"), from_file))
        if want == "skip":
            pass
        elif (got is None) != (want is None):
            err.append("%s: posed_positions %s, expected %s" % (m["path"], got is not None, want is not None))
        elif got and (len(got) != len(want) or
                      any(abs(a - b) > 1e-3 * max(1, abs(b)) for a, b in zip(got, want))):
            err.append("%s: posed_positions differ from the vertices posed by their bones here" % m["path"])
    subs = [s for ok, hier, arrays in hlods for kind, ss in arrays for s in ss]
    gs = g.get("subobjects", [])
    if len(gs) != len(subs):
        err.append("%d subobjects, the walk finds %d HLOD_SUB_OBJECT chunks" % (len(gs), len(subs)))
    names = [m["name"] for m in meshes]
    for s, own in zip(gs, subs):
        want = names.index(own[2]) if own[2] and own[2] in names else -1
        if (s["bone"], s["mesh"]) != (own[1], want) or s["kind"] not in ("lod", "aggregate", "proxy"):
            err.append("subobject %s: bone %d mesh %d; the walk: bone %d, mesh %d" % (s["path"], s["bone"],
                                                                                   s["mesh"], own[1], want))
    return err


def resolves(g, cp):
    """Whether a finding at chunk path cp inside an AABTREE or at an
    HLOD_SUB_OBJECT names a node, slot, tree or sub-object of geometry g:
    None when cp is neither."""
    if "HLOD_SUB_OBJECT" in cp:
        return any(s["path"] == cp for s in g.get("subobjects", []))
    if "/AABTREE" not in cp:
        return None
    arr, idx = (cp[:cp.rindex("[")], int(cp[cp.rindex("[") + 1:-1])) if re.search(r"\[\d+\]$", cp) else (cp, -1)
    for m in g["meshes"]:
        t = m.get("aabtree")
        if not t:
            continue
        if cp in (t["path"], t.get("header_path")):
            return True
        for s in t.get("node_arrays", []) + t.get("polyindex_arrays", []):
            if s["path"] == arr and 0 <= idx < s["count"]:
                return True
    return False


def fixtures(build, out):
    """Writes OUT/aabtree-hlod.w3d (see the module's comment): the smallest
    corpus W3D file with an AABTree on a rigid mesh an HLOD places, one
    leaf box of that tree halved (Max moved to the box's centre), its first poly index made
    65535, and the first sub-object placing it moved to bone 60000.
    Returns the path, or None when the corpus has no such file."""
    corpus = os.path.join(here, "..", "..", "shared", "corpus", "w3d")
    files = sorted((os.path.getsize(os.path.join(d, f)), os.path.join(d, f)) for d, _, fs in os.walk(corpus)
                   for f in fs if f.lower().endswith(".w3d"))
    for _, path in files:
        g = json.loads(subprocess.run([os.path.join(build, "w3ddump"), "--geometry", path],
                                      capture_output=True).stdout)
        m = next((m for m in g["meshes"] if m.get("aabtree") and m.get("transform") and
                  any(x > 0 for x in m["aabtree"]["leaf_count"])), None)
        if not m:
            continue
        text = subprocess.run([os.path.join(build, "w3ddump"), "--text", path], capture_output=True,
                              text=True, errors="surrogateescape").stdout.split("\n")
        # the mesh's AABTREE_NODES and AABTREE_POLYINDICES blocks: the first
        # of each after its MESH_HEADER3's MeshName line
        mi = g["meshes"].index(m)
        starts = [i for i, ln in enumerate(text) if ln.strip() == "- chunk: MESH" or
                  ln.strip().startswith("- chunk: MESH  #")]
        at = starts[mi]
        nodes = next(i for i in range(at, len(text)) if "chunk: AABTREE_NODES" in text[i])
        polys = next(i for i in range(at, len(text)) if "chunk: AABTREE_POLYINDICES" in text[i])
        items = [i for i in range(nodes + 2, len(text)) if text[i].lstrip().startswith("- {Min:")]
        items = items[:len(m["aabtree"]["leaf_count"])]
        leaf = next(k for k, c in enumerate(m["aabtree"]["leaf_count"]) if c > 0)
        ln = text[items[leaf]]
        lo, hi = ([float(v) for v in re.search(key + r": \[([^\]]*)\]", ln).group(1).split(",")]
                  for key in ("Min", "Max"))
        half = "[%s]" % ", ".join(repr((a + b) / 2) for a, b in zip(lo, hi))
        text[items[leaf]] = re.sub(r"Max: \[[^\]]*\]", "Max: " + half, ln, count=1)
        text[polys + 1] = re.sub(r"items: \[\d+", "items: [65535", text[polys + 1], count=1)
        sub = next(s for s in g["subobjects"] if s["mesh"] == mi)
        k = [s["path"] for s in g["subobjects"]].index(sub["path"])
        bones = [i for i, ln in enumerate(text) if ln.strip().startswith("BoneIndex:")]
        text[bones[k]] = re.sub(r"BoneIndex: \d+", "BoneIndex: 60000", text[bones[k]])
        os.makedirs(out, exist_ok=True)
        txt, w3d = os.path.join(out, "aabtree-hlod.w3d.txt"), os.path.join(out, "aabtree-hlod.w3d")
        with open(txt, "w", errors="surrogateescape") as fh:
            fh.write("\n".join(text))
        subprocess.run([os.path.join(build, "w3dasm"), txt, "-o", w3d], check=True)
        os.unlink(txt)
        return w3d
    return None


def shape(m):
    """The shape problems of one mesh object."""
    err = []
    nv, rem = divmod(len(m["positions"]), 3)
    nt, trem = divmod(len(m["triangles"]), 3)
    if rem or trem:
        err.append("positions %d or triangles %d not in threes" % (len(m["positions"]), len(m["triangles"])))
    for key, per in (("normals", 3), ("uvs", 2), ("bones", 1)):
        if key in m and len(m[key]) != per * nv:
            err.append("%s: %d values for %d vertices" % (key, len(m[key]), nv))
    if "transform" in m and (len(m["transform"]) != 16 or m["transform"][3::4] != [0, 0, 0, 1]):
        err.append("transform %r is not 16 floats of an affine map" % m["transform"])
    if "face_triangles" in m:
        ft = m["face_triangles"]
        if ft[-1:] != [nt] or any(b - a not in (0, 1, 2) for a, b in zip(ft, ft[1:])):
            err.append("face_triangles do not give each face 0 to 2 of the %d triangles" % nt)
    for key, total in (("vertex_arrays", nv), ("triangle_arrays", nt)):
        at = 0
        for s in m.get(key, []):
            if s["first"] != at:
                err.append("%s: %s starts at %d, not %d" % (key, s["path"], s["first"], at))
            at += s["count"]
        if key in m and at != total:
            err.append("%s cover %d of %d" % (key, at, total))
    return err


def main():
    build = sys.argv[1]
    corpus = os.path.join(here, "..", "..", "shared", "corpus")
    if not os.path.isdir(corpus):
        print("geometry: skipped: no corpus at %s" % corpus)
        return 0
    bad = files = meshes = verts = tris = mapped = bones = 0
    w3d_stats = [0] * 6  # aabtrees, transforms, sub-objects, those naming a mesh, posed skins, from NAME.w3d
    tree_hits = [0, 0]        # findings at an AABTREE, at an HLOD_SUB_OBJECT
    placed_by_other = []      # the first W3D file placed by a hierarchy of NAME.w3d, with its geometry
    for fmt in ("w3d", "b3d", "p3d"):
        root = os.path.join(corpus, fmt)
        if not os.path.isdir(root):
            continue
        report = json.loads(subprocess.run([os.path.join(build, "w3dlint"), "--no-progress", "--show-infos",
                                            "-f", "json", root], capture_output=True).stdout)
        found = {f["path"]: f["findings"] for f in report["files"]}
        paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                       if f.lower().endswith("." + fmt))
        for path in paths:
            files += 1
            run = subprocess.run([os.path.join(build, "w3ddump"), "--geometry", path], capture_output=True)
            err = []
            try:
                g = json.loads(run.stdout)
            except ValueError:
                g = {"meshes": []}
                err.append("not one JSON document (exit %d)" % run.returncode)
            if g.get("format") != fmt:
                err.append("format %r" % g.get("format"))
            arrays = {}
            nv = nt = 0
            for m in g["meshes"]:
                meshes += 1
                err += ["%s: %s" % (m.get("path"), e) for e in shape(m)]
                nv += len(m["positions"]) // 3
                nt += len(m["triangles"]) // 3
                for key in ("vertex_arrays", "triangle_arrays", "face_arrays", "vertex_channels"):
                    for s in m.get(key, []):
                        arrays[s["path"]] = s["count"]
            if fmt == "p3d":
                model = json.loads(subprocess.run([os.path.join(build, "w3ddump"), "--json", path],
                                                  capture_output=True).stdout)["model"]
                for m in g["meshes"]:
                    k = int(m["path"][4:-1])
                    want = model["lods"][k].get("faces")
                    if len(m["face_triangles"]) - 1 != want:
                        err.append("%s: %d faces, w3ddump --json %r" % (m["path"], len(m["face_triangles"]) - 1,
                                                                     want))
            else:
                with open(path, "rb") as fh:
                    data = fh.read()
                ov, ot = own_counts(fmt, data)
                if (nv, nt) != (ov, ot):
                    err.append("%d vertices, %d triangles; the file's chunks hold %d, %d" % (nv, nt, ov, ot))
                if fmt == "w3d":
                    err += w3d_checks(g, data, path)
                    w3d_stats[0] += sum("aabtree" in m for m in g["meshes"])
                    w3d_stats[1] += sum("transform" in m for m in g["meshes"])
                    w3d_stats[4] += sum("posed_positions" in m for m in g["meshes"])
                    w3d_stats[5] += sum("hierarchy_file" in m for m in g["meshes"])
                    if any("hierarchy_file" in m for m in g["meshes"]) and not placed_by_other:
                        placed_by_other.append((path, g))
                    w3d_stats[2] += len(g.get("subobjects", []))
                    w3d_stats[3] += sum(s["mesh"] >= 0 for s in g.get("subobjects", []))
            if fmt == "b3d" and len(g.get("bone_paths", [])) != len(g.get("bone_names", [])):
                err.append("%d bone_paths for %d bone_names" % (len(g.get("bone_paths", [])),
                                                                len(g.get("bone_names", []))))
            verts += nv
            tris += nt
            rel = os.path.relpath(path, os.path.dirname(root))
            for x in found.get(os.path.join(root, os.path.relpath(path, root)), []):
                cp = x.get("chunk_path") or ""
                r = resolves(g, cp) if fmt == "w3d" else None
                if r is not None:
                    tree_hits[cp.find("/AABTREE") < 0] += 1
                    if not r:
                        err.append("finding %s at %s: no node, slot, tree or sub-object of the geometry"
                                   % (x["rule"], cp))
                if cp.endswith("]") and "[" in cp:
                    arr, idx = cp[:cp.rindex("[")], cp[cp.rindex("[") + 1:-1]
                    if fmt == "b3d" and arr.endswith("/BONE"):
                        bones += 1
                        if arr[:-5] not in g.get("bone_paths", []):
                            err.append("finding %s at %s: its NODE is not in bone_paths" % (x["rule"], cp))
                    if arr in arrays and idx.isdigit():
                        mapped += 1
                        if int(idx) >= arrays[arr]:
                            err.append("finding %s at %s: element %s past the %d the geometry holds"
                                       % (x["rule"], cp, idx, arrays[arr]))

            for e in err:
                print("geometry: FAIL: %s: %s" % (rel, e))
            bad += bool(err)
    bad += check_fixture(build)
    bad += check_archive_companion(build, placed_by_other)
    if bad:
        print("geometry: FAIL: %d of %d files and the fixture" % (bad, files))
        return 1
    print("geometry: ok: %d W3D, B3D and P3D files, %d meshes or LODs, %d vertices and %d triangles (W3D, B3D: "
          "equal to the files' own chunks; P3D faces: to the dump's), %d findings at a vertex, triangle or face "
          "found in the geometry, %d B3D weight findings whose bone NODE is in bone_paths"
          % (files, meshes, verts, tris, mapped, bones))
    print("geometry: ok: W3D: %d aabtrees, %d meshes placed by a transform, %d skins posed by their bones (%d meshes "
          "by a hierarchy of NAME.w3d beside the file), %d HLOD sub-objects (%d naming a mesh of the file) equal to the "
          "walk's; %d findings at an AABTREE and %d at an HLOD sub-object resolve"
          % (w3d_stats[0], w3d_stats[1], w3d_stats[4], w3d_stats[5], w3d_stats[2], w3d_stats[3], tree_hits[0],
             tree_hits[1]))
    return 0


def check_archive_companion(build, placed):
    """The first corpus file placed by a hierarchy of NAME.w3d beside it,
    and that file, packed in a BIG archive (the hierarchy's file name in
    upper case): its geometry read as "ARCHIVE:ENTRY" must be the same,
    placed by the entry "ARCHIVE:DIR/NAME.W3D"."""
    if not placed:
        print("geometry: FAIL: no corpus W3D file is placed by a hierarchy of NAME.w3d beside it")
        return 1
    path, g = placed[0]
    other = next(m["hierarchy_file"] for m in g["meshes"] if "hierarchy_file" in m)
    with tempfile.TemporaryDirectory() as tmp:
        names = ["Art/W3D/" + os.path.basename(path), "Art/W3D/" + os.path.basename(other).upper()]
        subprocess.run([os.path.join(build, "tool_mkarchive"), "bigf", os.path.join(tmp, "mod.big"),
                        names[0] + "=" + path, names[1] + "=" + other], check=True)
        item = os.path.join(tmp, "mod.big") + ":" + names[0]
        a = json.loads(subprocess.run([os.path.join(build, "w3ddump"), "--geometry", item],
                                      capture_output=True).stdout)
    want = os.path.join(tmp, "mod.big") + ":" + names[1]
    err = []
    for m, n in zip(a["meshes"], g["meshes"]):
        for k in ("transform", "posed_positions"):
            if m.get(k) != n.get(k):
                err.append("%s: %s differs from the file's" % (m["path"], k))
        if ("hierarchy_file" in m) != ("hierarchy_file" in n) or m.get("hierarchy_file", want) != want:
            err.append("%s: hierarchy_file %r, expected %r" % (m["path"], m.get("hierarchy_file"), want))
    if err or len(a["meshes"]) != len(g["meshes"]):
        print("geometry: FAIL: %s in a BIG archive: %s" % (os.path.basename(path), "; ".join(err[:3]) or "meshes"))
        return 1
    print("geometry: ok: %s and %s in a BIG archive: the entry placed by the entry beside it, as the files are "
          "(%d meshes)" % (os.path.basename(path), os.path.basename(names[1]), len(a["meshes"])))
    return 0


def check_fixture(build):
    """Checks the fixture (fixtures()) like a corpus file and that its
    three findings resolve; returns 1 on a problem, else 0."""
    with tempfile.TemporaryDirectory() as tmp:
        path = fixtures(build, tmp)
        if not path:
            print("geometry: FAIL: the corpus has no W3D file with an AABTree on a mesh an HLOD places")
            return 1
        report = json.loads(subprocess.run([os.path.join(build, "w3dlint"), "--no-progress", "-f", "json", path],
                                           capture_output=True).stdout)
        g = json.loads(subprocess.run([os.path.join(build, "w3ddump"), "--geometry", path],
                                      capture_output=True).stdout)
        with open(path, "rb") as fh:
            err = w3d_checks(g, fh.read(), path)
        for m in g["meshes"]:
            err += ["%s: %s" % (m["path"], e) for e in shape(m)]
        hits = {}
        for x in report["files"][0]["findings"]:
            r = resolves(g, x.get("chunk_path") or "")
            if r is False:
                err.append("finding %s at %s: no node, slot, tree or sub-object" % (x["rule"], x["chunk_path"]))
            elif r:
                hits.setdefault(x["rule"], x["chunk_path"])
        for rule in ("aabtree-box-too-small", "aabtree-polyindex-out-of-range", "hlod-bone-index-out-of-range"):
            if rule not in hits:
                err.append("no %s finding to resolve" % rule)
        for e in err:
            print("geometry: FAIL: fixture: %s" % e)
        if not err:
            print("geometry: ok: fixture %s (w3ddump --text, edited, w3dasm): %s" % (
                os.path.basename(path), ", ".join("%s at %s" % kv for kv in sorted(hits.items()))))
        return bool(err)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fixtures"]:
        made = fixtures(sys.argv[2], sys.argv[3])
        print(made or "")
        sys.exit(0 if made else 1)
    sys.exit(main())
