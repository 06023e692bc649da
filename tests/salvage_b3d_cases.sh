#!/bin/sh
# The B3D salvage defects of issue 29 found by tests/salvage.sh, one case
# each, built from a corpus file (../shared/corpus/b3d, or
# $W3DLINT_CORPUS_ROOT/b3d; skipped with one line when absent) by
# tests/salvage_gen, then repaired by `w3dfix -o` and `w3dfix --unsafe -o`.
# A case passes when w3dfix neither fails with an internal error (exit 2,
# "out of memory or internal error") nor writes an output that lacks an
# object the damage left intact (tests/chunkwalk.py check, the test of
# tests/salvage.sh): every such object is in the output byte for byte, or
# w3dfix refused with a reason and kept the damaged file.
#
#   mobs_animal/mobs_panda.b3d d20 - 20 bytes deleted inside a NODE: 201
#     keys of the overrun KEYS normalised one by one copied the 12 KB chunk
#     per key and ran out of the arena (ab90490: "out of memory or internal
#     error" in both modes).
#   advtrains/advtrains_dtrack_bumper_st.b3d d20 - 20 bytes deleted inside
#     TEXS, which loses its second entry: the safe clear-dangling-ids set
#     the intact BRUS's texture id 1 to -1 (and under --unsafe after
#     trim-record-slack dropped the partial entry); ab90490: the BRUS is
#     not in either output.
#   automobiles_pck/automobiles_motorcycle_body.b3d i4 - 4 bytes inserted
#     inside a BRUS: its declared end falls short of its content, the reader
#     resyncs inside the intact root NODE after it, and --unsafe's
#     drop-unreadable removed the 57 bytes holding that NODE's header; the
#     verification never looked, as it skipped B3D (a format with its own
#     read()) and needed the chunk to end inside the dropped bytes (9718a55:
#     the root NODE is missing from the --unsafe output).
#
# Usage: tests/salvage_b3d_cases.sh SALVAGE_GEN W3DFIX
set -u
name=salvage_b3d_cases
. "$(dirname "$0")/lib.sh"
gen=$(abspath "$1")
fix=$(abspath "$2")
walker=$(abspath "$(dirname "$0")/chunkwalk.py")
root=${W3DLINT_CORPUS_ROOT:-$(dirname "$0")/../../shared/corpus}
dir=$root/b3d
if [ ! -d "$dir" ]; then
	echo "$name: skipped: no B3D corpus at $dir"
	exit 0
fi
dir=$(cd "$dir" && pwd)

# one FILE VARIANT WHAT: the variant VARIANT (salvage_gen's name part, e.g.
# d20) of corpus file FILE, repaired in both modes
one() {
	w=$tmp/$(printf '%s' "$1" | tr '/~' '__').$2
	mkdir -p "$w/all" "$w/in" "$w/base" "$w/out" "$w/outsafe"
	if [ ! -f "$dir/$1" ]; then
		echo "$name: skipped: $1 is not in the corpus"
		return
	fi
	(cd "$dir" && printf '%s\n' "$1" | "$gen" "$w/all" b3d) >"$w/cases.all" || { bad "$1: salvage_gen failed"; return; }
	v=$(printf '%s' "$1" | tr '/' '~').$2.b3d
	grep -F "$v	" "$w/cases.all" | cut -f1,4,5 >"$w/wcases"
	if [ ! -s "$w/wcases" ]; then
		bad "$1: salvage_gen made no $2 variant"
		return
	fi
	cp "$w/all/$v" "$w/in/$v"
	cp "$dir/$1" "$w/orig.b3d"
	"$fix" --unsafe --quiet -o "$w/base/$(printf '%s' "$1" | tr '/' '~')" "$w/orig.b3d" >/dev/null 2>&1
	for mode in --unsafe safe; do
		o=$w/out; m=--unsafe
		[ "$mode" = safe ] && { o=$w/outsafe; m=; }
		(cd "$w/in" && "$fix" $m -o "$o/$v" "$v" >"$tmp/out" 2>"$tmp/err")
		rc=$?
		if [ $rc -eq 2 ] || errhas "internal error"; then
			bad "$3 ($1 $2, $mode): w3dfix exit $rc, an internal error"
			continue
		fi
		sed -n 's/^w3dfix: \([^:]*\): verification failed: \(.*\)$/\1	1	\2/p' "$tmp/err" >"$w/status"
		if (cd "$dir" && python3 "$walker" check b3d "$w/wcases" "$w/in" "$o" "$w/base" "$w/status" "$mode") >"$tmp/walk" 2>&1; then
			ok "$3 ($1 $2, $mode): every intact object kept or refused (exit $rc)"
		else
			cat "$tmp/walk" >"$tmp/out"
			bad "$3 ($1 $2, $mode): an intact object is missing"
		fi
	done
}

one mobs_animal/mobs_panda.b3d d20 "20 bytes deleted, 201 keys normalised"
one advtrains/advtrains_dtrack_bumper_st.b3d d20 "20 bytes deleted in TEXS, BRUS intact"
one automobiles_pck/automobiles_motorcycle_body.b3d i4 "4 bytes inserted in BRUS, root NODE intact"
exit $fail
