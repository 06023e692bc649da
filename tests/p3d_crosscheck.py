#!/usr/bin/env python3
"""p3d_crosscheck.py W3DDUMP: a second ODOL decoder, independent of
core/p3d, checks the decoded model of w3ddump --json (issue 31).

For every ODOL file of ../shared/corpus it reads the header itself (magic,
version, [v>=75 two reserved u32], [v>=59 appID], [v>=58 asciiz prefix],
u32 nLods, float resolution[nLods]) and, at each LOD start the dump gives,
the LOD head (proxies: i32 n, {asciiz, 12 floats, i32 seq, sel, bone,
[v>=40 i32 section]}; u32 n + u32[n]; u32 n + {u32 k + u32[k]}[n];
[v>=50 u32 vertexCount | below: the clip flags, a condensed array of one
u32 per vertex]; [v>=51 float area]; 2 x i32; 10 floats; u32 nTextures +
asciiz[nTextures]), then walks the rest of the LOD to its end (lod_body:
materials, edges, faces, sections, named selections, properties, frames,
sizeOfRestData, clip flags, UV sets, positions, normals, ST, bone refs).
Layout from arma-file-formats-rs p3d/lod.rs, jetelain/bis-file-formats
BIS.P3D/ODOL and the BI wiki ODOL page (no code copied); compressed
arrays through the tests' own decoders (bi_lzss.py below v44, lzo1x.py
from v44), which find where a stream ends: ODOL stores no compressed
length.

It compares with the dump: the LOD count, every resolution (bits), and
per walked LOD the proxy count and paths, the point count (the head's
vertexCount, or the clip flags' count below v50, and the position
array's count), the face count, the section count, the normals' count,
the texture count, the material count, the texture names (the LOD's list,
then the material stages'), the material names (the materials', then the
sections'), each named selection's name and point and face counts, the
named properties, and where the walk ends: it must be the LOD's end the
dump gives (from the LOD table).  Names are compared when 4 bytes or more
(the ones the reader keeps); names that are not printable ASCII are
compared by count only.  Within the file it also checks that the clip
flags, every UV set and the ST coordinates (when present) have the
position array's count, and sizeOfRestData (below v68 it counts its own
4 bytes, from v68 not, nor the LOD's last byte: as measured on every
corpus LOD).  Exit 1 on any difference; skipped with one line without the
corpus.  The LOD starts come from the dump (locating the LOD table needs
the ModelInfo walk); a start the dump got wrong shows as a head that does
not decode here.

Not met in the corpus, so not proven by it: material versions other than
10, 11 and 16 (3 to 9: the readers differ on the transforms below 9; this
decoder follows arma-file-formats-rs), a section with a material name of
its own (index -1), a v67+ section's matrix (12 floats here as in
arma-file-formats-rs and core/p3d; jetelain reads 11) and an array
compressed with BI LZSS (every v40 array is under 1024 bytes or filled)."""
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bi_lzss  # noqa: E402  (arrays below v44)
import lzo1x  # noqa: E402  (the compressed arrays: a decoder of its own)


class Short(Exception):
    pass


class Reader:
    def __init__(self, b, pos):
        self.b, self.pos = b, pos

    def take(self, n):
        if n < 0 or self.pos + n > len(self.b):
            raise Short()
        s = self.b[self.pos:self.pos + n]
        self.pos += n
        return s

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def asciiz(self):
        z = self.b.find(b"\0", self.pos)
        if z < 0:
            raise Short()
        s = self.b[self.pos:z]
        self.pos = z + 1
        return s


def header(b):
    r = Reader(b, 4)
    v = r.u32()
    if v >= 75:
        r.take(8)
    if v >= 59:
        r.take(4)
    if v >= 58:
        r.asciiz()
    n = r.u32()
    res = [r.take(4) for _ in range(n)]
    return v, n, res


