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
#     tests/chunkwalk.py's independent walk lists them, is in both outputs;
#   - three more causes found by tests/salvage.sh (each lost an intact
#     object on 51ff00b; every object the damage did not touch must be in
#     both outputs, or w3dfix refuses and writes the damaged file as it is):
#     AVEMPMLRS_D.W3D (ZH mod) cut at 32920, where a MATERIAL_PASS's last
#     ids read as a MESH header whose size reaches the cut exactly: that
#     "sibling" straddling the intact MESH's end was taken as evidence of
#     deleted bytes though its children do not tile it (a chunk must read
#     whole to count, core/chunk.c reads_whole); muoliphnt_skn.w3d (RotWK)
#     with 4 bytes inserted at 42, inside the BOX before the MESH, where the
#     file's last HLOD is itself longer than the file: the verification's
#     search for a whole chunk in the bytes read as no object missed the
#     MESH (the 138,830-byte MESH was dropped as unreadable, exit 0);
#     LMHFOUNDATION.w3d (RotWK) with 4 bytes inserted at 146, inside the
#     HIERARCHY's PIVOTS: its declared end falls 4 bytes before the MESH
#     after it, and --unsafe dropped that MESH as unreadable (a container
#     whose children stop short of its end now ends at a whole sibling that
#     starts just past it, core/chunk.c sibling_past_end).
#
# Usage: tests/intact_repro_w3d.sh W3DFIX [CORPUS_ROOT]
set -u
name=intact_repro_w3d
. "$(dirname "$0")/lib.sh"
fix=$(abspath "$1")
root=${2:-${W3DLINT_CORPUS_ROOT:-$(dirname "$0")/../../shared/corpus}}
walker=$(abspath "$(dirname "$0")/chunkwalk.py")
root=$(cd "$root" 2>/dev/null && pwd || echo "$root")
src=$root/w3d/rotwk_evil/rbbarracks_askl.W3D
if [ ! -f "$src" ]; then
	echo "$name: skipped: no $src"
	exit 0
fi
src=$(abspath "$src")
cd "$tmp" || exit 2

# splice IN OUT OFFSET N [INS]: IN with N bytes deleted at OFFSET (and INS
# bytes 0xCD inserted there, as tests/tools/salvage_gen.c does)
splice() {
	python3 -c 'import sys
b = open(sys.argv[1], "rb").read(); o, n = int(sys.argv[3], 0), int(sys.argv[4])
ins = int(sys.argv[5]) if len(sys.argv) > 5 else 0
open(sys.argv[2], "wb").write(b[:o] + b"\xcd" * ins + b[o + n:])' "$@"
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

# more FILE LABEL OFFSET N INS: FILE (under $root/w3d) with N bytes deleted
# at OFFSET and INS inserted there; every object the damage did not touch
# is kept by `w3dfix -o` and `w3dfix --unsafe -o` (or the file is refused:
# an intact object of the damaged file is then still in what is written)
more() {
	s2=$root/w3d/$1
	if [ ! -f "$s2" ]; then
		echo "$name: skipped: no $s2"
		return 0
	fi
	s2=$(abspath "$s2")
	splice "$s2" more.w3d "$3" "$4" "$5"
	for mode in safe unsafe; do
		opt=
		[ $mode = unsafe ] && opt=--unsafe
		rm -f "more.$mode.w3d"
		"$fix" $opt -o "more.$mode.w3d" more.w3d >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ ! -f "more.$mode.w3d" ]; then
			bad "$2, $mode: nothing written (exit $rc)"
		elif intact "$s2" "more.$mode.w3d" "$3" "$4" >"$tmp/walk"; then
			ok "$2, $mode: every intact object kept ($(tail -n 1 "$tmp/walk"), exit $rc)"
		else
			cat "$tmp/walk"
			bad "$2, $mode: an intact object lost (exit $rc)"
		fi
	done
}
more jj_zhmod/AVEMPMLRS_D.W3D "AVEMPMLRS_D cut at 32920" 32920 1000000000 0
more rotwk_evil/muoliphnt_skn.w3d "muoliphnt_skn, 4 bytes inserted at 42" 42 0 4
more rotwk_evil/LMHFOUNDATION.w3d "LMHFOUNDATION, 4 bytes inserted at 146" 146 0 4
[ $fail -eq 0 ] && echo "$name: all passed"
exit $fail
