#!/bin/sh
# `make bench`, size scaling: w3dlint -q --no-xref -j 1 over generated
# inputs of 1, 10 and 50 MB of each kind (tests/gen_scale.c: zeros of each
# format, many empty chunks (W3D, B3D), many HLOD sub-objects, a P3D with 16
# LZO blocks), made in a temporary folder and removed after.  Per file: peak
# RSS in bytes per input byte and seconds per MB (GNU time), and per kind
# the ratio of the largest to the smallest figure over the sizes (flat:
# within 2x).  Figures are reported, never asserted.  BENCH_SCALE_SIZES
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
printf 'bench scale: %-10s %5s %9s %8s %8s %s\n' kind MB "RSS/byte" "s/MB" "s" status
for kind in w3d-zeros w3d-empty w3d-hlod b3d-zeros b3d-empty p3d-zeros p3d-lzo; do
	case $kind in w3d-*) ext=w3d ;; b3d-*) ext=b3d ;; *) ext=p3d ;; esac
	: > "$tmp/figures"
	for mb in $sizes; do
		f="$tmp/$kind-$mb.$ext"
		if ! "$gen" "$kind" $((mb * 1000000)) "$f"; then
			echo "bench scale: $kind $mb MB: could not be generated"
			continue
		fi
		bytes=$(stat -c %s "$f")
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$w3dlint" -q --no-xref --no-progress -j 1 "$f" \
			> "$tmp/out" 2>&1
		rc=$?
		tail -n 1 "$tmp/time" > "$tmp/time1"
		oom=""
		grep -q 'out-of-memory' "$tmp/out" && oom=" out-of-memory"
		awk -v k="$kind" -v mb="$mb" -v b="$bytes" -v rc="$rc" -v oom="$oom" '{
			rss = $2 * 1024 / b; spm = $1 / (b / 1e6)
			printf "bench scale: %-10s %5d %9.1f %8.3f %8.2f exit %d%s\n", k, mb, rss, spm, $1, rc, oom
			printf "%f %f\n", rss, spm >> "'"$tmp/figures"'"
		}' "$tmp/time1"
		rm -f "$f"
	done
	awk -v k="$kind" 'NR == 1 { rlo = rhi = $1; tlo = thi = $2 }
		{ if ($1 < rlo) rlo = $1; if ($1 > rhi) rhi = $1; if ($2 < tlo) tlo = $2; if ($2 > thi) thi = $2 }
		END { if (NR > 1) printf "bench scale: %-10s flatness (max/min over sizes): RSS/byte %.2fx, s/MB %.2fx\n",
			k, rhi / rlo, (tlo > 0 ? thi / tlo : 0) }' "$tmp/figures"
done