def lod_head(b, start, v):
    r = Reader(b, start)
    nprox = r.u32()
    if nprox > len(b):
        raise Short()
    paths = []
    for _ in range(nprox):
        paths.append(r.asciiz())
        r.take(48 + 4 * 4 + (4 if v >= 40 else 0) - 4)
    r.take(4 * r.u32())
    for _ in range(r.u32()):
        r.take(4 * r.u32())
    if v >= 50:
        points = r.u32()
    else:
        points = condensed(r, v, 4)  # the clip flags: one per vertex
    if v >= 51:
        r.take(4)
    r.take(8 + 40)
    nt = r.u32()
    if nt > len(b):
        raise Short()
    return paths, points, [r.asciiz() for _ in range(nt)], r.pos


class Unknown(Exception):
    """A layout this decoder does not know (its LOD is not compared)."""


def material(r):
    """One embedded material: asciiz name, u32 version mv, 6 RGBA
    colours, the specular power (DayZ's version 16: 60 bytes there), 4 ids,
    [mv 3: u8], [mv >= 6: asciiz surface], [mv >= 4: 2 x u32], [mv > 6:
    u32 stages], [mv > 8: u32 transforms], the stages ([mv >= 5: u32]
    asciiz texture [mv >= 8: u32] [mv >= 11: u8]), the transforms (u32 and
    12 floats), [mv >= 10: one more stage].  Layout from
    arma-file-formats-rs p3d/lod.rs (LodMaterial) and
    ../shared/notes/p3d_reference.md; version 16 as measured on the
    corpus (core/p3d/p3d_lod.c's note).  Returns the name and the stages'
    textures, in file order."""
    name = r.asciiz()
    mv = r.u32()
    if mv > 11 and mv != 16:
        raise Unknown("material version %d" % mv)
    STATS["material v%d" % mv] = STATS.get("material v%d" % mv, 0) + 1
    r.take(6 * 16 + (60 if mv == 16 else 4) + 16)
    if mv == 3:
        r.take(1)
    if mv >= 6:
        r.asciiz()
    if mv >= 4:
        r.take(8)
    stages = r.u32() if mv > 6 else 0
    xforms = r.u32() if mv > 8 else 0
    if stages > 64 or xforms > 64:
        raise Short()
    tex = []

    def stage():
        if mv >= 5:
            r.take(4)
        tex.append(r.asciiz())
        if mv >= 8:
            r.take(4)
        if mv >= 11:
            r.take(1)
    for _ in range(stages):
        stage()
    r.take(52 * xforms)
    if mv >= 10:
        stage()
    return name, tex


STATS = {}  # what the walk met: material versions, compressed blocks


def condensed(r, v, elem):
    """Skips a condensed array (u32 n; u8 fill; fill: one element, else the
    n elements as a compressible array without a second count: the layout
    of arma-file-formats-rs CondensedArray); returns n."""
    n = r.u32()
    if r.take(1)[0]:
        r.take(elem)
        return n
    block(r, v, n * elem)
    return n


def block(r, v, size):
    """Skips size bytes of a compressible array's data (see array())."""
    if size == 0:
        return
    if size > 1 << 28:
        raise Short()
    packed = (r.take(1)[0] != 0) if v >= 64 else size >= 1024
    if not packed:
        r.take(size)
        return
    kind = "LZSS" if v < 44 else "LZO1X"
    try:
        if v < 44:
            _, used = bi_lzss.decode(r.b, r.pos, size)
        else:
            _, used = lzo1x.decompress(r.b, r.pos, size)
    except (bi_lzss.LzssError, lzo1x.LzoError):
        raise Short()
    STATS[kind] = STATS.get(kind, 0) + 1
    r.pos += used


def array(r, v, elem):
    """Skips a compressible array (u32 n; n x elem bytes): stored raw, or
    (v >= 64: when its flag byte is not 0; before: when it holds 1024 bytes
    or more) compressed with no stored length - BI LZSS below v44, LZO1X
    from v44 - which bi_lzss.py / lzo1x.py decode to find its end (BI wiki
    "Compressed LZSS File Format", "Compressed LZO File Format")."""
    n = r.u32()
    block(r, v, n * elem)
    return n


