# tests/bench_lib.sh - the run timer shared by the bench scripts (bench.sh,
# bench_b3d.sh).  Source it after making $tmp.  With $BENCH_TIME naming
# tests/tools/bench_time.c's program (make bench sets it), every run's wall time,
# CPU time (user + system, all threads, from wait4) and peak RSS come from
# it; without, wall time from date +%s.%N and peak RSS from GNU time
# (/usr/bin/time -f %M) when installed, CPU time 0 (not measured).

have_time=0
[ -x /usr/bin/time ] && have_time=1
timer=${BENCH_TIME:-}

now() { date +%s.%N; }
# one NAME CMD...: runs CMD once (output discarded); appends "WALL RSS CPU"
# (seconds, KiB (0 when not measured), seconds (0 when not measured)) to
# $tmp/NAME.
one() {
	name=$1
	shift
	if [ -n "$timer" ]; then
		"$timer" "$@" | awk '{ printf "%.6f %d %.6f\n", $1, $4, $2 + $3 }' >> "$tmp/$name"
		return
	fi
	t0=$(now)
	if [ "$have_time" -eq 1 ]; then
		/usr/bin/time -f %M -o "$tmp/rss" "$@" > /dev/null 2>&1
	else
		"$@" > /dev/null 2>&1
		echo 0 > "$tmp/rss"
	fi
	t1=$(now)
	awk -v a="$t0" -v c="$t1" -v m="$(tail -n 1 "$tmp/rss")" 'BEGIN { printf "%.6f %d 0\n", c - a, m }' >> "$tmp/$name"
}
# med NAME COLUMN: the median of a column of $tmp/NAME.
med() { sort -g -k "$2" "$tmp/$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
