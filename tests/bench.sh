#!/bin/sh
# `make bench`, W3D part: w3dlint over the real-file corpus
# (../shared/corpus/w3d, or $W3DLINT_CORPUS), every W3D file named $reps
# times on the command line so that one run reads at least $BENCH_MB MB
# (default 300), against the physical limit of reading those files
# (BENCH_LIMIT, tests/tools/bench_limit.c: read(2) into one buffer and a byte
# sum), all in one run, interleaved: each round runs every configuration
# once, $BENCH_RUNS rounds (default 3, after one warm-up round), and the
# median of each is reported:
#   limit           the physical-limit program
#   -j 1 -q         w3dlint --quiet --no-xref -j 1: MB/s and the ratio to limit
#   -j N -q         the same on N jobs (N = online processors or $BENCH_JOBS):
#                   the scaling -j N / -j 1 (target >= 1.8 on 2 cores)
#   -j 1 json/sarif --format json / sarif to standard output (/dev/null):
#                   against -j 1 -q's (targets: time <= 1.3x, RSS <= 2x)
#   2 x -j 1 -q     two w3dlint -j 1 processes at once, each on half of the
#                   list (needs $BENCH_TIME): the two-process ceiling, what
#                   the machine gives two independent workers; -j N's
#                   scaling is put beside it (and beside N when N is not 2)
# With $BENCH_TIME (tests/tools/bench_time.c's program; make bench sets it) every
# run's CPU time (user + system, all threads) is measured too: steadier than
# wall time when other work loads the cores, and -j N's CPU against -j 1's
# shows what the threads cost beyond the work.  Peak RSS comes from it, else
# from GNU time (/usr/bin/time -f %M) when installed.  Prints
# the load average before and after: other work on the machine spoils the
# figures.  Skips with one line when the corpus is absent.  Timing is
# reported, never asserted.
# Usage: [BENCH_TIME=bench_time] tests/bench.sh W3DLINT BENCH_LIMIT [TOOL_AABTREE_TABLE]
set -u
w3dlint=$1
limit=$2
# The AABTree builder's speed tool (Makefile _bench), when given.
aabtree_table=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
runs=${BENCH_RUNS:-3}
want_mb=${BENCH_MB:-300}
if [ -d "$corpus" ]; then corpus=$(cd "$corpus" && pwd); fi
if [ ! -d "$corpus" ]; then
	echo "bench: skipped: no corpus at $corpus (see README.md, Corpus)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
find "$corpus" -type f \( -iname '*.w3d' -o -iname '*.wlt' -o -iname '*.wht' -o -iname '*.wha' -o -iname '*.wtm' \) |
	LC_ALL=C sort > "$tmp/files"
files=$(wc -l < "$tmp/files")
bytes=$(tr '\n' '\0' < "$tmp/files" | xargs -0 -r stat -c %s | awk '{ s += $1 } END { printf "%d", s }')
if [ "$files" -eq 0 ] || [ "$bytes" -eq 0 ]; then
	echo "bench: skipped: no W3D files under $corpus"
	exit 0
fi
reps=$(awk -v b="$bytes" -v w="$want_mb" 'BEGIN { r = int(w * 1e6 / b); if (r * b < w * 1e6) r++; if (r < 1) r = 1; print r }')
# The file list, $reps times, as the positional parameters.
set --
i=0
while [ "$i" -lt "$reps" ]; do
	while IFS= read -r f; do set -- "$@" "$f"; done < "$tmp/files"
	i=$((i + 1))
done
total_files=$((files * reps))
total_bytes=$(awk -v b="$bytes" -v r="$reps" 'BEGIN { printf "%.0f", b * r }')
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1)
jobs=${BENCH_JOBS:-$cpus}
. "$root/tests/bench_lib.sh"

