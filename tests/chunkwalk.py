#!/usr/bin/env python3
"""chunkwalk.py - an independent walk of W3D and B3D chunk headers, for the
salvage test (tests/salvage.sh), written from the format notes
(../shared/notes/w3d_reference.md §1, b3d_reference.md, the B3D spec in
../shared/seeds), not from the project's reader.

W3D: a chunk is id (u32 LE), size (u32 LE, bit 31 = "holds chunks"),
payload.  The objects the engines load are the top-level chunks; the arrays
they load are the data chunks of a top-level container (bit 31 set).
B3D: a chunk is a 4-byte ASCII tag, size (u32 LE), payload.  The file is
one BB3D (4-byte version, then chunks); the objects are BB3D's children
(NODE, TEXS, BRUS); a NODE holds its name (NUL-terminated), 40 bytes of
transform, then chunks (NODE, MESH, BONE, KEYS, ANIM); a MESH holds a
4-byte brush id, then VRTS and TRIS.  The arrays are the VRTS and TRIS of
the MESHes.

A walk yields items (kind, offset, end): kind "object" or "array"; the
chunk's bytes are data[offset:end].  A chunk whose size does not fit its
parent ends the walk of that parent (the walk trusts nothing past it).

Usage (salvage.sh):
  chunkwalk.py check FORMAT CASES IN_DIR OUT_DIR BASE_DIR STATUS [MODE]
    CASES: lines "NAME<TAB>ORIG<TAB>DAMAGE" (DAMAGE "cut OFFSET" or
    "size OFFSET DELTA": the size field of the chunk whose header is at
    OFFSET changed by DELTA; "del OFFSET N" / "ins OFFSET N": N bytes
    deleted / inserted at OFFSET; "zero OFFSET N": N bytes zeroed;
    "swap A B N": the N bytes at A and at B swapped - for these four only
    the objects are checked, the damaged object's arrays may be trimmed,
    and the copies an output must hold are those of the damaged file); ORIG is the undamaged file, BASE_DIR/NAME0 its
    w3dfix --unsafe output (ORIG's base name with '/' as '~'), OUT_DIR/NAME
    the output of the damaged IN_DIR/NAME, STATUS lines "NAME<TAB>EXIT<TAB>REASON".
    An item is intact when its bytes lie wholly outside the damage (before
    the cut; not the changed header; for a cut W3D file only the top-level
    objects: the loader reads nothing of a cut object, whose arrays the
    salvage makes agree) and it is kept as it is by the repair
    of the undamaged file (its bytes occur in the base output).  A case
    passes when every intact item occurs in the output as many times as in
    the base output (at most as many times as in the damaged file: a cut
    file holds no copy past the cut), or w3dfix exited non-zero with a reason and wrote the
    damaged file unchanged.  Prints one line per failing case, per damage
    kind the cases, the outputs written (not the damaged file unchanged)
    that lack an intact item and the refusals (MODE, "--unsafe" or "safe",
    labels them), and the per-format figures; exits 1 when fewer than SALVAGE_INTACT_MIN percent
    of the cases pass (default 100).
"""
import os
import struct
import sys

W3D_CONTAINER = 0x80000000


def w3d_walk(data):
    items = []
    pos, n = 0, len(data)
    while pos + 8 <= n:
        cid, raw = struct.unpack_from('<II', data, pos)
        size = raw & 0x7FFFFFFF
        end = pos + 8 + size
        if end > n:
            break
        items.append(('object', pos, end, cid))
        if raw & W3D_CONTAINER:
            q = pos + 8
            while q + 8 <= end:
                kid, kraw = struct.unpack_from('<II', data, q)
                kend = q + 8 + (kraw & 0x7FFFFFFF)
                if kend > end:
                    break
                if not kraw & W3D_CONTAINER and kraw & 0x7FFFFFFF:
                    items.append(('array', q, kend, kid))
                q = kend
        pos = end
    return items


def b3d_children(data, start, end, items, depth):
    pos = start
    while pos + 8 <= end and depth < 64:
        tag = data[pos:pos + 4]
        size = struct.unpack_from('<I', data, pos + 4)[0]
        cend = pos + 8 + size
        if cend > end:
            return
        if depth == 1:
            items.append(('object', pos, cend, tag))
        if tag == b'NODE':
            z = data.find(b'\0', pos + 8, cend)
            if z >= 0 and z + 41 <= cend:
                b3d_children(data, z + 41, cend, items, depth + 1)
        elif tag == b'MESH':
            b3d_children(data, pos + 12, cend, items, depth + 1)
        elif tag in (b'VRTS', b'TRIS') and size:
            items.append(('array', pos, cend, tag))
        pos = cend


def b3d_walk(data):
    items = []
    if data[:4] != b'BB3D' or len(data) < 12:
        return items
    size = struct.unpack_from('<I', data, 4)[0]
    b3d_children(data, 12, min(len(data), 8 + size), items, 1)
    return items


