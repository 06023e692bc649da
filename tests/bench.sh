#!/bin/sh
# `make bench`: throughput of `w3dlint --quiet` over the real-file corpus
# (../shared/corpus/w3d, or $W3DLINT_CORPUS), named $reps times on the
# command line so that one run reads at least $BENCH_MB MB (default 200):
# MB/s and files/s with -j 1 (one core) and with -j N (N = online
# processors, or $BENCH_JOBS), each the best of $BENCH_RUNS runs (default 5)
# after one warm-up run, the scaling ratio (time -j 1 / time -j N; the
# target is 1.8 or more on 2 cores), and the peak RSS of the -j N run (GNU
# time -v when /usr/bin/time is installed).  Prints the load average first:
# other work on the machine lowers the ratio.  Skips with one line when the
# corpus is absent.  Timing is reported, never asserted.
# Usage: tests/bench.sh W3DLINT [TOOL_AABTREE_TABLE]
set -u
w3dlint=$1
# The AABTree builder's speed tool (Makefile _bench), when given.
aabtree_table=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
runs=${BENCH_RUNS:-5}
# At least 200 MB (issue 3); 1 GB by default so that process start-up and
# the serial file walk (a few ms) do not dominate the scaling ratio.
want_mb=${BENCH_MB:-1000}
if [ -d "$corpus" ]; then corpus=$(cd "$corpus" && pwd); fi
if [ ! -d "$corpus" ]; then
	echo "bench: skipped: no corpus at $corpus (see README.md, Corpus)"
	exit 0
fi
set -- -type f \( -iname '*.w3d' -o -iname '*.wlt' -o -iname '*.wht' -o -iname '*.wha' -o -iname '*.wtm' \)
files=$(find "$corpus" "$@" | wc -l)
bytes=$(find "$corpus" "$@" -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s }')
if [ "$files" -eq 0 ] || [ "$bytes" -eq 0 ]; then
	echo "bench: skipped: no W3D files under $corpus"
	exit 0
fi
reps=$(awk -v b="$bytes" -v w="$want_mb" 'BEGIN { r = int(w * 1e6 / b); if (r * b < w * 1e6) r++; if (r < 1) r = 1; print r }')
args=""
i=0
while [ "$i" -lt "$reps" ]; do
	args="$args $corpus"
	i=$((i + 1))
done
total_files=$((files * reps))
total_bytes=$(awk -v b="$bytes" -v r="$reps" 'BEGIN { printf "%.0f", b * r }')
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1)
jobs=${BENCH_JOBS:-$cpus}

now() { date +%s.%N; }
# best JOBS: prints the best wall time of $runs runs of -j JOBS, in seconds.
best() {
	# shellcheck disable=SC2086
	"$w3dlint" --quiet --no-progress -j "$1" $args > /dev/null 2>&1
	b=""
	k=0
	while [ "$k" -lt "$runs" ]; do
		t0=$(now)
		# shellcheck disable=SC2086
		"$w3dlint" --quiet --no-progress -j "$1" $args > /dev/null 2>&1
		t1=$(now)
		b=$(awk -v a="$t0" -v c="$t1" -v b="$b" 'BEGIN { t = c - a; if (b == "" || t < b) b = t; printf "%.6f", b }')
		k=$((k + 1))
	done
	echo "$b"
}
line() {
	awk -v t="$2" -v b="$total_bytes" -v n="$total_files" -v j="$1" 'BEGIN {
		if (t <= 0) t = 1e-6
		printf "bench: -j %-3s %7.3f s  %8.1f MB/s  %8.0f files/s\n", j, t, b / 1e6 / t, n / t }'
}

echo "bench: $files files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB under $corpus, named $reps times: $total_files files, $(awk -v b="$total_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB per run; best of $runs runs"
echo "bench: $cpus online processors; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
t1=$(best 1)
line 1 "$t1"
tn=$(best "$jobs")
line "$jobs" "$tn"
awk -v a="$t1" -v b="$tn" -v j="$jobs" 'BEGIN {
	if (b <= 0) b = 1e-6
	printf "bench: scaling -j 1 -> -j %s: %.2fx (target >= 1.8x on 2 cores)\n", j, a / b }'
if [ -x /usr/bin/time ]; then
	tmp="${TMPDIR:-/tmp}/w3dlint-bench.$$"
	# shellcheck disable=SC2086
	/usr/bin/time -v "$w3dlint" --quiet --no-progress -j "$jobs" $args > /dev/null 2> "$tmp"
	rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp")
	rm -f "$tmp"
	echo "bench: peak RSS with -j $jobs: ${rss:-?} KiB"
else
	echo "bench: peak RSS: not measured (/usr/bin/time is missing: apt-get install time)"
fi
# AABTree builder: triangles/s over every corpus mesh with a tree
# (building only, thread CPU time, best of 20 runs).
if [ -n "$aabtree_table" ]; then
	"$aabtree_table" --bench --runs 20 "$corpus"
fi
