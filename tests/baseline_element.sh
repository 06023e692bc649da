#!/bin/sh
# The baseline counts findings, one per defective element (issue 11): a mesh
# of 8 triangles in z = 0, 6 of them with a wrong plane (Dist 1), is written
# to a baseline; breaking the plane of a 7th triangle must then make
# `--baseline` report exactly that triangle's triangle-plane finding, with
# exit status 1 (--fail-on info: the rule is info).  The near miss: the
# unchanged file reports nothing new, exit status 0.  Then the report
# writers over the 7 findings: text and GitHub fold, JSON and SARIF do not.
# Usage: tests/baseline_element.sh W3DLINT W3DASM
set -u
name=baseline_element
. "$(dirname "$0")/lib.sh"
w3dlint=$(abspath "$1")
w3dasm=$(abspath "$2")

# model WRONG [QUADS]: the mesh text of QUADS quads (default 4),
# triangles 0..WRONG-1 with Dist 1.  Vertices 2i and 2i+1 are (i, 0, 0) and
# (i, 1, 0), i = 0..QUADS; quad i is triangles 2i (2i, 2i+2, 2i+3) and 2i+1
# (2i, 2i+3, 2i+1), both with normal (0, 0, 1).
model() {
	q=${2:-4}
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
        NumTris: $((2 * q))
        NumVertices: $((2 * q + 2))
        SortLevel: 0
        VertexChannels: 0x00000001
        FaceChannels: 0x00000001
        Min: [0, 0, 0]
        Max: [$q, 1, 0]
        SphCenter: [$q, 0.5, 0]
        SphRadius: $((q + 1))
      - chunk: VERTICES
        items:
EOF
	i=0
	while [ "$i" -le "$q" ]; do
		printf '          - [%d, 0, 0]\n          - [%d, 1, 0]\n' "$i" "$i"
		i=$((i + 1))
	done
	printf '      - chunk: TRIANGLES\n        items:\n'
	t=0
	i=0
	while [ "$i" -lt "$q" ]; do
		a=$((2 * i)); b=$((a + 1)); c=$((a + 2)); d=$((a + 3))
		for v in "$a, $c, $d" "$a, $d, $b"; do
			dist=0
			[ "$t" -lt "$1" ] && dist=1
			printf '          - {Vindex: [%s], Attributes: 0, Normal: [0, 0, 1], Dist: %s}\n' "$v" "$dist"
			t=$((t + 1))
		done
		i=$((i + 1))
	done
}

cd "$tmp" || exit 2
model 6 | "$w3dasm" -o bl.w3d - || exit 2
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --format json -o six.json bl.w3d
n=$(grep -c '"rule": "triangle-plane"' six.json)
if [ "$n" -eq 6 ]; then ok "6 wrong planes are 6 findings"; else bad "6 wrong planes gave $n findings"; fi
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --write-baseline base.json bl.w3d > out 2>&1
grep -q '"triangle-plane": 6' base.json && ok "the baseline records 6" || bad "baseline: $(cat base.json)"

"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --fail-on info --baseline base.json bl.w3d > out 2>&1
rc=$?
if [ "$rc" -eq 0 ] && ! grep -q 'triangle-plane' out; then
	ok "near miss: the baselined file reports nothing, exit 0"
else
	bad "the baselined file: exit $rc"
fi

model 7 | "$w3dasm" -o bl.w3d - || exit 2
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --fail-on info --baseline base.json --format json -o new.json bl.w3d \
	> out 2>&1
rc=$?
n=$(grep -c '"rule": "triangle-plane"' new.json)
if [ "$rc" -eq 1 ] && [ "$n" -eq 1 ] && grep -q '"chunk_path": "MESH\[BL.STRIP\]/TRIANGLES\[6\]"' new.json; then
	ok "a 7th wrong plane is reported alone, at TRIANGLES[6], exit 1"
else
	bad "a 7th wrong plane: exit $rc, $n triangle-plane findings: $(grep -A3 '"rule"' new.json | head -20)"
fi
# The per-rule cap (WL_FINDINGS_PER_RULE_MAX, 200 per rule and file): 250
# wrong planes keep 200 findings and count 50; the baseline records 250, and
# a 251st is reported as new (counted past the cap), exit status 1.
model 250 130 | "$w3dasm" -o cap.w3d - || exit 2
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --write-baseline capbase.json cap.w3d > /dev/null 2>&1
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --format json -o cap.json cap.w3d > /dev/null 2>&1
if grep -q '"triangle-plane": 250' capbase.json && [ "$(grep -c '"rule": "triangle-plane"' cap.json)" -eq 200 ] &&
	grep -q '"dropped": 50' cap.json; then
	ok "cap: 200 kept, 50 counted, 250 in the baseline"
else
	bad "cap: $(cat capbase.json)"
fi
model 251 130 | "$w3dasm" -o cap.w3d - || exit 2
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --fail-on info --baseline capbase.json cap.w3d > out 2>&1
rc=$?
if [ "$rc" -eq 1 ] && grep -q '1 more finding \[triangle-plane\] not shown' out; then
	ok "cap: a 251st wrong plane is new, exit 1"
else
	bad "cap: a 251st wrong plane: exit $rc"
fi

# The report writers: text and GitHub fold the repeats, JSON and SARIF keep
# every finding.
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --fold 3 bl.w3d > out 2>&1
shown=$(grep -c '\[triangle-plane\] (MESH' out)
if [ "$shown" -eq 3 ] && grep -q '4 more findings like' out; then
	ok "text --fold 3: 3 findings and one line for the 4 others"
else
	bad "text --fold 3: $shown shown"
fi
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --format github --fold 3 bl.w3d > out 2>&1
if [ "$(grep -c '^::notice .*title=triangle-plane::mesh' out)" -eq 3 ] && grep -q '4 more findings like' out; then
	ok "github --fold 3: folded the same way"
else
	bad "github --fold 3"
fi
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --fold 3 --format sarif -o out.sarif bl.w3d > /dev/null 2>&1
"$w3dlint" --extend-select triangle-plane --show-infos --no-progress --config /dev/null --fold 3 --format json -o out.json bl.w3d > /dev/null 2>&1
if [ "$(grep -c '"ruleId": "triangle-plane"' out.sarif)" -eq 7 ] && [ "$(grep -c '"rule": "triangle-plane"' out.json)" -eq 7 ]; then
	ok "json and sarif keep all 7 findings"
else
	bad "json/sarif do not hold 7 findings"
fi
[ "$fail" -eq 0 ] && echo "$name: ok"
exit "$fail"
