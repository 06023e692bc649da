#!/bin/sh
# The shared memory cap (core/arena.h, --memory-cap, configuration
# memory-cap): a file that needs more memory than the cap gets one
# out-of-memory finding naming the cap (status 1, never a crash or status 2),
# with -j 1 and -j 2 alike, and the other files of the run are still
# reported; a configuration's memory-cap applies when the option is not
# given; a bad size is a usage error (status 2).  w3dfix takes the same
# --memory-cap and configuration key: over the cap a file is refused and
# left unchanged (status 2).  Files are made here
# (zeros: an empty W3D MESH every 8 bytes).
# Usage: tests/cli_memory_cap.sh BUILD_DIR
set -u
name=cli_memory_cap
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
tool=$build/w3dlint

mkdir "$tmp/d"
head -c 2000000 /dev/zero > "$tmp/d/zeros.w3d"
printf 'x' > "$tmp/d/tiny.w3d"
# a MESH (size 2 MiB, bit 31) holding 262144 empty VERTICES chunks
printf '\002\000\000\000\000\000\000\000' > "$tmp/v"
k=0
while [ "$k" -lt 18 ]; do
	cat "$tmp/v" "$tmp/v" > "$tmp/v2" && mv "$tmp/v2" "$tmp/v"
	k=$((k + 1))
done
mkdir "$tmp/e"
{ printf '\000\000\000\000\000\000\040\200'; cat "$tmp/v"; } > "$tmp/e/empty.w3d"

for j in 1 2; do
	run --no-xref -j "$j" --memory-cap 8M "$tmp/d"
	if [ "$rc" -eq 1 ] && has "zeros.w3d:0x0: error: reached the memory cap of 8388608 bytes" &&
	   has "[out-of-memory]" && has "tiny.w3d"; then
		ok "-j $j: over the cap: one out-of-memory finding naming the cap, the other file reported"
	else
		bad "-j $j: over the cap (status $rc)"
	fi
done

run --no-xref --memory-cap 1G "$tmp/d/zeros.w3d"
if [ "$rc" -eq 1 ] && has "zeros.w3d:0x0: error: reached the per-file memory limit of 20000000 bytes (10 per input byte"; then
	ok "over the per-file limit: one out-of-memory finding naming it"
else
	bad "over the per-file limit (status $rc)"
fi

run --no-xref --memory-cap 64M "$tmp/e/empty.w3d"
if [ "$rc" -le 1 ] && ! has "out-of-memory" && has "1 file"; then
	ok "2 MB of empty chunks: read whole under the limit and a 64M cap"
else
	bad "empty chunks under the cap (status $rc)"
fi

printf 'memory-cap: 8M\n' > "$tmp/d/.w3dlint.yaml"
run --no-xref "$tmp/d/zeros.w3d"
if [ "$rc" -eq 1 ] && has "reached the memory cap of 8388608 bytes"; then
	ok "configuration memory-cap applies"
else
	bad "configuration memory-cap (status $rc)"
fi
run --no-xref --memory-cap 1G "$tmp/d/zeros.w3d"
if [ "$rc" -eq 1 ] && ! has "memory cap"; then
	ok "--memory-cap overrides the configuration"
else
	bad "--memory-cap over the configuration (status $rc)"
fi

tool=$build/w3dfix
cp "$tmp/d/zeros.w3d" "$tmp/z.w3d"
run -i "$tmp/z.w3d"
if [ "$rc" -eq 2 ] && errhas "z.w3d: not repaired, left unchanged: reached the per-file memory limit" &&
   cmp -s "$tmp/z.w3d" "$tmp/d/zeros.w3d"; then
	ok "w3dfix over the limit: a refusal naming the file and the limit, file unchanged"
else
	bad "w3dfix over the limit (status $rc)"
fi
run -i --memory-cap 8M "$tmp/z.w3d"
if [ "$rc" -eq 2 ] && errhas "z.w3d: not repaired, left unchanged: reached the memory cap of 8388608 bytes" &&
   cmp -s "$tmp/z.w3d" "$tmp/d/zeros.w3d"; then
	ok "w3dfix --memory-cap: a refusal naming the cap, file unchanged"
else
	bad "w3dfix --memory-cap (status $rc)"
fi
run -i -c "$tmp/d/.w3dlint.yaml" "$tmp/z.w3d"
if [ "$rc" -eq 2 ] && errhas "reached the memory cap of 8388608 bytes"; then
	ok "w3dfix: the configuration's memory-cap applies"
else
	bad "w3dfix: configuration memory-cap (status $rc)"
fi
run -i -c "$tmp/d/.w3dlint.yaml" --memory-cap 1G "$tmp/z.w3d"
if [ "$rc" -eq 2 ] && ! errhas "memory cap" && errhas "per-file memory limit"; then
	ok "w3dfix: --memory-cap overrides the configuration"
else
	bad "w3dfix: --memory-cap over the configuration (status $rc)"
fi
run --memory-cap 12Q "$tmp/z.w3d"
if [ "$rc" -eq 2 ] && errhas "--memory-cap needs a size"; then
	ok "w3dfix: a bad size is a usage error"
else
	bad "w3dfix: bad size (status $rc)"
fi
tool=$build/w3dlint

run --memory-cap 12Q "$tmp/d/zeros.w3d"
if [ "$rc" -eq 2 ] && errhas "--memory-cap needs a size"; then
	ok "a bad size is a usage error"
else
	bad "bad size (status $rc)"
fi
exit $fail
