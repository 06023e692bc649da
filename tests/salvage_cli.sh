#!/bin/sh
# The salvage defects of issue 17 (item 1), one case each, through
# `w3dfix --unsafe -o`, on small files made here (no corpus needed):
#   - a top-level W3D MESH whose size grew by 1 keeps the MESH after it
#     (main: the resync started one byte late and removed it);
#   - a B3D BRUS whose size shrank by 4 keeps the NODE after it (main: the
#     NODE went as stray bytes, the file became 24 bytes);
#   - a B3D file cut inside VRTS keeps the MESH and its whole vertices (main:
#     remove-empty-meshes deleted the MESH);
#   - BB3D + random bytes keeps the original, exit 1 with the reason (main:
#     a 12-byte empty model, exit 0);
#   - a W3D file whose first bytes are not W3D keeps them (the original);
#   - the per-file bytes line, also under -q.
# Each check compares with the bytes expected, computed here.
#
# Usage: tests/salvage_cli.sh W3DFIX W3DASM
set -u
name=salvage_cli
. "$(dirname "$0")/lib.sh"
fix=$(abspath "$1")
asm=$(abspath "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$tmp" || exit 2

# contains BIG SMALL OFFSET LEN: the bytes SMALL[OFFSET, OFFSET+LEN) occur in BIG
contains() {
	python3 -c 'import sys
big = open(sys.argv[1], "rb").read(); small = open(sys.argv[2], "rb").read()
o, n = int(sys.argv[3]), int(sys.argv[4])
sys.exit(0 if n > 0 and small[o:o + n] in big else 1)' "$@"
}

# repaired_to DAMAGED ORIGINAL OFFSET LEN WHAT KEPT: w3dfix --unsafe -o
# writes ORIGINAL back (exit 0), with ORIGINAL[OFFSET, OFFSET+LEN) in it
repaired_to() {
	"$fix" --unsafe -o "out.$1" "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && cmp -s "out.$1" "$2" && contains "out.$1" "$2" "$3" "$4"; then
		ok "$5: repaired to the original, $6"
	else
		bad "$5 (status $rc, $(wc -c <"out.$1") of $(wc -c <"$2") bytes)"
	fi
}

# --- W3D: the first top-level MESH's size + 1
"$asm" "$repo/corpus/valid/hlod.w3d.txt" -o hlod.w3d || exit 2
python3 - <<'EOF' >meshes || exit 2
import struct
d = bytearray(open('hlod.w3d', 'rb').read())
pos, meshes = 0, []
while pos + 8 <= len(d):
    cid, raw = struct.unpack_from('<II', d, pos)
    if cid == 0:
        meshes.append((pos, 8 + (raw & 0x7FFFFFFF)))
    pos += 8 + (raw & 0x7FFFFFFF)
assert len(meshes) >= 2 and meshes[0][0] + meshes[0][1] == meshes[1][0]
raw = struct.unpack_from('<I', d, meshes[0][0] + 4)[0]
struct.pack_into('<I', d, meshes[0][0] + 4, raw + 1)
open('grown.w3d', 'wb').write(d)
print(meshes[1][0], meshes[1][1])
EOF
read -r m2 m2len <meshes
repaired_to grown.w3d hlod.w3d "$m2" "$m2len" "W3D MESH size +1" "the next MESH kept"

# --- B3D: BB3D v1, a BRUS of one brush, a NODE with a quad MESH
python3 - <<'EOF' || exit 2
import struct
def chunk(tag, body):
    return tag + struct.pack('<I', len(body)) + body
brus = chunk(b'BRUS', struct.pack('<i', 0) + b'skin\0' + struct.pack('<4f', 1, 1, 1, 1) +
             struct.pack('<fii', 0, 1, 0))
verts = b''.join(struct.pack('<3f', x, y, 0) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)) * 8)
vrts = chunk(b'VRTS', struct.pack('<iii', 0, 0, 0) + verts)
tris = chunk(b'TRIS', struct.pack('<i', -1) + struct.pack('<6i', 0, 1, 2, 0, 2, 3))
mesh = chunk(b'MESH', struct.pack('<i', -1) + vrts + tris)
node = chunk(b'NODE', b'root\0' + struct.pack('<10f', 0, 0, 0, 1, 1, 1, 1, 0, 0, 0) + mesh)
bb = chunk(b'BB3D', struct.pack('<i', 1) + brus + node)
open('m.b3d', 'wb').write(bb)
d = bytearray(bb)
struct.pack_into('<I', d, 16, struct.unpack_from('<I', d, 16)[0] - 4)
open('brus.b3d', 'wb').write(d)
v = bb.find(b'VRTS')
open('cutv.b3d', 'wb').write(bb[:v + 8 + 12 + 5 * 12 + 7])
open('layout', 'w').write('%d %d %d\n' % (bb.find(b'NODE'), len(node), v))
EOF
read -r node nodelen vrts <layout
repaired_to brus.b3d m.b3d "$node" "$nodelen" "B3D BRUS size -4" "the NODE kept"

# --- B3D cut inside VRTS: the MESH stays with its 5 whole vertices
"$fix" --unsafe -o out.b3d cutv.b3d >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q MESH out.b3d && contains out.b3d m.b3d $((vrts + 8)) $((12 + 5 * 12)) &&
	! contains out.b3d m.b3d $((vrts + 8)) $((12 + 6 * 12)); then
	ok "B3D cut inside VRTS: the MESH and its whole vertices kept"
else
	bad "B3D cut inside VRTS (status $rc, $(wc -c <out.b3d) bytes)"
fi

# --- BB3D + random bytes: the original, exit 1, the reason
python3 -c 'import random, struct, sys
r = random.Random(17)
sys.stdout.buffer.write(b"BB3D" + struct.pack("<ii", 4, 1) + bytes(r.randrange(256) for _ in range(500)))' >rnd.b3d
"$fix" --unsafe -o out.b3d rnd.b3d >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && cmp -s out.b3d rnd.b3d && errhas "verification failed: no model left"; then
	ok "BB3D + random bytes: the original kept, exit 1, 'no model left'"
else
	bad "BB3D + random bytes (status $rc, $(wc -c <out.b3d) bytes)"
fi

# --- a W3D file whose first 100 bytes are not W3D
python3 -c 'import random, sys
r = random.Random(5)
sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(100)) + open("hlod.w3d", "rb").read())' >junk.w3d
"$fix" --unsafe -o out.w3d junk.w3d >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && cmp -s out.w3d junk.w3d; then
	ok "W3D with foreign first bytes: the original kept, exit $rc"
else
	bad "W3D with foreign first bytes (status $rc, $(wc -c <out.w3d) of $(wc -c <junk.w3d) bytes)"
fi

# --- the bytes line, also under -q
head -c $((vrts + 8 + 12 + 5 * 12 + 7)) m.b3d >cut2.b3d
"$fix" --unsafe -q -o out.b3d cut2.b3d >"$tmp/out" 2>"$tmp/err"
rc=$?
n=$(wc -c <cut2.b3d)
k=$(wc -c <out.b3d)
if [ $rc -eq 0 ] && has "cut2.b3d: bytes: $k kept, $((n - k)) dropped of $n"; then
	ok "-q: the bytes line of a file that loses bytes"
else
	bad "-q bytes line (status $rc)"
fi

[ $fail -eq 0 ] && echo "$name: all passed"
exit $fail
