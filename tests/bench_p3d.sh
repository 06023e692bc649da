#!/bin/sh
# `make bench`, P3D part: w3dlint -j 1 and -j N over the P3D corpus
# (../shared/corpus/p3d, or $W3DLINT_P3D_CORPUS): MB/s and files/s, best of
# $BENCH_RUNS (default 5) after a warm-up.  Timing is reported, never
# asserted.  Skips with one line when the corpus is absent.
# Usage: tests/bench_p3d.sh W3DLINT
set -u
w3dlint=$1
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_P3D_CORPUS:-$root/../shared/corpus/p3d}
runs=${BENCH_RUNS:-5}
if [ ! -d "$corpus" ]; then
	echo "bench p3d: skipped: no corpus at $corpus"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
find "$corpus" -type f -iname '*.p3d' | LC_ALL=C sort > "$tmp/files"
files=$(wc -l < "$tmp/files")
if [ "$files" -eq 0 ]; then
	echo "bench p3d: skipped: no .p3d files under $corpus"
	exit 0
fi
bytes=$(tr '\n' '\0' < "$tmp/files" | xargs -0 stat -c %s | awk '{ s += $1 } END { printf "%d", s }')
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1)
now() { date +%s.%N; }
once() { tr '\n' '\0' < "$tmp/files" | xargs -0 "$w3dlint" --quiet --no-progress --no-xref -j "$1" > /dev/null 2>&1; }
best() {
	once "$1"
	b=""
	k=0
	while [ "$k" -lt "$runs" ]; do
		t0=$(now)
		once "$1"
		t1=$(now)
		b=$(awk -v a="$t0" -v c="$t1" -v b="$b" 'BEGIN { t = c - a; if (b == "" || t < b) b = t; printf "%.6f", b }')
		k=$((k + 1))
	done
	echo "$b"
}
t1=$(best 1)
tn=$(best "$cpus")
awk -v f="$files" -v b="$bytes" -v t1="$t1" -v tn="$tn" -v n="$cpus" 'BEGIN {
	printf "bench p3d: %d files, %.1f MB\n", f, b / 1e6
	printf "bench p3d: -j 1: %.3f s, %.0f files/s, %.1f MB/s\n", t1, f / t1, b / 1e6 / t1
	printf "bench p3d: -j %d: %.3f s, %.0f files/s, %.1f MB/s\n", n, tn, f / tn, b / 1e6 / tn
}'