def lod_body(b, at, v):
    """Walks the LOD from the end of its textures (at) to its end and
    returns what it counted (a dict).  Layout from arma-file-formats-rs
    p3d/lod.rs (Lod, LodSection, LodNameSelection, UVSet, LodFrame) and
    jetelain/bis-file-formats BIS.P3D/ODOL (LOD.cs, Section.cs,
    NamedSelection.cs):
      materials   u32 n, material[n]
      edges       two index arrays (vertex indices: u16 below v69, u32
                  from v69)
      faces       u32 n, u32 allocation, u16 0, {u8 k; index[k]}[n]: the
                  allocation must equal the faces' bytes, (1 + k) x index
                  size each
      sections    u32 n, {5 x u32, i16, u32, i32 material [-1: asciiz],
                  [v >= 36: u32 k, float[k]], [v >= 67: i32 f, f >= 1: 12
                  floats]}
      selections  u32 n, {asciiz, index array (faces), u32, u8, i32 array,
                  index array (points), u8 array (weights)}
      properties  u32 n, {asciiz, asciiz}
      frames      u32 n, {float, u32 k, 3 floats x k}
      u32 x 3, u8, u32 sizeOfRestData
      [v >= 50: clip flags, condensed, 4 bytes], UV set, u32 nUV, UV
      set[nUV - 1] (UV set: [v >= 45: 4 floats], u32 n, u8 fill, fill: one
      value, else n values; a value 4 bytes from v45, 8 before)
      positions (array, 12), normals (condensed, 4 from v45, 12 before),
      ST (array, 8 from v45, 24 before), bone refs (array, 12), neighbour
      bone refs (array, 32), [v >= 67: u32], [v >= 68: u8]."""
    r = Reader(b, at)
    f = {}
    isz = 4 if v >= 69 else 2
    nm = r.u32()
    if nm > 4096:
        raise Short()
    f["material_count"] = nm
    f["materials"], f["stage_textures"] = [], []
    for _ in range(nm):
        name, tex = material(r)
        f["materials"].append(name)
        f["stage_textures"] += tex
    array(r, v, isz)
    array(r, v, isz)
    n = r.u32()
    alloc = r.u32()
    r.take(2)
    total = 0
    for _ in range(n):
        k = r.take(1)[0]
        r.take(k * isz)
        total += (1 + k) * isz
    if total != alloc:
        raise Short()
    f["faces"] = n
    ns = r.u32()
    if ns > len(b):
        raise Short()
    f["sections"] = ns
    f["section_materials"] = []
    for _ in range(ns):
        r.take(5 * 4 + 2 + 4)
        if struct.unpack("<i", r.take(4))[0] == -1:
            f["section_materials"].append(r.asciiz())
        if v >= 36:
            r.take(4 * r.u32())
        if v >= 67 and struct.unpack("<i", r.take(4))[0] >= 1:
            STATS["section matrix"] = STATS.get("section matrix", 0) + 1
            r.take(48)
    nsel = r.u32()
    if nsel > len(b):
        raise Short()
    f["selections"] = []
    for _ in range(nsel):
        name = r.asciiz()
        sf = array(r, v, isz)
        r.take(4 + 1)
        array(r, v, 4)
        sp = array(r, v, isz)
        array(r, v, 1)
        f["selections"].append((name, sp, sf))
    nprop = r.u32()
    if nprop > len(b):
        raise Short()
    f["properties"] = [(r.asciiz(), r.asciiz()) for _ in range(nprop)]
    for _ in range(r.u32()):
        r.take(4)
        r.take(12 * r.u32())
    r.take(3 * 4 + 1)
    rest = r.u32()
    rest_at = r.pos
    f["clip"] = condensed(r, v, 4) if v >= 50 else None
    uv = [uv_set(r, v)]
    nuv = r.u32()
    if nuv > 256:
        raise Short()
    uv += [uv_set(r, v) for _ in range(nuv - 1)]
    f["uv"] = uv
    f["positions"] = array(r, v, 12)
    f["normals"] = condensed(r, v, 4 if v >= 45 else 12)
    f["st"] = array(r, v, 8 if v >= 45 else 24)
    array(r, v, 12)
    array(r, v, 32)
    if v >= 67:
        r.take(4)
    f["rest"] = (rest, r.pos - rest_at)
    if v >= 68:
        r.take(1)
    f["end"] = r.pos
    return f


