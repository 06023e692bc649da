#!/bin/sh
# The writer and w3dfix over the real-file corpus (../shared/corpus/w3d, or
# $W3DLINT_CORPUS); skipped with one line when the corpus is absent.
#  1. every file read and written with no edit is byte-identical;
#  2. every file whose sizes the reader took as declared is byte-identical
#     when every chunk is re-serialised from the tree (--rebuild);
#  3. w3dfix -o with the structural fixers (--select "$STRUCT") fixes the
#     files of rotwk_evil (30 with broken HLOD sizes) into a temporary folder; each rewritten file has no structural
#     recovery left, keeps every HLOD_SUB_OBJECT inside its HLOD and equals
#     its input outside the rewritten size fields (tool_roundtrip
#     --check-fixed); w3dlint reports no structural finding on the output;
#     w3dfix run again on the output makes no edit.
# Usage: tests/roundtrip.sh TOOL_ROUNDTRIP W3DFIX [W3DLINT]
set -u
tool=$1
w3dfix=$2
w3dlint=${3:-$(dirname "$w3dfix")/w3dlint}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
if [ ! -d "$corpus" ]; then
	echo "roundtrip: skipped: no corpus at $corpus (see README.md, Corpus)"
	exit 0
fi
corpus=$(cd "$corpus" && pwd)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86"
export ASAN_OPTIONS UBSAN_OPTIONS
# The structural fixers (fix/fix_structure.c): only size fields may change.
STRUCT='container-sizes,container-bits,trailing-bytes'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

find "$corpus" -type f \( -iname '*.w3d' -o -iname '*.wlt' -o -iname '*.wht' -o -iname '*.wha' -o -iname '*.wtm' \) \
	| LC_ALL=C sort > "$tmp/files"
if [ ! -s "$tmp/files" ]; then
	echo "roundtrip: skipped: no W3D files under $corpus"
	exit 0
fi
tr '\n' '\0' < "$tmp/files" | xargs -0 "$tool" > "$tmp/rt1" 2>&1 || fail=1
tail -n 1 "$tmp/rt1"
tr '\n' '\0' < "$tmp/files" | xargs -0 "$tool" --rebuild > "$tmp/rt2" 2>&1 || fail=1
tail -n 1 "$tmp/rt2"
if [ "$fail" -ne 0 ]; then
	grep -v '^roundtrip' "$tmp/rt1" "$tmp/rt2" | head -n 20
	grep 'MISMATCH' "$tmp/rt1" "$tmp/rt2" | head -n 20
fi

# The same two round trips over the B3D corpus (../shared/corpus/b3d):
# container fields (NODE name and transform, MESH brush_id) included.
b3d=${W3DLINT_B3D_CORPUS:-$root/../shared/corpus/b3d}
if [ -d "$b3d" ]; then
	find "$b3d" -type f -iname '*.b3d' | LC_ALL=C sort > "$tmp/b3d"
	for mode in "" --rebuild; do
		tr '\n' '\0' < "$tmp/b3d" | xargs -0 "$tool" $mode > "$tmp/rt3" 2>&1 || fail=1
		echo "b3d $(tail -n 1 "$tmp/rt3")"
		if ! tail -n 1 "$tmp/rt3" | grep -q -E '([0-9]+) files, \1 identical'; then
			echo "roundtrip: FAIL b3d round trip $mode"
			grep -v '^roundtrip' "$tmp/rt3" | head -n 20
			fail=1
		fi
	done
else
	echo "roundtrip: b3d skipped: no corpus at $b3d"
fi

evil="$corpus/rotwk_evil"
if [ -d "$evil" ]; then
	"$w3dfix" -q --select "$STRUCT" -o "$tmp/out" "$evil" > "$tmp/fix.out" 2> "$tmp/fix.err"
	rc=$?
	if [ "$rc" -ge 2 ] || grep -q -E 'Sanitizer|runtime error|verification failed' "$tmp/fix.err"; then
		echo "roundtrip: FAIL w3dfix -o over $evil: status $rc"
		head -n 20 "$tmp/fix.err"
		fail=1
	fi
	tail -n 1 "$tmp/fix.out"
	changed=0
	checked=0
	while IFS= read -r f; do
		rel=${f#"$evil"/}
		o="$tmp/out/$rel"
		if [ ! -f "$o" ]; then
			echo "roundtrip: FAIL w3dfix wrote no $o"
			fail=1
			continue
		fi
		checked=$((checked + 1))
		if cmp -s "$f" "$o"; then continue; fi
		changed=$((changed + 1))
		"$tool" --check-fixed "$f" "$o" || fail=1
	done <<EOF2
$(grep "^$evil/" "$tmp/files")
EOF2
	echo "roundtrip: w3dfix rewrote $changed of $checked rotwk_evil files"
	if [ "$changed" -ne 30 ]; then
		echo "roundtrip: FAIL expected the 30 broken HLOD files to be rewritten, not $changed"
		fail=1
	fi
	"$w3dlint" --no-progress "$tmp/out" > "$tmp/lint.out" 2>&1
	if grep -E '\[(chunk-truncated|chunk-size-past-eof|chunk-overruns-parent|container-size-too-small|container-size-at-eof|stray-bytes|trailing-bytes|chunk-resync)\]' "$tmp/lint.out" | head -n 5 | grep -q .; then
		echo "roundtrip: FAIL structural findings remain in the w3dfix output:"
		grep -E '\[(chunk-truncated|chunk-size-past-eof|chunk-overruns-parent|container-size-too-small|container-size-at-eof|stray-bytes|trailing-bytes|chunk-resync)\]' "$tmp/lint.out" | head -n 5
		fail=1
	fi
	"$w3dfix" -n -q --select "$STRUCT" "$tmp/out" > "$tmp/again.out" 2>&1
	if ! tail -n 1 "$tmp/again.out" | grep -q ' 0 fixed, .* 0 edits,'; then
		echo "roundtrip: FAIL w3dfix on its own output is not a no-op:"
		tail -n 3 "$tmp/again.out"
		fail=1
	fi
fi
[ "$fail" -eq 0 ] && echo "roundtrip: ok"
[ "$fail" -eq 0 ]
