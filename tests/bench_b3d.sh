#!/bin/sh
# `make bench`, B3D part: w3dlint over the B3D corpus (../shared/corpus/b3d,
# or $W3DLINT_B3D_CORPUS) against `assimp info -r` (Debian assimp-utils, the
# reference importer; -r: raw import, no post-processing) on the same files,
# in one run: files/s and MB/s of each, and the ratio (target >= 20).
# w3dlint runs once over all the files with -j 1 (one core, as assimp uses);
# assimp runs once per file (it takes one file), each under `timeout` and a
# memory limit, as notes/b3d_reference.md §6 advises (crafted sizes make
# 5.2.5 allocate gigabytes).  Best of $BENCH_RUNS (default 3) after a
# warm-up.  Timing is reported, never asserted.  Skips with one line when the
# corpus or assimp is absent.
# Usage: tests/bench_b3d.sh W3DLINT
set -u
w3dlint=$1
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_B3D_CORPUS:-$root/../shared/corpus/b3d}
runs=${BENCH_RUNS:-3}
if [ ! -d "$corpus" ]; then
	echo "bench b3d: skipped: no corpus at $corpus"
	exit 0
fi
if ! command -v assimp >/dev/null 2>&1; then
	echo "bench b3d: skipped: assimp not installed (sh scripts/setup-deps.sh bench)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
find "$corpus" -type f -iname '*.b3d' | LC_ALL=C sort > "$tmp/files"
files=$(wc -l < "$tmp/files")
bytes=$(tr '\n' '\0' < "$tmp/files" | xargs -0 stat -c %s | awk '{ s += $1 } END { printf "%d", s }')
if [ "$files" -eq 0 ]; then
	echo "bench b3d: skipped: no .b3d files under $corpus"
	exit 0
fi
now() { date +%s.%N; }
lint_once() { tr '\n' '\0' < "$tmp/files" | xargs -0 "$w3dlint" --quiet --no-progress --no-xref -j 1 > /dev/null 2>&1; }
assimp_once() {
	while IFS= read -r f; do
		(ulimit -v 2000000; timeout 10 assimp info "$f" -r > /dev/null 2>&1)
	done < "$tmp/files"
}
best() {
	"$1"
	b=""
	k=0
	while [ "$k" -lt "$runs" ]; do
		t0=$(now)
		"$1"
		t1=$(now)
		b=$(awk -v a="$t0" -v c="$t1" -v b="$b" 'BEGIN { t = c - a; if (b == "" || t < b) b = t; printf "%.6f", b }')
		k=$((k + 1))
	done
	echo "$b"
}
tl=$(best lint_once)
ta=$(best assimp_once)
awk -v f="$files" -v b="$bytes" -v tl="$tl" -v ta="$ta" 'BEGIN {
	printf "bench b3d: %d files, %.1f MB\n", f, b / 1e6
	printf "bench b3d: w3dlint -j 1: %.3f s, %.0f files/s, %.1f MB/s\n", tl, f / tl, b / 1e6 / tl
	printf "bench b3d: assimp info -r: %.3f s, %.0f files/s, %.1f MB/s\n", ta, f / ta, b / 1e6 / ta
	printf "bench b3d: ratio (files/s w3dlint / assimp): %.1fx (target >= 20x)\n", ta / tl
}'
