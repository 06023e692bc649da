#!/bin/sh
# `make bench`, size scaling: w3dlint -q --no-xref -j 1 over generated
# inputs of 1, 10 and 50 MB of each kind (tests/tools/gen_scale.c: zeros of each
# format, many empty chunks (W3D, B3D), many HLOD sub-objects, a P3D with 16
# LZO blocks), made in a temporary folder and removed after.
#
# Each run is timed by tests/timed_run.py: the median over BENCH_SCALE_RUNS
# runs (default 3, after one run whose report is kept for the status; five
# times as many for the start-up and three times for inputs under 5 MB,
# whose few milliseconds a busy moment would swamp) of the
# elapsed time (wall clock, no 10 ms steps) and of the CPU time (user +
# system, from the child's rusage), and the largest peak RSS.  Start-up is
# shown on its own: per format, the same over an empty file.  Per file:
# peak RSS in bytes per input byte (as measured, and above the start-up's
# peak RSS: the program's own), elapsed seconds per MB (as measured, and
# above the start-up's elapsed time), CPU seconds per MB above the
# start-up's, and per kind the ratio of the largest to the smallest figure
# over the sizes (flat: within 2x).  Figures are reported, never asserted.
# BENCH_SCALE_SIZES overrides the sizes (MB, default "1 10 50").
# Usage: tests/bench_scale.sh W3DLINT GEN_SCALE
set -u
w3dlint=$1
gen=$2
sizes=${BENCH_SCALE_SIZES:-1 10 50}
runs=${BENCH_SCALE_RUNS:-3}
timed=$(dirname "$0")/timed_run.py
if [ ! -x /usr/bin/time ] || ! command -v python3 >/dev/null 2>&1; then
	echo "bench scale: skipped: no /usr/bin/time (GNU time, for the peak RSS) or no python3 (tests/timed_run.py)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# lint FILE [TIMES]: the figures of FILE over TIMES * $runs runs
lint() {
	python3 "$timed" $((runs * ${2:-1})) "$w3dlint" -q --no-xref --no-progress -j 1 "$1"
}
echo "bench scale: median of $runs runs ($((runs * 5)) for the start-up, $((runs * 3)) under 5 MB); \"start-up\": the same over an empty file of the format"
# the harness's own cost (fork, GNU time, exec) is in every figure alike:
# shown once, over /bin/true, so that the start-up's share is plain
set -- $(python3 "$timed" $((runs * 5)) /bin/true)
printf 'bench scale: harness (/bin/true through tests/timed_run.py): %.4f s, cpu %.4f s, peak RSS %d KiB\n' "$1" "$2" "$3"
printf 'bench scale: %-10s %5s %9s %9s %8s %8s %8s %8s %s\n' kind MB "RSS/byte" "above" "s/MB" "above" \
	"cpu/MB" "s" status
for kind in w3d-zeros w3d-empty w3d-hlod b3d-zeros b3d-empty p3d-zeros p3d-lzo; do
	case $kind in w3d-*) ext=w3d ;; b3d-*) ext=b3d ;; *) ext=p3d ;; esac
	: > "$tmp/figures"
	: > "$tmp/empty.$ext"
	# start-up: elapsed, CPU, peak RSS (KiB) of linting an empty file
	set -- $(lint "$tmp/empty.$ext" 5)
	t0=$1 c0=$2 kb0=$3
	printf 'bench scale: %-10s start-up %.4f s, cpu %.4f s, peak RSS %d KiB\n' "$kind" "$t0" "$c0" "$kb0"
	for mb in $sizes; do
		f="$tmp/$kind-$mb.$ext"
		if ! "$gen" "$kind" $((mb * 1000000)) "$f"; then
			echo "bench scale: $kind $mb MB: could not be generated"
			continue
		fi
		bytes=$(stat -c %s "$f")
		"$w3dlint" -q --no-xref --no-progress -j 1 "$f" > "$tmp/out" 2>&1
		oom=""
		grep -q 'out-of-memory' "$tmp/out" && oom=" out-of-memory"
		times=1
		[ "$mb" -lt 5 ] && times=3
		lint "$f" $times | awk -v k="$kind" -v mb="$mb" -v b="$bytes" -v oom="$oom" -v kb0="$kb0" \
			-v t0="$t0" -v c0="$c0" -v fig="$tmp/figures" '{
			m = b / 1e6
			rss = $3 * 1024 / b; above = ($3 - kb0) * 1024 / b
			spm = $1 / m; sabove = ($1 - t0) / m; cpm = ($2 - c0) / m
			printf "bench scale: %-10s %5d %9.1f %9.1f %8.4f %8.4f %8.4f %8.3f exit %d%s\n", k, mb, rss,
				above, spm, sabove, cpm, $1, $4, oom
			printf "%f %f %f %f %f\n", rss, above, spm, sabove, cpm >> fig
		}'
		rm -f "$f"
	done
	awk -v k="$kind" 'function r(lo, hi) { return lo > 0 ? hi / lo : 0 }
		NR == 1 { for (i = 1; i <= 5; i++) lo[i] = hi[i] = $i }
		{ for (i = 1; i <= 5; i++) { if ($i < lo[i]) lo[i] = $i; if ($i > hi[i]) hi[i] = $i } }
		END { if (NR > 1) printf "bench scale: %-10s flatness (max/min over sizes): RSS/byte %.2fx, above %.2fx, s/MB %.2fx, above start-up %.2fx, cpu/MB %.2fx\n",
			k, r(lo[1], hi[1]), r(lo[2], hi[2]), r(lo[3], hi[3]), r(lo[4], hi[4]), r(lo[5], hi[5]) }' "$tmp/figures"
done
