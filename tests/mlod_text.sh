#!/bin/sh
# The MLOD text form (issue 31 item 2, textform/p3d/mlod.h): every MLOD file
# of ../shared/corpus/p3d and every MLOD model entry of the corpus archives
# dumps as `mlod:` (w3ddump --text) and w3dasm writes it back byte for byte;
# an edited face texture assembles and w3ddump reads the new name back; an
# ODOL file's text form is the read-only chunk form, which w3dasm refuses
# with the reason (status 1, no output).  Skipped with one line without the
# corpus (textform/p3d's unit tests, tests/textform/p3d/test_textform.c, need none).
# Usage: tests/mlod_text.sh W3DDUMP W3DASM
set -u
w3ddump=$1
w3dasm=$2
name=mlod_text
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/../shared/corpus
if [ ! -d "$corpus/p3d" ]; then
	echo "$name: skipped: no corpus at $corpus/p3d"
	exit 0
fi
# the MLOD files, then the MLOD entries of the archives (ARCHIVE:PATH)
find "$corpus/p3d" -iname '*.p3d' -type f | LC_ALL=C sort | while IFS= read -r f; do
	head -c 4 "$f" | grep -q MLOD && printf '%s\n' "$f"
done > "$tmp/mlod"
find "$corpus/archives" -iname '*.pbo' -type f 2>/dev/null | LC_ALL=C sort | while IFS= read -r a; do
	"$w3ddump" "$a" 2>/dev/null | sed -n 's/^  0x[0-9A-F]* *[0-9]* \(.*\.[pP]3[dD]\)$/\1/p' | while IFS= read -r e; do
		"$w3ddump" --text "$a:$e" 2>/dev/null | grep -q '^mlod:' && printf '%s:%s\n' "$a" "$e"
	done
done > "$tmp/entries"
n=0
while IFS= read -r f; do
	n=$((n + 1))
	"$w3ddump" --text "$f" > "$tmp/t.txt" 2>/dev/null
	if ! grep -q '^mlod:' "$tmp/t.txt"; then
		bad "$f: no MLOD text form"
		continue
	fi
	rm -f "$tmp/t.p3d"
	if ! "$w3dasm" "$tmp/t.txt" -o "$tmp/t.p3d" 2> "$tmp/err"; then
		bad "$f: w3dasm refuses its text form: $(cat "$tmp/err")"
	elif ! cmp -s "$tmp/t.p3d" "$f"; then
		bad "$f: the assembled bytes differ"
	fi
done < "$tmp/mlod"
m=0
while IFS= read -r e; do
	m=$((m + 1))
	"$w3ddump" --text "$e" > "$tmp/e.txt" 2>/dev/null
	"$w3dasm" "$tmp/e.txt" -o "$tmp/e.p3d" 2> "$tmp/err" && "$w3ddump" --text "$tmp/e.p3d" 2>/dev/null |
		sed 1,2d > "$tmp/e2.txt" && sed 1,2d "$tmp/e.txt" | cmp -s - "$tmp/e2.txt" ||
		bad "$e: the archive entry's text form does not assemble to the same model"
done < "$tmp/entries"
if [ "$n" -eq 0 ]; then
	bad "no MLOD file under $corpus/p3d"
else
	ok "$n MLOD files and $m MLOD archive entries: the text form assembles to the same bytes"
fi
# An edit: the first face's texture renamed.
f=$(head -n 1 "$tmp/mlod")
"$w3ddump" --text "$f" > "$tmp/t.txt" 2>/dev/null
sed '0,/texture: "[^"]*"/s//texture: "data\\\\renamed_co.paa"/' "$tmp/t.txt" > "$tmp/edit.txt"
if "$w3dasm" "$tmp/edit.txt" -o "$tmp/edit.p3d" 2>/dev/null &&
	"$w3ddump" --text "$tmp/edit.p3d" | grep -q 'texture: "data\\\\renamed_co.paa"' && ! cmp -s "$tmp/edit.p3d" "$f"; then
	ok "an edited face texture assembles and reads back"
else
	bad "the edited texture of $f did not come back"
fi
# Near miss: an ODOL file keeps the read-only chunk form.
odol=$(find "$corpus/p3d" -iname '*.p3d' -type f | LC_ALL=C sort | while IFS= read -r g; do
	head -c 4 "$g" | grep -q ODOL && { printf '%s\n' "$g"; break; }; done)
if [ -n "$odol" ]; then
	"$w3ddump" --text "$odol" > "$tmp/o.txt" 2>/dev/null
	rm -f "$tmp/o.p3d"
	"$w3dasm" "$tmp/o.txt" -o "$tmp/o.p3d" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -e "$tmp/o.p3d" ] && ! grep -q '^mlod:' "$tmp/o.txt" && grep -q "read-only" "$tmp/err"; then
		ok "an ODOL file: the read-only chunk form, refused by w3dasm with the reason"
	else
		bad "ODOL $odol: w3dasm status $rc: $(cat "$tmp/err")"
	fi
fi
[ "$fail" -eq 0 ] && echo "$name: all passed"
exit "$fail"
