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
asciiz[nTextures]), then the embedded materials, the two edge arrays and
the faces (lod_faces).  Layout from arma-file-formats-rs p3d/lod.rs and
the BI wiki ODOL page (no code copied); compressed arrays through the
tests' own decoders (bi_lzss.py below v44, lzo1x.py from v44).  It
compares: the LOD count, every resolution (bits), per walked LOD the proxy
count and paths, the point count (vertexCount, or the clip flags' count
below v50), the face count, the texture count and the texture names of 4
bytes or more (the ones the reader keeps: the dump's first names, material
stages' textures following them).  Names that are not printable ASCII are
compared by count only.  Exit 1 on any difference; skipped with one line
without the corpus.  The LOD starts come from the dump (locating the LOD
table needs the ModelInfo walk); a start the dump got wrong shows as a head
that does not decode here."""
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
    """Skips one embedded material: asciiz name, u32 version mv, 6 RGBA
    colours, the specular power (DayZ's version 16: 60 bytes there), 4 ids,
    [mv 3: u8], [mv >= 6: asciiz surface], [mv >= 4: 2 x u32], [mv > 6:
    u32 stages], [mv > 8: u32 transforms], the stages ([mv >= 5: u32]
    asciiz texture [mv >= 8: u32] [mv >= 11: u8]), the transforms (u32 and
    12 floats), [mv >= 10: one more stage].  Layout from
    arma-file-formats-rs p3d/lod.rs (LodMaterial) and
    ../shared/notes/p3d_reference.md; version 16 as measured on the
    corpus (core/p3d/p3d_lod.c's note)."""
    r.asciiz()
    mv = r.u32()
    if mv > 11 and mv != 16:
        raise Unknown("material version %d" % mv)
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

    def stage():
        if mv >= 5:
            r.take(4)
        r.asciiz()
        if mv >= 8:
            r.take(4)
        if mv >= 11:
            r.take(1)
    for _ in range(stages):
        stage()
    r.take(52 * xforms)
    if mv >= 10:
        stage()


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
    try:
        if v < 44:
            _, used = bi_lzss.decode(r.b, r.pos, size)
        else:
            _, used = lzo1x.decompress(r.b, r.pos, size)
    except (bi_lzss.LzssError, lzo1x.LzoError):
        raise Short()
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


def lod_faces(b, at, v):
    """The face count of the LOD whose textures end at at: the materials
    (u32 n, material[n]), the two edge arrays (vertex indices: u16 below
    v69, u32 from v69), then u32 face count, u32 allocation, u16 0 and the
    faces ({u8 k; index[k]}), each walked to check the count reads true:
    the allocation must equal the faces' bytes as the engine lays them out,
    (1 + k) x index size each."""
    r = Reader(b, at)
    isz = 4 if v >= 69 else 2
    nm = r.u32()
    if nm > 4096:
        raise Short()
    for _ in range(nm):
        material(r)
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
    return n


def escaped(s):
    """s in the form of core/escape.h for printable ASCII (a backslash
    doubled), or None for other bytes (compared by count only)."""
    if not all(32 <= c < 127 for c in s):
        return None
    return s.decode("ascii").replace("\\", "\\\\")


def main():
    dump = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    corpus = os.path.join(root, "..", "shared", "corpus")
    if not os.path.isdir(corpus):
        print("p3d_crosscheck: skipped: no corpus at %s" % corpus)
        return 0
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(corpus) for f in fs
                   if f.lower().endswith(".p3d"))
    bad = odol = lods = texs = old = faced = faces = 0
    unknown = {}
    for path in files:
        b = open(path, "rb").read()
        if b[:4] != b"ODOL":
            continue
        odol += 1
        m = json.loads(subprocess.run([dump, "--json", path], capture_output=True,
                                      check=True).stdout)["model"]
        err = []
        try:
            v, n, res = header(b)
        except Short:
            err.append("header does not decode")
            v, n, res = 0, None, []
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
            if m["version"] < 50:
                old += 1  # the clip flags' count stands for the point count
            try:
                paths, points, tex, tex_end = lod_head(b, l["start"], m["version"])
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
            if points is not None and points != l["points"]:
                err.append("LOD %d points %d, dump %r" % (i, points, l["points"]))
            if len(tex) != l["texture_count"]:
                err.append("LOD %d %d textures, dump %r" % (i, len(tex), l["texture_count"]))
            try:
                nf = lod_faces(b, tex_end, m["version"])
                faced += 1
                faces += nf
                if nf != l.get("faces"):
                    err.append("LOD %d faces %d, dump %r" % (i, nf, l.get("faces")))
            except Unknown as e:
                unknown[str(e)] = unknown.get(str(e), 0) + 1
            except Short:
                err.append("LOD %d faces do not decode after the textures at %d" % (i, tex_end))
            kept = [t for t in tex if len(t) >= 4]  # the reader keeps these
            dt = l["textures"][:len(kept)]
            if len(dt) != len(kept):
                err.append("LOD %d %d texture names, dump %d" % (i, len(kept), len(l["textures"])))
                continue
            for k, (t, d) in enumerate(zip(kept, dt)):
                texs += 1
                if escaped(t) is not None and escaped(t) != d:
                    err.append("LOD %d texture %d %r, dump %r" % (i, k, t, d))
        for e in err:
            print("p3d_crosscheck: FAIL: %s: %s" % (path, e))
        bad += bool(err)
    if bad:
        print("p3d_crosscheck: FAIL: %d of %d ODOL files differ" % (bad, odol))
        return 1
    print("p3d_crosscheck: ok: %d ODOL files (LOD count, resolutions), %d LODs (proxies, points, "
          "textures), %d texture names, %d LODs' face counts (%d faces) agree with the dump; "
          "%d of those LODs below v50 (points: the clip flags' count)%s"
          % (odol, lods, texs, faced, faces, old,
             "".join("; not decoded here: %s (%d LODs)" % kv for kv in sorted(unknown.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
