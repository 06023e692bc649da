#!/bin/sh
# `make bench`, archive part: the W3D models of ../shared/corpus/w3d (or
# $W3DLINT_CORPUS) linted as a plain folder and packed into BIGF archives of
# up to 64 entries each (build/tool_mkarchive), with w3dlint -j 1 and -j N:
# MB/s of model bytes, best of $BENCH_RUNS (default 5) after a warm-up, and
# the archive walk's speed as a share of the folder's (goal: within 10%);
# beside it the CPU time (user + system) of the same runs, which a machine
# shared with other work disturbs less than the wall clock.
# Timing is reported, never asserted.  Skips with one line when the corpus
# is absent.
# Usage: tests/bench_archive.sh W3DLINT TOOL_MKARCHIVE
set -u
w3dlint=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mk=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
runs=${BENCH_RUNS:-5}
if [ ! -d "$corpus" ]; then
	echo "bench archive: skipped: no corpus at $corpus"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
find "$corpus" -type f -iname '*.w3d' | LC_ALL=C sort > "$tmp/files"
files=$(wc -l < "$tmp/files")
if [ "$files" -eq 0 ]; then
	echo "bench archive: skipped: no .w3d files under $corpus"
	exit 0
fi
mkdir -p "$tmp/plain" "$tmp/arch"
k=0
set --
while IFS= read -r f; do
	k=$((k + 1))
	cp "$f" "$tmp/plain/m$k.w3d"
	set -- "$@" "Art\\W3D\\m$k.w3d=$tmp/plain/m$k.w3d"
	if [ $# -eq 64 ]; then
		"$mk" bigf "$tmp/arch/a$k.big" "$@" || exit 2
		set --
	fi
done < "$tmp/files"
[ $# -gt 0 ] && { "$mk" bigf "$tmp/arch/a$k.big" "$@" || exit 2; }
bytes=$(cat "$tmp"/plain/* | wc -c)
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1)
now() { date +%s.%N; }
# cpu FILE: the user + system seconds of the children in FILE (the output
# of the shell's times, taken in the shell that ran them)
cpu() { tail -n 1 "$1" | awk '{ t = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%.6f", t }'; }
once() { "$w3dlint" --quiet --no-progress --no-xref -j "$1" "$2" > /dev/null 2>&1; }
# best J DIR: "WALL CPU": the best wall time of $runs runs, and their mean
# CPU time
best() {
	once "$1" "$2"
	b=""
	n=0
	times > "$tmp/t0"
	while [ "$n" -lt "$runs" ]; do
		t0=$(now)
		once "$1" "$2"
		t1=$(now)
		b=$(awk -v a="$t0" -v c="$t1" -v b="$b" 'BEGIN { t = c - a; if (b == "" || t < b) b = t; printf "%.6f", b }')
		n=$((n + 1))
	done
	times > "$tmp/t1"
	echo "$b $(awk -v a="$(cpu "$tmp/t0")" -v c="$(cpu "$tmp/t1")" -v n="$runs" 'BEGIN { printf "%.6f", (c - a) / n }')"
}
echo "bench archive: $files W3D models, $bytes bytes, as files and in $(ls "$tmp/arch" | wc -l) BIGF archives"
for j in 1 "$cpus"; do
	tp=$(best "$j" "$tmp/plain")
	ta=$(best "$j" "$tmp/arch")
	awk -v j="$j" -v tp="${tp% *}" -v ta="${ta% *}" -v cp="${tp#* }" -v ca="${ta#* }" -v b="$bytes" 'BEGIN {
		printf "bench archive: -j %s: folder %.1f MB/s, archives %.1f MB/s (%.0f%% of the folder); " \
			"CPU per run: folder %.3f s, archives %.3f s (%.0f%%)\n",
			j, b / tp / 1e6, b / ta / 1e6, 100 * tp / ta, cp, ca, 100 * cp / (ca > 0 ? ca : 1) }'
done
