#!/bin/sh
# `make bench`, B3D part: w3dlint over the B3D corpus (../shared/corpus/b3d,
# or $W3DLINT_B3D_CORPUS) against `assimp info -r` (Debian assimp-utils, the
# reference importer; -r: raw import, no post-processing) on the same files:
# files/s and MB/s of each, and the ratio (target >= 20).
# w3dlint runs over all the files at once with -j 1 (one core, as assimp
# uses; start-up included), $BENCH_RUNS times (default 7) after a warm-up,
# interleaved with the physical-limit program when given (BENCH_LIMIT,
# tests/tools/bench_limit.c: read + byte sum of the same files) as tests/bench.sh
# does, and the median of each is reported (a run takes ~0.05 s: one run
# is noise): wall time, and CPU time (user + system) when $BENCH_TIME names
# tests/tools/bench_time.c's program (make bench does; microseconds from wait4;
# steadier than wall time on a loaded machine), else wall time from
# date +%s.%N around each process.
# assimp runs once per file (it takes one file), each under `timeout` and a
# memory limit, as notes/b3d_reference.md §6 advises (crafted sizes make
# 5.2.5 allocate gigabytes): the median of $BENCH_ASSIMP_RUNS (default 3),
# after the w3dlint rounds (a pass takes seconds).
# Timing is reported, never asserted.  Skips with one line when the corpus
# is absent; without assimp only w3dlint's figures are printed.
# Usage: [BENCH_TIME=bench_time] tests/bench_b3d.sh W3DLINT [BENCH_LIMIT]
set -u
w3dlint=$1
limit=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_B3D_CORPUS:-$root/../shared/corpus/b3d}
runs=${BENCH_RUNS:-7}
assimp_runs=${BENCH_ASSIMP_RUNS:-3}
if [ ! -d "$corpus" ]; then
	echo "bench b3d: skipped: no corpus at $corpus"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
find "$corpus" -type f -iname '*.b3d' | LC_ALL=C sort > "$tmp/files"
files=$(wc -l < "$tmp/files")
bytes=$(tr '\n' '\0' < "$tmp/files" | xargs -0 -r stat -c %s | awk '{ s += $1 } END { printf "%d", s }')
if [ "$files" -eq 0 ]; then
	echo "bench b3d: skipped: no .b3d files under $corpus"
	exit 0
fi
# The files as the positional parameters: one process, no pipeline timed.
set --
while IFS= read -r f; do set -- "$@" "$f"; done < "$tmp/files"

. "$root/tests/bench_lib.sh"
round() {
	[ -z "$limit" ] || one limit "$limit" "$@"
	one lint "$w3dlint" --quiet --no-progress --no-xref -j 1 "$@"
}
# One assimp pass over the files, as a command (sh -c) so that the timer
# can run it.
assimp_pass='for f in "$@"; do (ulimit -v 2000000; timeout 10 assimp info "$f" -r > /dev/null 2>&1); done'

# rate WHAT NAME: wall (and CPU) median of NAME as seconds, files/s, MB/s.
rate() {
	awk -v what="$1" -v t="$(med "$2" 1)" -v c="$(med "$2" 3)" -v f="$files" -v b="$bytes" 'BEGIN {
		if (t <= 0) t = 1e-6
		printf "bench b3d: %-24s %.4f s, %.0f files/s, %.1f MB/s", what, t, f / t, b / 1e6 / t
		if (c > 0) printf "; CPU %.4f s, %.1f MB/s per CPU second", c, b / 1e6 / c
		printf "\n" }'
}

echo "bench b3d: $files files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB; median of $runs interleaved runs; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
round "$@"
: > "$tmp/limit"
: > "$tmp/lint"
k=0
while [ "$k" -lt "$runs" ]; do
	round "$@"
	k=$((k + 1))
done
tl=$(med lint 1)
[ -z "$limit" ] || rate "limit (read + byte sum):" limit
rate "w3dlint -j 1:" lint
[ -z "$limit" ] || awk -v l="$(med limit 1)" -v t="$tl" 'BEGIN { if (t <= 0) t = 1e-6
	printf "bench b3d: w3dlint -j 1 / limit (MB/s): %.2f\n", l / t }'
if ! command -v assimp >/dev/null 2>&1; then
	echo "bench b3d: assimp: skipped: not installed (sh scripts/setup-deps.sh bench)"
	exit 0
fi
k=0
while [ "$k" -lt "$assimp_runs" ]; do
	one assimp sh -c "$assimp_pass" sh "$@"
	k=$((k + 1))
done
ta=$(med assimp 1)
rate "assimp info -r:" assimp
echo "bench b3d: load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
awk -v tl="$tl" -v ta="$ta" 'BEGIN {
	if (tl <= 0) tl = 1e-6
	printf "bench b3d: ratio (files/s w3dlint / assimp): %.1fx (target >= 20x)\n", ta / tl
}'
