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
   bone_paths: what the page highlights exists.
Exit 1 on any difference; skipped with one line without the corpus."""
import json
import os
import struct
import subprocess
import sys

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
                    ov, ot = own_counts(fmt, fh.read())
                if (nv, nt) != (ov, ot):
                    err.append("%d vertices, %d triangles; the file's chunks hold %d, %d" % (nv, nt, ov, ot))
            if fmt == "b3d" and len(g.get("bone_paths", [])) != len(g.get("bone_names", [])):
                err.append("%d bone_paths for %d bone_names" % (len(g.get("bone_paths", [])),
                                                                len(g.get("bone_names", []))))
            verts += nv
            tris += nt
            rel = os.path.relpath(path, os.path.dirname(root))
            for x in found.get(os.path.join(root, os.path.relpath(path, root)), []):
                cp = x.get("chunk_path") or ""
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
    if bad:
        print("geometry: FAIL: %d of %d files" % (bad, files))
        return 1
    print("geometry: ok: %d W3D, B3D and P3D files, %d meshes or LODs, %d vertices and %d triangles (W3D, B3D: "
          "equal to the files' own chunks; P3D faces: to the dump's), %d findings at a vertex, triangle or face "
          "found in the geometry, %d B3D weight findings whose bone NODE is in bone_paths"
          % (files, meshes, verts, tris, mapped, bones))
    return 0


if __name__ == "__main__":
    sys.exit(main())
