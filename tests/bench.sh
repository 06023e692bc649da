#!/bin/sh
# `make bench`: throughput of `w3dlint --quiet` over the real-file corpus
# (../shared/corpus/w3d, or $W3DLINT_CORPUS) on one core: MB/s, files/s
# (best of $BENCH_RUNS runs, default 5, after one warm-up run) and peak RSS
# (GNU time -v when /usr/bin/time is installed).  Skips with one line when
# the corpus is absent.  Timing is reported, never asserted.
# Usage: tests/bench.sh W3DLINT
set -u
w3dlint=$1
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
runs=${BENCH_RUNS:-5}
if [ -d "$corpus" ]; then corpus=$(cd "$corpus" && pwd); fi
if [ ! -d "$corpus" ]; then
	echo "bench: skipped: no corpus at $corpus (see README.md, Corpus)"
	exit 0
fi
set -- -type f \( -iname '*.w3d' -o -iname '*.wlt' -o -iname '*.wht' -o -iname '*.wha' -o -iname '*.wtm' \)
files=$(find "$corpus" "$@" | wc -l)
bytes=$(find "$corpus" "$@" -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s }')
if [ "$files" -eq 0 ]; then
	echo "bench: skipped: no W3D files under $corpus"
	exit 0
fi
pin=""
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	pin="taskset -c 0"
fi
run() { $pin "$w3dlint" --quiet --no-progress "$corpus" > /dev/null 2>&1; }

now() { date +%s.%N; }
run
best=""
i=0
while [ "$i" -lt "$runs" ]; do
	t0=$(now)
	run
	t1=$(now)
	best=$(awk -v a="$t0" -v b="$t1" -v best="$best" 'BEGIN { t = b - a; if (best == "" || t < best) best = t; printf "%.6f", best }')
	i=$((i + 1))
done
echo "bench: $files files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB, ${pin:+one core ($pin), }best of $runs runs"
awk -v t="$best" -v b="$bytes" -v n="$files" 'BEGIN {
	if (t <= 0) t = 1e-6
	printf "bench: %.3f s  %.1f MB/s  %.0f files/s\n", t, b / 1e6 / t, n / t }'
if [ -x /usr/bin/time ]; then
	/usr/bin/time -v $pin "$w3dlint" --quiet --no-progress "$corpus" > /dev/null 2> "${TMPDIR:-/tmp}/w3dlint-bench.$$"
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "${TMPDIR:-/tmp}/w3dlint-bench.$$")
	rm -f "${TMPDIR:-/tmp}/w3dlint-bench.$$"
	echo "bench: peak RSS ${rss:-?} KiB"
else
	echo "bench: peak RSS: not measured (/usr/bin/time is missing: apt-get install time)"
fi
