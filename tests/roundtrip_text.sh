#!/bin/sh
# Text form round trip over the real-file corpora (../shared/corpus/w3d, or
# $W3DLINT_CORPUS; ../shared/corpus/b3d, or $B3DLINT_CORPUS): for every W3D
# and B3D file, `w3ddump --text FILE | w3dasm - -o OUT` must give back FILE
# byte for byte (docs/textform.md).  Fails on a
# difference, a crash, a sanitizer report or a non-zero exit status; skips
# with one line when the corpus is absent.
# Usage: tests/roundtrip_text.sh W3DDUMP W3DASM
set -u
dump=$1
asm=$2
root=$(cd "$(dirname "$0")/.." && pwd)
name=roundtrip_text
. "$root/tests/lib.sh"

# The documented exit statuses (no corpus needed).
status() { "$@" > "$tmp/so" 2> "$tmp/se"; echo $?; }
printf 'chunks:\n  - chunk: MESH\n    children:\n      - chunk: MESH_HEADER3\n        NumVerts: 4\n' > "$tmp/bad.txt"
head -c 300 /dev/urandom > "$tmp/garbage.w3d"
: > "$tmp/empty.w3d"
# B3D: random bytes after a BB3D tag (the reader's recovery), and random
# bytes with a .b3d name (not B3D: one opaque gap).
{ printf 'BB3D\064\001\000\000\001\000\000\000NODE'; head -c 300 /dev/urandom; } > "$tmp/garbage_tag.b3d"
head -c 300 /dev/urandom > "$tmp/garbage.b3d"
bad=0
check() { # expected-status description command...
	want=$1; what=$2; shift 2
	got=$(status "$@")
	if [ "$got" != "$want" ]; then
		echo "roundtrip_text: FAIL: $what: exit status $got, expected $want"; bad=1
	fi
}
check 1 "w3dasm on a text with an unknown field" "$asm" "$tmp/bad.txt" -o "$tmp/x.w3d"
grep -q "^$tmp/bad.txt:5:9: unknown field 'NumVerts'" "$tmp/se" ||
	{ echo "roundtrip_text: FAIL: w3dasm error not file:line:col: $(cat "$tmp/se")"; bad=1; }
[ -e "$tmp/x.w3d" ] && { echo "roundtrip_text: FAIL: w3dasm wrote output for a bad text"; bad=1; }
check 2 "w3dasm without -o" "$asm" "$tmp/bad.txt"
check 2 "w3dasm on a missing file" "$asm" "$tmp/missing.txt" -o "$tmp/x.w3d"
check 2 "w3ddump on a missing file" "$dump" "$tmp/missing.w3d"
check 2 "w3ddump with two modes" "$dump" --json --text "$tmp/garbage.w3d"
check 0 "w3ddump --help" "$dump" --help
check 0 "w3dasm --help" "$asm" --help
for f in "$tmp/garbage.w3d" "$tmp/empty.w3d" "$tmp/garbage_tag.b3d" "$tmp/garbage.b3d"; do
	for m in "" --chunks --json --text; do
		check 0 "w3ddump $m on a damaged file" "$dump" $m "$f"
	done
	"$dump" --text "$f" > "$tmp/g.txt" && "$asm" "$tmp/g.txt" -o "$tmp/g.w3d" && cmp -s "$f" "$tmp/g.w3d" ||
		{ echo "roundtrip_text: FAIL: $f does not round-trip"; bad=1; }
done
[ "$bad" -eq 0 ] || exit 1

# roundtrip FORMAT FILES: dump then assemble every file listed in FILES
# (one a line); echoes the failures, returns their count in $fail.
roundtrip() {
	ext=$1
	fail=0
	while IFS= read -r f; do
		if ! "$dump" --text "$f" > "$tmp/t.txt" 2> "$tmp/err"; then
			echo "roundtrip_text: FAIL: w3ddump --text exited $? on $f"; cat "$tmp/err"
			fail=$((fail + 1)); continue
		fi
		if ! "$asm" "$tmp/t.txt" -o "$tmp/out.$ext" 2> "$tmp/err"; then
			echo "roundtrip_text: FAIL: w3dasm rejected the dump of $f"; head -5 "$tmp/err"
			fail=$((fail + 1)); continue
		fi
		if ! cmp -s "$f" "$tmp/out.$ext"; then
			echo "roundtrip_text: FAIL: $f: assembled bytes differ: $(cmp "$f" "$tmp/out.$ext" 2>&1 | head -1)"
			fail=$((fail + 1)); continue
		fi
	done < "$2"
}

# B3D (../shared/corpus/b3d, or $B3DLINT_CORPUS): every .b3d file, the
# negative ones (not B3D at all) included.
b3d=${B3DLINT_CORPUS:-$root/../shared/corpus/b3d}
if [ -d "$b3d" ]; then
	find "$b3d" -type f -iname '*.b3d' | LC_ALL=C sort > "$tmp/b3d_files"
	roundtrip b3d "$tmp/b3d_files"
	n=$(wc -l < "$tmp/b3d_files")
	if [ "$fail" -ne 0 ]; then
		echo "roundtrip_text: $fail of $n B3D files failed"
		exit 1
	fi
	echo "roundtrip_text: $n B3D files: dump then assemble gives back every byte"
else
	echo "roundtrip_text: B3D skipped: no corpus at $b3d (see README.md, Corpus)"
fi

corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
if [ ! -d "$corpus" ]; then
	echo "roundtrip_text: skipped: no corpus at $corpus (see README.md, Corpus)"
	exit 0
fi
w3d_files "$corpus"
roundtrip w3d "$tmp/files"
if [ "$fail" -ne 0 ]; then
	echo "roundtrip_text: $fail of $total files failed"
	exit 1
fi
echo "roundtrip_text: $total files: dump then assemble gives back every byte"
