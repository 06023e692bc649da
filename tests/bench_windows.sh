#!/bin/sh
# tests/bench_windows.sh NATIVEBUILD WINBUILD BENCH_TIME: the Windows build
# under Wine beside the Linux build (issue 27; make bench, docs/windows.md).
# Over ../shared/corpus and each format folder, one job (-j 1), best of
# BENCH_WIN_RUNS (default 5) runs: wall seconds and CPU seconds (user + sys
# of the program; Wine's server, a process of its own, is not counted) of
# `w3dlint --no-progress -q` and `w3dfix -n`, and the ratios Wine / Linux.
# Reported, never asserted.  Skipped with one line without wine, the .exe
# files or the corpus.
set -u
nat=$1 win=$2 bt=$3
name=bench_windows
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS_ROOT:-$root/../shared/corpus}
runs=${BENCH_WIN_RUNS:-5}
[ -d "$corpus" ] || { echo "$name: skipped: no corpus at $corpus"; exit 0; }
command -v wine >/dev/null 2>&1 || { echo "$name: skipped: no wine (sh scripts/setup-deps.sh windows)"; exit 0; }
[ -f "$win/w3dlint.exe" ] || { echo "$name: skipped: no $win/w3dlint.exe (make windows)"; exit 0; }
export WINEDEBUG=-all
wine "$win/w3dlint.exe" --version >/dev/null 2>&1 # Wine's server started, not timed
# best CMD...: "WALL CPU" of the fastest of $runs runs
best() {
	i=0
	bw= bc=
	while [ "$i" -lt "$runs" ]; do
		set -- $("$bt" "$@" 2>/dev/null | tail -n 1) "$@"
		w=$1 c=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.3f", u + s }')
		shift 5
		if [ -z "$bw" ] || awk -v a="$c" -v b="$bc" 'BEGIN { exit !(a < b) }'; then bw=$w bc=$c; fi
		i=$((i + 1))
	done
	printf '%.3f %s\n' "$bw" "$bc"
}
printf '%s: %-22s %-10s %8s %8s %8s %8s %7s %7s\n' "$name" "folder" "tool" "lin wall" "lin cpu" "win wall" "win cpu" "wall x" "cpu x"
for sub in "" w3d b3d p3d archives; do
	dir=$corpus${sub:+/$sub}
	[ -d "$dir" ] || continue
	for t in w3dlint w3dfix; do
		case $t in w3dlint) args="--no-progress -q -j 1" ;; *) args="-n -q -j 1" ;; esac
		set -- $(best "$nat/$t" $args "$dir")
		lw=$1 lc=$2
		set -- $(best wine "$win/$t.exe" $args "$dir")
		ww=$1 wc=$2
		printf '%s: %-22s %-10s %8s %8s %8s %8s %7s %7s\n' "$name" "corpus${sub:+/$sub}" "$t" "$lw" "$lc" "$ww" "$wc" \
			"$(awk -v a="$ww" -v b="$lw" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')" \
			"$(awk -v a="$wc" -v b="$lc" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')"
	done
done
