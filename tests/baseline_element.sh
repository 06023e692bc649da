#!/bin/sh
# The baseline counts findings, one per defective element (issue 11): a mesh
# of 8 triangles in z = 0, 6 of them with a wrong plane (Dist 1), is written
# to a baseline; breaking the plane of a 7th triangle must then make
# `--baseline` report exactly that triangle's triangle-plane finding, with
# exit status 1 (--fail-on info: the rule is info).  The near miss: the
# unchanged file reports nothing new, exit status 0.
# Usage: tests/baseline_element.sh W3DLINT W3DASM
set -u
name=baseline_element
. "$(dirname "$0")/lib.sh"
w3dlint=$(abspath "$1")
w3dasm=$(abspath "$2")

# model WRONG: the mesh text, triangles 0..WRONG-1 with Dist 1.  Vertices
# 2i and 2i+1 are (i, 0, 0) and (i, 1, 0), i = 0..4; quad i is triangles 2i
# (2i, 2i+2, 2i+3) and 2i+1 (2i, 2i+3, 2i+1), both with normal (0, 0, 1).
model() {
	cat <<EOF
w3d-text: 1
chunks:
  - chunk: MESH
    children:
      - chunk: MESH_HEADER3
        Version: 0x00040002
        Attributes: 0x00000000
        MeshName: "STRIP"
        ContainerName: "BL"
        NumTris: 8
        NumVertices: 10
        SortLevel: 0
        VertexChannels: 0x00000001
        FaceChannels: 0x00000001
        Min: [0, 0, 0]
        Max: [4, 1, 0]
        SphCenter: [2, 0.5, 0]
        SphRadius: 2.0615528
      - chunk: VERTICES
        items:
EOF
	for i in 0 1 2 3 4; do
		printf '          - [%d, 0, 0]\n          - [%d, 1, 0]\n' "$i" "$i"
	done
	printf '      - chunk: TRIANGLES\n        items:\n'
	t=0
	for i in 0 1 2 3; do
		a=$((2 * i)); b=$((a + 1)); c=$((a + 2)); d=$((a + 3))
		for v in "$a, $c, $d" "$a, $d, $b"; do
			dist=0
			[ "$t" -lt "$1" ] && dist=1
			printf '          - {Vindex: [%s], Attributes: 0, Normal: [0, 0, 1], Dist: %s}\n' "$v" "$dist"
			t=$((t + 1))
		done
	done
}

cd "$tmp" || exit 2
model 6 | "$w3dasm" -o bl.w3d - || exit 2
"$w3dlint" --no-progress --config /dev/null --format json -o six.json bl.w3d
n=$(grep -c '"rule": "triangle-plane"' six.json)
if [ "$n" -eq 6 ]; then ok "6 wrong planes are 6 findings"; else bad "6 wrong planes gave $n findings"; fi
"$w3dlint" --no-progress --config /dev/null --write-baseline base.json bl.w3d > out 2>&1
grep -q '"triangle-plane": 6' base.json && ok "the baseline records 6" || bad "baseline: $(cat base.json)"

"$w3dlint" --no-progress --config /dev/null --fail-on info --baseline base.json bl.w3d > out 2>&1
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q 'triangle-plane' out; then
	ok "near miss: the baselined file reports nothing, exit 0"
else
	bad "the baselined file: exit $rc"
fi

model 7 | "$w3dasm" -o bl.w3d - || exit 2
"$w3dlint" --no-progress --config /dev/null --fail-on info --baseline base.json --format json -o new.json bl.w3d \
	> out 2>&1
rc=$?
n=$(grep -c '"rule": "triangle-plane"' new.json)
if [ "$rc" -eq 1 ] && [ "$n" -eq 1 ] && grep -q '"chunk_path": "MESH\[BL.STRIP\]/TRIANGLES\[6\]"' new.json; then
	ok "a 7th wrong plane is reported alone, at TRIANGLES[6], exit 1"
else
	bad "a 7th wrong plane: exit $rc, $n triangle-plane findings: $(grep -A3 '"rule"' new.json | head -20)"
fi
[ "$fail" -eq 0 ] && echo "$name: ok"
exit "$fail"