def uv_set(r, v):
    """One UV set (see lod_body); returns its value count."""
    if v >= 45:
        r.take(16)
    n = r.u32()
    size = 4 if v >= 45 else 8
    if r.take(1)[0]:
        r.take(size)
    else:
        block(r, v, n * size)
    return n


def escaped(s):
    """s in the form of core/escape.h for printable ASCII (a backslash
    doubled), or None for other bytes (compared by count only)."""
    if not all(32 <= c < 127 for c in s):
        return None
    return s.decode("ascii").replace("\\", "\\\\")


def names(mine, dumped, what, err, i):
    """Compares a list of names read here (the ones of 4 bytes or more:
    the reader keeps those) with the dump's; returns how many were
    compared.  Names that are not printable ASCII count but are not
    compared."""
    kept = [t for t in mine if len(t) >= 4]
    if len(kept) != len(dumped):
        err.append("LOD %d %d %s, dump %d" % (i, len(kept), what, len(dumped)))
        return 0
    for k, (t, d) in enumerate(zip(kept, dumped)):
        if escaped(t) is not None and escaped(t) != d:
            err.append("LOD %d %s %d %r, dump %r" % (i, what, k, t, d))
    return len(kept)


def compare_body(f, l, i, points, v, err):
    """The figures of lod_body() against the dump's LOD l (the head's
    point count: points)."""
    def same(what, mine, dumped):
        if mine != dumped:
            err.append("LOD %d %s %r, dump %r" % (i, what, mine, dumped))
    same("ends at", f["end"], l["end"])
    same("faces", f["faces"], l.get("faces"))
    same("sections", f["sections"], l.get("sections"))
    same("points (position array)", f["positions"], l["points"])
    same("normals", f["normals"], l.get("normals"))
    same("material count", f["material_count"], l["material_count"])
    # Within the file: every per-vertex array has the head's point count.
    if points is not None:
        same("points (position array) against the head's", f["positions"], points)
    if f["clip"] is not None:
        same("clip flags", f["clip"], f["positions"])
    for k, n in enumerate(f["uv"]):
        same("UV set %d values" % k, n, f["positions"])
    if f["st"] not in (0, f["positions"]):
        same("ST coordinates", f["st"], f["positions"])
    # sizeOfRestData: measured in the corpus, below v68 it counts its own
    # 4 bytes, from v68 not (nor the LOD's last byte: see lod_body).
    rest, walked = f["rest"]
    same("sizeOfRestData", rest, walked + (4 if v < 68 else 0))
    sels = l["selections"]
    if len(f["selections"]) != len(sels):
        same("selections", len(f["selections"]), len(sels))
    else:
        for k, ((name, sp, sf), d) in enumerate(zip(f["selections"], sels)):
            if escaped(name) is not None and escaped(name) != d["name"]:
                same("selection %d name" % k, name, d["name"])
            same("selection %d points" % k, sp, d["points"])
            same("selection %d faces" % k, sf, d["faces"])
    props = l["properties"]
    if not isinstance(props, list) or len(props) != len(f["properties"]):
        same("properties", len(f["properties"]), props if not isinstance(props, list) else len(props))
    else:
        for k, ((a, b), d) in enumerate(zip(f["properties"], props)):
            if None not in (escaped(a), escaped(b)) and (escaped(a), escaped(b)) != (d["name"], d["value"]):
                same("property %d" % k, (a, b), (d["name"], d["value"]))
    return len(sels), len(props) if isinstance(props, list) else 0


