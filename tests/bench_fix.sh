#!/bin/sh
# tests/bench_fix.sh W3DLINT W3DFIX BENCH_TIME: w3dfix's cost beside
# w3dlint's over each format folder of ../shared/corpus (make bench).  Since
# w3dfix counts what w3dlint counts (issue 30) it lints every file first
# (the lint pass, cli/lint_pass.h) and then lints again inside each repair
# step (fix/driver.c): this bench says what that costs.  Per folder, best
# of BENCH_FIX_RUNS (default 3) runs, CPU seconds (user + sys: what a
# loaded machine spoils least) and wall seconds, one job (-j 1):
#   w3dlint -j 1 FOLDER               the lint alone
#   w3dfix -n -j 1 FOLDER             lint pass + repairs planned, nothing written
#   w3dfix -o OUT -j 1 FOLDER         the same, every file written
# and the ratio of w3dfix -n to w3dlint.  Timing is reported, never
# asserted.  Skipped with one line without the corpus.
set -u
if [ $# -ne 3 ]; then
	echo "usage: tests/bench_fix.sh W3DLINT W3DFIX BENCH_TIME" >&2
	exit 2
fi
lint=$1
fix=$2
bt=$3
name=bench_fix
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS_ROOT:-$root/../shared/corpus}
if [ ! -d "$corpus" ]; then
	echo "$name: skipped: no corpus at $corpus"
	exit 0
fi
if [ ! -x "$bt" ]; then
	echo "$name: skipped: no timer $bt (make bench builds it)"
	exit 0
fi
runs=${BENCH_FIX_RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
measure() { # label command...: prints "CPU WALL MAXRSS" of the best run
	bestcpu=
	i=0
	while [ "$i" -lt "$runs" ]; do
		rm -rf "$tmp/out"
		r=$("$bt" "$@")
		cpu=$(echo "$r" | awk '{ printf "%.3f", $2 + $3 }')
		if [ -z "$bestcpu" ] || awk -v a="$cpu" -v b="$bestcpu" 'BEGIN { exit !(a < b) }'; then
			bestcpu=$cpu
			bestwall=$(echo "$r" | awk '{ print $1 }')
			bestrss=$(echo "$r" | awk '{ print $4 }')
		fi
		i=$((i + 1))
	done
	echo "$bestcpu $bestwall $bestrss"
}
printf '%-10s %8s %12s %12s %12s %8s\n' folder MB "w3dlint cpu" "w3dfix -n" "w3dfix -o" "-n/lint"
for d in w3d b3d p3d; do
	f=$corpus/$d
	[ -d "$f" ] || continue
	mb=$(du -sk "$f" | awk '{ printf "%.1f", $1 / 1024 }')
	l=$(measure "$lint" --no-progress -q -j 1 "$f")
	n=$(measure "$fix" --no-progress -q -n -j 1 "$f")
	o=$(measure "$fix" --no-progress -q -j 1 -o "$tmp/out" "$f")
	lc=${l%% *}
	nc=${n%% *}
	oc=${o%% *}
	ratio=$(awk -v a="$nc" -v b="$lc" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
	printf '%-10s %8s %11ss %11ss %11ss %8s\n' "$d" "$mb" "$lc" "$nc" "$oc" "$ratio"
	echo "$name: $d: w3dlint $lc s CPU ($(echo "$l" | cut -d' ' -f2) s wall, $(echo "$l" | cut -d' ' -f3) KiB), w3dfix -n $nc s ($(echo "$n" | cut -d' ' -f3) KiB), -o $oc s ($(echo "$o" | cut -d' ' -f3) KiB): w3dfix -n / w3dlint = $ratio"
done