# twin FILE...: two w3dlint -j 1 -q at once, on the first and the second
# half of the files (bench_time's --also), as $tmp/twin.
twin() {
	half=$(($# / 2))
	i=0
	for f in "$@"; do
		[ "$i" -eq 0 ] && set -- "$w3dlint" --no-progress --no-xref --quiet -j 1
		[ "$i" -eq "$half" ] && set -- "$@" --also "$w3dlint" --no-progress --no-xref --quiet -j 1
		set -- "$@" "$f"
		i=$((i + 1))
	done
	one twin "$@"
}
round() {
	one limit "$limit" "$@"
	one q1 "$w3dlint" --no-progress --no-xref --quiet -j 1 "$@"
	one qn "$w3dlint" --no-progress --no-xref --quiet -j "$jobs" "$@"
	[ -z "$timer" ] || twin "$@"
	one json1 "$w3dlint" --no-progress --no-xref --format json -j 1 "$@"
	one sarif1 "$w3dlint" --no-progress --no-xref --format sarif -j 1 "$@"
}

echo "bench: $files files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB under $corpus, named $reps times: $total_files files, $(awk -v b="$total_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB per run; median of $runs interleaved rounds"
echo "bench: $cpus online processors; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
round "$@"
for n in limit q1 qn twin json1 sarif1; do : > "$tmp/$n"; done
k=0
while [ "$k" -lt "$runs" ]; do
	round "$@"
	k=$((k + 1))
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
# line WHAT NAME: the medians of NAME: wall, MB/s, files/s, peak RSS and,
# when measured, CPU seconds.
line() {
	awk -v what="$1" -v t="$(med "$2" 1)" -v m="$(med "$2" 2)" -v c="$(med "$2" 3)" -v b="$total_bytes" \
	    -v n="$total_files" 'BEGIN {
		if (t <= 0) t = 1e-6
		printf "bench: %-28s %7.3f s %8.1f MB/s %7.0f files/s  peak RSS %7.0f KiB", what, t, b / 1e6 / t, n / t, m
		if (c > 0) printf "  CPU %7.3f s", c
		printf "\n" }'
}
line "limit (read + byte sum)" limit
line "w3dlint -j 1 -q" q1
line "w3dlint -j $jobs -q" qn
[ -z "$timer" ] || line "2 x w3dlint -j 1 -q (halves)" twin
line "w3dlint -j 1 --format json" json1
line "w3dlint -j 1 --format sarif" sarif1
awk -v l="$(med limit 1)" -v q="$(med q1 1)" -v qn="$(med qn 1)" -v j="$(med json1 1)" -v s="$(med sarif1 1)" \
    -v qm="$(med q1 2)" -v jm="$(med json1 2)" -v sm="$(med sarif1 2)" -v jobs="$jobs" 'BEGIN {
	if (q <= 0) q = 1e-6
	if (qn <= 0) qn = 1e-6
	if (qm <= 0) qm = 1
	printf "bench: w3dlint -j 1 -q / limit (MB/s): %.2f (target >= 0.35)\n", l / q
	printf "bench: scaling -j 1 -> -j %s: %.2fx (target >= 1.8x on 2 cores)\n", jobs, q / qn
	printf "bench: json / -q: time %.2fx (target <= 1.3x), peak RSS %.2fx (target <= 2x)\n", j / q, jm / qm
	printf "bench: sarif / -q: time %.2fx (target <= 1.3x), peak RSS %.2fx (target <= 2x)\n", s / q, sm / qm
}'
if [ -n "$timer" ]; then
	awk -v q="$(med q1 1)" -v qn="$(med qn 1)" -v tw="$(med twin 1)" -v c1="$(med q1 3)" -v cn="$(med qn 3)" \
	    -v ct="$(med twin 3)" -v jobs="$jobs" 'BEGIN {
		if (qn <= 0) qn = 1e-6
		if (tw <= 0) tw = 1e-6
		if (c1 <= 0) c1 = 1e-6
		printf "bench: two-process ceiling: one -j 1 / two -j 1 on halves at once: %.2fx; -j %s reaches %.0f%% of it\n", q / tw, jobs, 100 * (q / qn) / (q / tw)
		printf "bench: CPU seconds against -j 1: -j %s %.2fx, two processes %.2fx (above 1: the same work costs more CPU side by side)\n", jobs, cn / c1, ct / c1
	}'
elif [ "$have_time" -ne 1 ]; then
	echo "bench: peak RSS: not measured (/usr/bin/time is missing: apt-get install time)"
fi
# AABTree builder: triangles/s over every corpus mesh with a tree
# (building only, thread CPU time, best of 20 runs).
if [ -n "$aabtree_table" ]; then
	"$aabtree_table" --bench --runs 20 "$corpus"
fi