def main():
    dump = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = os.path.join(root, "..", "shared", "corpus")
    if not os.path.isdir(corpus):
        print("p3d_crosscheck: skipped: no corpus at %s" % corpus)
        return 0
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
                   if f.lower().endswith(".p3d"))
    bad = odol = lods = texs = mats = faced = faces = points = sels = props = 0
    unknown = {}
    by_version = {}  # version: [files, LODs walked to their end]
    for path in files:
        b = open(path, "rb").read()
        if b[:4] != b"ODOL":
            continue
        odol += 1
        m = json.loads(subprocess.run([dump, "--json", path], capture_output=True,
                                      check=True).stdout)["model"]
        v = m["version"]
        seen = by_version.setdefault(v, [0, 0])
        seen[0] += 1
        err = []
        try:
            hv, n, res = header(b)
        except Short:
            err.append("header does not decode")
            hv, n, res = 0, None, []
        if n != m["lod_count"]:
            err.append("LOD count %r, dump %r" % (n, m["lod_count"]))
        for i, l in enumerate(m["lods"]):
            if i < len(res):
                mine = struct.unpack("<f", res[i])[0]
                if isinstance(l["resolution"], float) or isinstance(l["resolution"], int):
                    if struct.pack("<f", l["resolution"]) != res[i]:
                        err.append("LOD %d resolution %r, dump %r" % (i, mine, l["resolution"]))
            if not l["walked"]:
                continue
            try:
                paths, npts, tex, tex_end = lod_head(b, l["start"], v)
                nprox = len(paths)
            except Short:
                err.append("LOD %d head does not decode at %d" % (i, l["start"]))
                continue
            lods += 1
            if nprox != len(l["proxies"]):
                err.append("LOD %d proxies %d, dump %d" % (i, nprox, len(l["proxies"])))
            else:
                for k, (p, d) in enumerate(zip(paths, l["proxies"])):
                    if escaped(p) is not None and escaped(p) != d["path"]:
                        err.append("LOD %d proxy %d path %r, dump %r" % (i, k, p, d["path"]))
            if npts != l["points"]:  # vertexCount, or the clip flags' count below v50
                err.append("LOD %d points %d, dump %r" % (i, npts, l["points"]))
            if len(tex) != l["texture_count"]:
                err.append("LOD %d %d textures, dump %r" % (i, len(tex), l["texture_count"]))
            try:
                f = lod_body(b, tex_end, v)
            except Unknown as e:
                unknown[str(e)] = unknown.get(str(e), 0) + 1
                texs += names(tex, l["textures"][:len([t for t in tex if len(t) >= 4])],
                              "texture names", err, i)
                continue
            except Short:
                err.append("LOD %d does not decode after the textures at %d" % (i, tex_end))
                continue
            faced += 1
            seen[1] += 1
            faces += f["faces"]
            points += f["positions"]
            # The dump's textures: the LOD's list, then the material
            # stages'; its materials: the materials' names, then the
            # sections'.
            texs += names(tex + f["stage_textures"], l["textures"], "texture names", err, i)
            mats += names(f["materials"] + f["section_materials"], l["materials"],
                          "material names", err, i)
            ns, np_ = compare_body(f, l, i, npts, v, err)
            sels += ns
            props += np_
        for e in err:
            print("p3d_crosscheck: FAIL: %s: %s" % (path, e))
        bad += bool(err)
    if bad:
        print("p3d_crosscheck: FAIL: %d of %d ODOL files differ" % (bad, odol))
        return 1
    print("p3d_crosscheck: ok: %d ODOL files (LOD count, resolutions), %d LODs (proxies, point "
          "counts, textures) agree with the dump; %d LODs walked here to the dump's LOD end: "
          "%d faces, %d points (position arrays), %d texture and %d material names, "
          "%d named selections, %d named properties, sections, normals agree; "
          "by version (files/LODs walked): %s; compressed blocks decoded: %s%s"
          % (odol, lods, faced, faces, points, texs, mats, sels, props,
             ", ".join("v%d %d/%d" % (k, a, c) for k, (a, c) in sorted(by_version.items())),
             ", ".join("%s %d" % (k, STATS[k]) for k in ("LZSS", "LZO1X") if k in STATS) or "none",
             "".join("; not decoded here: %s (%d LODs)" % kv for kv in sorted(unknown.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
