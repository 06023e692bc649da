#!/bin/sh
# Reproducers of issue 29 ("repairs never lose what is intact"), built from
# corpus files here (no binary blob in the repository; skipped with one
# line when the corpus is absent):
#   - rbbarracks_askl.W3D (RotWK) with 4 bytes deleted at 0x4A9, inside the
#     HIERARCHY's PIVOT_FIXUPS, no size changed: the HIERARCHY's declared
#     end overlaps the COMPRESSED_ANIMATION after it by 4 bytes.  Before
#     the fix `w3dfix -o` removed the animation as trailing bytes (exit 0,
#     a 2,445-byte file); now both `w3dfix -o` (safe) and `--unsafe` keep
#     its 9,204 bytes byte for byte, and --unsafe gives the HIERARCHY the
#     size its bytes show (chunk-size-wrong);
#   - every top-level object of that file the deletion did not touch, as
#     tests/chunkwalk.py's independent walk lists them, is in both outputs.
#
# Usage: tests/intact_repro_w3d.sh W3DFIX [CORPUS_ROOT]
set -u
name=intact_repro_w3d
. "$(dirname "$0")/lib.sh"
fix=$(abspath "$1")
root=${2:-${W3DLINT_CORPUS_ROOT:-$(dirname "$0")/../../shared/corpus}}
walker=$(abspath "$(dirname "$0")/chunkwalk.py")
src=$root/w3d/rotwk_evil/rbbarracks_askl.W3D
if [ ! -f "$src" ]; then
	echo "$name: skipped: no $src"
	exit 0
fi
src=$(abspath "$src")
cd "$tmp" || exit 2

# splice IN OUT OFFSET N: IN with N bytes deleted at OFFSET
splice() {
	python3 -c 'import sys
b = open(sys.argv[1], "rb").read(); o, n = int(sys.argv[3], 0), int(sys.argv[4])
open(sys.argv[2], "wb").write(b[:o] + b[o + n:])' "$@"
}

# intact ORIG OUT OFFSET N: every top-level object of ORIG (chunkwalk.py's
# walk) wholly before OFFSET or after OFFSET+N occurs byte for byte in OUT;
# prints the objects lost, and how many objects were checked
intact() {
	python3 - "$walker" "$@" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('chunkwalk', sys.argv[1])
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)
orig = open(sys.argv[2], 'rb').read()
out = open(sys.argv[3], 'rb').read()
at, n = int(sys.argv[4], 0), int(sys.argv[5])
objs = [it for it in cw.w3d_walk(orig) if it[0] == 'object' and (it[2] <= at or it[1] >= at + n)]
lost = [it for it in objs if orig[it[1]:it[2]] not in out]
for it in lost:
    print('lost: 0x%X at 0x%X..0x%X' % (it[3], it[1], it[2]))
print('checked %d' % len(objs))
sys.exit(1 if lost or not objs else 0)
EOF
}

splice "$src" rb.w3d 0x4A9 4
for mode in safe unsafe; do
	opt=
	[ $mode = unsafe ] && opt=--unsafe
	"$fix" $opt -o "out.$mode.w3d" rb.w3d >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ ! -f "out.$mode.w3d" ]; then
		bad "rbbarracks_askl, 4 bytes deleted at 0x4A9, $mode: nothing written (exit $rc)"
	elif intact "$src" "out.$mode.w3d" 0x4A9 4 >"$tmp/walk"; then
		ok "rbbarracks_askl, 4 bytes deleted at 0x4A9, $mode: every intact object kept ($(tail -n 1 "$tmp/walk"), exit $rc, $(wc -c <"out.$mode.w3d") bytes)"
	else
		cat "$tmp/walk" >>"$tmp/out"
		bad "rbbarracks_askl, 4 bytes deleted at 0x4A9, $mode: an intact object lost (exit $rc)"
	fi
done
# --unsafe repairs the size the deletion made wrong
if grep -F -q "[chunk-size-wrong] (HIERARCHY[RBBARRACKS_ASKL])" "$tmp/out" && [ "$rc" -eq 0 ]; then
	ok "rbbarracks_askl --unsafe: the HIERARCHY's size repaired (chunk-size-wrong), exit 0"
else
	bad "rbbarracks_askl --unsafe: no chunk-size-wrong repair of the HIERARCHY, or exit $rc"
fi
[ $fail -eq 0 ] && echo "$name: all passed"
exit $fail
