#!/bin/sh
# Skin bounds in the bind pose across files (issue 11 part 2; lint/xref.c
# check_skin_bounds): the hierarchy SKEL in skel.w3d, the skin mesh SKIN.BODY
# and its HLOD (HierarchyName SKEL) in skin.w3d, as BFME keeps _skl and _skn
# files.  The bind pose is the one of tests/build/build_skin.h: BONE_A (parent 0)
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

# mk DIR BOX: skel.w3d and skin.w3d in DIR from corpus/cli/skin_bounds/,
# the skin's box the exporter's (exporter-box) or the stored vertices'
# (stored-box).
mk() {
	for m in skel "skin-$2"; do
		assemble "skin_bounds/$m.w3d" "$1/${m%%-*}.w3d" # skin-BOX -> skin.w3d
	done
}

cd "$tmp" || exit 2
mk good exporter-box
mk bad stored-box
mk lonely exporter-box
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
if [ "$(count skin-bounds-unchecked)" -eq 1 ] && grep -q "which no file of 'lonely' defines" out.json; then
	ok "lonely: skin-bounds-unchecked once, from the cross-file index"
else
	bad "lonely: $(grep '"message"' out.json)"
fi
[ "$fail" -eq 0 ] && echo "$name: ok"
exit "$fail"
