#!/bin/sh
# Runs the defect generator (tests/tools/defects.c) over the valid models of
# corpus/valid (assembled with w3dasm) and over the real-file corpus
# (../shared/corpus/w3d, or $W3DLINT_CORPUS; skipped with one line when
# absent).  Fails when an injected defect is not reported at its place or a
# fixable one is not repaired.
# Usage: tests/defects.sh DEFECTS W3DASM
set -u
defects=$1
asm=$2
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
for txt in "$root"/corpus/valid/*.w3d.txt; do
	b=$(basename "$txt" .w3d.txt)
	"$asm" "$txt" -o "$tmp/$b.w3d" || fail=1
done
echo "defects: corpus/valid"
"$defects" "$tmp" || fail=1
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
if [ -d "$corpus" ]; then
	echo "defects: $corpus"
	"$defects" "$corpus" || fail=1
else
	echo "defects: skipped the real corpus: none at $corpus"
fi
[ "$fail" -eq 0 ]