# --- P3D (MLOD) -------------------------------------------------------
# Written from the MLOD layout in ../shared/notes/p3d_reference.md (BI wiki
# "P3D File Format - MLOD", "P3D Lod Faces"), not from core/p3d/: "MLOD",
# u32 version, u32 LOD count, then per LOD a 4-byte signature P3DM (Arma)
# or SP3X (OFP), u32 major, minor, points, normals, faces, flags; points of
# 16 bytes, normals of 12; P3DM faces of 72 bytes then texture and material
# names (NUL-terminated), SP3X faces a 32-byte texture name then 72 bytes;
# "TAGG" and tags (P3DM: active byte, NUL-terminated name; SP3X: 64-byte
# name; then u32 size and data) up to the one named #EndOfFile#; a 4-byte
# resolution.  The objects are the LODs; ODOL (binarised) files have none
# here (they are read-only: the check wants them unchanged).


def mlod_lod_end(data, off):
    """The end of the MLOD LOD at off, or None when it does not read whole."""
    n = len(data)
    sig = data[off:off + 4]
    if sig not in (b'P3DM', b'SP3X') or off + 28 > n:
        return None
    sp3x = sig == b'SP3X'
    points, normals, faces = struct.unpack_from('<III', data, off + 12)
    pos = off + 28 + 16 * points + 12 * normals
    for _ in range(faces):
        if pos > n:
            return None
        if sp3x:
            pos += 32 + 72
            continue
        pos += 72
        for _name in range(2):
            z = data.find(b'\0', pos) if pos <= n else -1
            if z < 0:
                return None
            pos = z + 1
    if pos > n or data[pos:pos + 4] != b'TAGG':
        return None
    pos += 4
    while True:
        if sp3x:
            name = data[pos:pos + 64].split(b'\0')[0]
            pos += 64
        else:
            z = data.find(b'\0', pos + 1)
            if z < 0:
                return None
            name = data[pos + 1:z]
            pos = z + 1
        if pos + 4 > n:
            return None
        pos += 4 + struct.unpack_from('<I', data, pos)[0]
        if pos > n:
            return None
        if name == b'#EndOfFile#':
            break
    pos += 4  # the resolution
    return pos if pos <= n else None


def p3d_walk(data):
    items = []
    if data[:4] != b'MLOD' or len(data) < 12:
        return items
    count = struct.unpack_from('<I', data, 8)[0]
    pos = 12
    while len(items) < count and pos < len(data):
        end = mlod_lod_end(data, pos)
        if end is None:
            break
        items.append(('object', pos, end, b'LOD'))
        pos = end
    return items


WALK = {'w3d': w3d_walk, 'b3d': b3d_walk, 'p3d': p3d_walk}


def outside(item, damage):
    """True when the item's bytes are untouched by the damage (offsets in
    the undamaged file)."""
    _, off, end, _ = item
    kind = damage[0]
    if kind == 'cut':
        return end <= damage[1]
    if kind == 'del':
        return end <= damage[1] or off >= damage[1] + damage[2]
    if kind == 'ins':
        return end <= damage[1] or off >= damage[1]
    if kind == 'zero':
        return end <= damage[1] or off >= damage[1] + damage[2]
    if kind == 'swap':
        n = damage[3]
        return all(end <= at or off >= at + n for at in damage[1:3])
    hdr = damage[1]
    return not (off <= hdr + 4 < end)


# The damage kinds inside an object (issue 29): only the objects are
# checked (the damaged object's own arrays may be trimmed to agree).
INNER = ('del', 'ins', 'zero', 'swap')


def kind_of(name, damage):
    """The damage kind a case reports under."""
    d = damage[0]
    if d == 'cut':
        return 'cut'
    if d == 'size':
        return 'grown %+d' % damage[2] if '.g%d.' % damage[2] in name else 'size %+d' % damage[2]
    if d in ('del', 'ins', 'zero'):
        return '%s %d' % ({'del': 'deleted', 'ins': 'inserted', 'zero': 'zeroed'}[d], damage[2])
    return 'swapped %d' % damage[3]


