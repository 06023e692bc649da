#!/bin/sh
# Builds the fuzz seeds in OUT (make test replays them; make fuzz starts
# from them), never from ../shared/corpus:
#   OUT/bin/   gen_demo's models (tests/tools/gen_demo.c), every text case of
#              the project's corpus/ (corpus/**/*.txt) assembled with w3dasm
#              (a text that does not assemble is left out with a note), and
#              the P3D files of gen_p3d_seeds (tests/tools/gen_p3d_seeds.c: ODOL of
#              every version gate, both compression kinds, both sides of
#              the 1024-byte rule; MLOD) when GEN_P3D is given
#   OUT/text/  the text form (w3ddump --text) of every file of OUT/bin, and
#              the corpus/ text cases themselves (the textform target reads
#              its input as binary and as text)
# Usage: tests/fuzz/seeds.sh OUT GEN_DEMO W3DASM W3DDUMP [GEN_P3D]
set -eu
out=$1 gen_demo=$2 w3dasm=$3 w3ddump=$4 gen_p3d=${5:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out/bin" "$out/text" "$out/demo"
"$gen_demo" "$out/demo" > /dev/null
for f in "$out"/demo/*; do
	cp "$f" "$out/bin/demo_$(basename "$f")"
done
rm -rf "$out/demo"
if [ -n "$gen_p3d" ]; then
	mkdir -p "$out/p3d"
	"$gen_p3d" "$out/p3d"
	for f in "$out"/p3d/*; do
		cp "$f" "$out/bin/p3d_$(basename "$f")"
	done
	rm -rf "$out/p3d"
fi
skipped=0
find "$root/corpus" -type f -name '*.txt' 2>/dev/null | LC_ALL=C sort > "$out/cases"
while IFS= read -r t; do
	rel=${t#"$root"/corpus/}
	name=corpus_$(printf '%s' "$rel" | tr '/' '_')
	name=${name%.txt}
	if "$w3dasm" "$t" -o "$out/bin/$name" 2> "$out/err"; then
		cp "$t" "$out/text/$name.txt"
	else
		skipped=$((skipped + 1))
		echo "fuzz seeds: note: $rel does not assemble, left out: $(head -n 1 "$out/err")"
		rm -f "$out/bin/$name"
	fi
done < "$out/cases"
rm -f "$out/cases" "$out/err"
for f in "$out"/bin/*; do
	"$w3ddump" --text "$f" > "$out/text/$(basename "$f").dump.txt"
done
echo "fuzz seeds: $(ls "$out/bin" | wc -l) files, $(ls "$out/text" | wc -l) texts in $out ($skipped corpus case(s) left out)"
