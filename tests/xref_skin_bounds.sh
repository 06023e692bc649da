#!/bin/sh
# Skin bounds in the bind pose across files (issue 11 part 2; lint/xref.c
# check_skin_bounds): the hierarchy SKEL in skel.w3d, the skin mesh SKIN.BODY
# and its HLOD (HierarchyName SKEL) in skin.w3d, as BFME keeps _skl and _skn
# files.  The bind pose is the one of tests/build_skin.h: BONE_A (parent 0)
# at (1, 0, 0) turned 90 degrees about Z, BONE_B (parent 1) at (0, 2, 0)
# turned 90 degrees about X; vertex 0 (1, 0, 0) on BONE_A, vertices 1
# (0, 0, 1) and 2 (0, 1, 0) on BONE_B are (1, 1, 0), (0, 0, 0), (-1, 0, 1) in
# the bind pose, so the exporter's box is (-1, 0, 0)..(1, 1, 1).
#   good/     the exporter's bounds: no bounds finding, nothing unchecked;
#   bad/      the box of the stored vertices, (0, 0, 0)..(1, 1, 1): one
#             mesh-bounds-box in skin.w3d, naming skel.w3d;
#   bad/skin.w3d alone (no cross-file index): one skin-bounds-unchecked;
#   lonely/   skin.w3d without skel.w3d: one skin-bounds-unchecked, not two.
# Usage: tests/xref_skin_bounds.sh W3DLINT W3DASM
set -u
name=xref_skin_bounds
. "$(dirname "$0")/lib.sh"
w3dlint=$(abspath "$1")
w3dasm=$(abspath "$2")

# mk DIR MIN MAX: skel.w3d and skin.w3d in DIR, the skin's box MIN..MAX.
mk() {
	mkdir -p "$1"
	"$w3dasm" -o "$1/skel.w3d" - <<EOF || exit 2
w3d-text: 1
chunks:
  - chunk: HIERARCHY
    children:
      - chunk: HIERARCHY_HEADER
        Version: 0x00040001
        Name: "SKEL"
        NumPivots: 3
        Center: [0, 0, 0]
      - chunk: PIVOTS
        items:
          - {Name: "ROOTTRANSFORM", ParentIdx: -1, Translation: [0, 0, 0], EulerAngles: [0, 0, 0], Rotation: [0, 0, 0, 1]}
          - {Name: "BONE_A", ParentIdx: 0, Translation: [1, 0, 0], EulerAngles: [0, 0, 1.5707964], Rotation: [0, 0, 0.70710677, 0.70710677]}
          - {Name: "BONE_B", ParentIdx: 1, Translation: [0, 2, 0], EulerAngles: [1.5707964, 0, 0], Rotation: [0.70710677, 0, 0, 0.70710677]}
EOF
	"$w3dasm" -o "$1/skin.w3d" - <<EOF || exit 2
w3d-text: 1
chunks:
  - chunk: MESH
    children:
      - chunk: MESH_HEADER3
        Version: 0x00040002
        Attributes: 0x00020000
        MeshName: "BODY"
        ContainerName: "SKIN"
        NumTris: 1
        NumVertices: 3
        VertexChannels: 0x00000013
        FaceChannels: 0x00000001
        Min: $2
        Max: $3
        SphCenter: [0, 0.5, 0.5]
        SphRadius: 1.2248
      - chunk: VERTICES
        items:
          - [1, 0, 0]
          - [0, 0, 1]
          - [0, 1, 0]
      - chunk: VERTEX_NORMALS
        items:
          - [0, 0, 1]
          - [0, 0, 1]
          - [0, 0, 1]
      - chunk: TRIANGLES
        items:
          - {Vindex: [0, 1, 2], Attributes: 0, Normal: [0, 0, 1], Dist: 0}
      - chunk: VERTEX_INFLUENCES
        items:
          - {BoneIdx: 1}
          - {BoneIdx: 2}
          - {BoneIdx: 2}
  - chunk: HLOD
    children:
      - chunk: HLOD_HEADER
        Version: 0x00010000
        LodCount: 1
        Name: "SKIN"
        HierarchyName: "SKEL"
      - chunk: HLOD_LOD_ARRAY
        children:
          - chunk: HLOD_SUB_OBJECT_ARRAY_HEADER
            ModelCount: 1
            MaxScreenSize: 0
          - chunk: HLOD_SUB_OBJECT
            BoneIndex: 0
            Name: "SKIN.BODY"
EOF
}

cd "$tmp" || exit 2
mk good "[-1, 0, 0]" "[1, 1, 1]"
mk bad "[0, 0, 0]" "[1, 1, 1]"
mk lonely "[-1, 0, 0]" "[1, 1, 1]"
rm lonely/skel.w3d

# count RULE: findings of RULE in out.json
count() { grep -c "\"rule\": \"$1\"" out.json; }

"$w3dlint" --no-progress --config /dev/null --format json -o out.json good > /dev/null 2>&1
if [ "$(count mesh-bounds-box)" -eq 0 ] && [ "$(count mesh-bounds-sphere)" -eq 0 ] &&
	[ "$(count skin-bounds-unchecked)" -eq 0 ]; then
	ok "good: the exporter's bounds hold in the bind pose of skel.w3d"
else
	bad "good: $(grep '"message"' out.json)"
fi

"$w3dlint" --no-progress --config /dev/null --format json -o out.json bad > /dev/null 2>&1
if [ "$(count mesh-bounds-box)" -eq 1 ] && [ "$(count skin-bounds-unchecked)" -eq 0 ] &&
	grep -q '"related": ".*skel.w3d"' out.json && grep -q '"path": ".*skin.w3d"' out.json; then
	ok "bad: one mesh-bounds-box in skin.w3d, naming skel.w3d"
else
	bad "bad: $(grep '"message"\|"related"' out.json)"
fi

"$w3dlint" --no-progress --config /dev/null --format json -o out.json bad/skin.w3d > /dev/null 2>&1
if [ "$(count skin-bounds-unchecked)" -eq 1 ] && [ "$(count mesh-bounds-box)" -eq 0 ]; then
	ok "one file: skin-bounds-unchecked once"
else
	bad "one file: $(grep '"message"' out.json)"
fi

"$w3dlint" --no-progress --config /dev/null --format json -o out.json lonely > /dev/null 2>&1
if [ "$(count skin-bounds-unchecked)" -eq 1 ] && grep -q 'which no file of the folder defines' out.json; then
	ok "lonely: skin-bounds-unchecked once, from the cross-file index"
else
	bad "lonely: $(grep '"message"' out.json)"
fi
[ "$fail" -eq 0 ] && echo "$name: ok"
exit "$fail"