def read(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError:
        return None


def check(fmt, cases, in_dir, out_dir, base_dir, status_file, mode='--unsafe'):
    status = {}
    for line in open(status_file, encoding='utf-8', errors='replace'):
        parts = line.rstrip('\n').split('\t')
        if len(parts) >= 2:
            status[parts[0]] = (int(parts[1]), parts[2] if len(parts) > 2 else '')
    fig = {'cases': 0, 'pass': 0, 'kept_all': 0, 'refused': 0, 'items': 0, 'kept': 0,
           'in_bytes': 0, 'out_bytes': 0}
    failed = 0
    base_cache = {}
    # per damage kind: cases, written outputs lacking an intact item,
    # refusals (a reason, the damaged file kept)
    per = {}
    for line in open(cases, encoding='utf-8'):
        name, orig, dmg = line.rstrip('\n').split('\t')
        d = dmg.split()
        damage = (d[0], int(d[1])) + tuple(int(x) for x in d[2:])
        src = read(orig)
        damaged = read(os.path.join(in_dir, name))
        out = read(os.path.join(out_dir, name))
        rc, reason = status.get(name, (None, ''))
        fig['cases'] += 1
        kf = per.setdefault(kind_of(name, damage), [0, 0, 0])
        kf[0] += 1
        if rc not in (None, 0) and reason:
            kf[2] += 1
        fig['in_bytes'] += len(damaged or b'')
        fig['out_bytes'] += len(out or b'')
        if fmt == 'p3d' and src[:4] != b'MLOD':
            # ODOL, read-only: the output must be the damaged input, unchanged
            ok = out is None or out == damaged
            fig['pass'] += ok
            fig['odol'] = fig.get('odol', 0) + 1
            if not ok:
                failed += 1
                kf[1] += 1
                print('chunkwalk: FAIL: %s: a damaged ODOL file was changed' % name)
            continue
        if orig not in base_cache:
            base_cache[orig] = read(os.path.join(base_dir, orig.replace('/', '~'))) or src
        base = base_cache[orig]
        # A W3D object the end of the file cuts does not load as it is (the
        # loader reads nothing of a short chunk, and its header counts name
        # what was cut): its arrays are salvaged to agree, so only its
        # intact top-level neighbours are checked; after a changed size,
        # every array but the changed chunk is intact and is checked.
        need = [it for it in WALK[fmt](src) if outside(it, damage) and
                not (fmt == 'w3d' and damage[0] == 'cut' and it[0] == 'array') and
                not (damage[0] in INNER and it[0] == 'array')]
        lost = []
        # the copies an output must hold: those the damaged file holds (a
        # cut file keeps no copy that lay past the cut, a changed size
        # field or bytes changed inside an object leave a twin array of
        # the damaged chunk no longer the same)
        whole = damaged or b''
        for it in need:
            b = src[it[1]:it[2]]
            want = base.count(b)
            if want == 0:
                continue  # the repair of the undamaged file changes it anyway
            fig['items'] += 1
            if out is not None and out.count(b) >= min(want, whole.count(b)):
                fig['kept'] += 1
            else:
                lost.append(it)
        if not lost:
            fig['pass'] += 1
            fig['kept_all'] += 1
            continue
        if rc not in (None, 0) and reason and out in (None, damaged):
            fig['pass'] += 1
            fig['refused'] += 1
            continue
        failed += 1
        if out is not None and out != damaged:
            kf[1] += 1
        it = lost[0]
        tag = it[3].decode('latin-1') if isinstance(it[3], bytes) else '0x%X' % it[3]
        print('chunkwalk: FAIL: %s (%s): %d intact item(s) lost, first %s %s at 0x%X..0x%X; '
              'w3dfix exit %s%s' % (name, dmg, len(lost), it[0], tag, it[1], it[2], rc,
                                    (': ' + reason) if reason else ' with no reason'))
    c = fig['cases']
    for k in sorted(per):
        print('chunkwalk: %s %s: %-12s %5d cases, %d written lacking an intact object, %d refused'
              % (fmt, mode, k, per[k][0], per[k][1], per[k][2]))
    print('chunkwalk: %s: %d cases, %d pass (%d keep every intact item, %d lose some but w3dfix '
          'refused with a reason, original kept); %d of %d intact items kept; %d case(s) refused '
          'by w3dfix in all; %d bytes in, %d bytes out' %
          (fmt, c, fig['pass'], fig['kept_all'], fig['refused'], fig['kept'], fig['items'],
           len(status), fig['in_bytes'], fig['out_bytes']))
    if fig.get('odol'):
        print('chunkwalk: %s: of them %d ODOL case(s) (read-only: pass when unchanged), %d MLOD'
              % (fmt, fig['odol'], c - fig['odol']))
    # The level reached (SALVAGE_INTACT_MIN, percent of the cases that
    # pass; default 100): below it the test fails.
    least = float(os.environ.get('SALVAGE_INTACT_MIN', '100'))
    pct = 100.0 * fig['pass'] / c if c else 100.0
    print('chunkwalk: %s: %.2f %% of the cases pass (at least %s %% asked)' % (fmt, pct, least))
    if pct < least:
        print('chunkwalk: %s: FAIL: below %s %%' % (fmt, least))
        return 1
    return 0


def main(argv):
    if len(argv) in (8, 9) and argv[1] == 'check':
        return check(*argv[2:])
    if len(argv) == 3 and argv[1] in WALK:
        data = read(argv[2]) or b''
        for kind, off, end, cid in WALK[argv[1]](data):
            tag = cid.decode('latin-1') if isinstance(cid, bytes) else '0x%X' % cid
            print('%s\t%s\t0x%X\t0x%X' % (kind, tag, off, end))
        return 0
    sys.stderr.write('usage: chunkwalk.py w3d|b3d|p3d FILE | check FORMAT CASES IN OUT BASE STATUS\n')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
