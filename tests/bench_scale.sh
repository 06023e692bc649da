#!/bin/sh
# `make bench`, size scaling: w3dlint -q --no-xref -j 1 over generated
# inputs of 1, 10 and 50 MB of each kind (tests/gen_scale.c: zeros of each
# format, many empty chunks (W3D, B3D), many HLOD sub-objects, a P3D with 16
# LZO blocks), made in a temporary folder and removed after.  Per file: peak
# RSS in bytes per input byte (as measured, and above the peak RSS of
# linting a 1-byte file of the format: the program's own), elapsed and CPU
# (user + system) seconds per MB (GNU time), and per kind the ratio of the
# largest to the smallest figure over the sizes (flat: within 2x).  Figures
# are reported, never asserted.  BENCH_SCALE_SIZES
# overrides the sizes (MB, default "1 10 50").
# Usage: tests/bench_scale.sh W3DLINT GEN_SCALE
set -u
w3dlint=$1
gen=$2
sizes=${BENCH_SCALE_SIZES:-1 10 50}
if [ ! -x /usr/bin/time ]; then
	echo "bench scale: skipped: no /usr/bin/time (GNU time) for the peak RSS"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# base EXT: peak RSS in KB of linting a 1-byte file named .EXT
base() {
	printf 'x' > "$tmp/one.$1"
	/usr/bin/time -f '%M' -o "$tmp/btime" "$w3dlint" -q --no-xref --no-progress -j 1 "$tmp/one.$1" \
		> /dev/null 2>&1
	tail -n 1 "$tmp/btime"
}
printf 'bench scale: %-10s %5s %9s %9s %8s %8s %8s %s\n' kind MB "RSS/byte" "above" "s/MB" "cpu s/MB" "s" status
for kind in w3d-zeros w3d-empty w3d-hlod b3d-zeros b3d-empty p3d-zeros p3d-lzo; do
	case $kind in w3d-*) ext=w3d ;; b3d-*) ext=b3d ;; *) ext=p3d ;; esac
	: > "$tmp/figures"
	kb0=$(base "$ext")
	for mb in $sizes; do
		f="$tmp/$kind-$mb.$ext"
		if ! "$gen" "$kind" $((mb * 1000000)) "$f"; then
			echo "bench scale: $kind $mb MB: could not be generated"
			continue
		fi
		bytes=$(stat -c %s "$f")
		/usr/bin/time -f '%e %M %U %S' -o "$tmp/time" "$w3dlint" -q --no-xref --no-progress -j 1 "$f" \
			> "$tmp/out" 2>&1
		rc=$?
		tail -n 1 "$tmp/time" > "$tmp/time1"
		oom=""
		grep -q 'out-of-memory' "$tmp/out" && oom=" out-of-memory"
		awk -v k="$kind" -v mb="$mb" -v b="$bytes" -v rc="$rc" -v oom="$oom" -v kb0="$kb0" '{
			rss = $2 * 1024 / b; above = ($2 - kb0) * 1024 / b
			spm = $1 / (b / 1e6); cpm = ($3 + $4) / (b / 1e6)
			printf "bench scale: %-10s %5d %9.1f %9.1f %8.3f %8.3f %8.2f exit %d%s\n", k, mb, rss, above,
				spm, cpm, $1, rc, oom
			printf "%f %f %f %f\n", rss, spm, above, cpm >> "'"$tmp/figures"'"
		}' "$tmp/time1"
		rm -f "$f"
	done
	awk -v k="$kind" 'function r(lo, hi) { return lo > 0 ? hi / lo : 0 }
		NR == 1 { for (i = 1; i <= 4; i++) lo[i] = hi[i] = $i }
		{ for (i = 1; i <= 4; i++) { if ($i < lo[i]) lo[i] = $i; if ($i > hi[i]) hi[i] = $i } }
		END { if (NR > 1) printf "bench scale: %-10s flatness (max/min over sizes): RSS/byte %.2fx, above %.2fx, s/MB %.2fx, cpu s/MB %.2fx\n",
			k, r(lo[1], hi[1]), r(lo[3], hi[3]), r(lo[2], hi[2]), r(lo[4], hi[4]) }' "$tmp/figures"
done
