#!/bin/sh
# The input files of all four tools (core/file_io.h wl_read_input): a file
# over the 1 GiB limit (a sparse 3 GB file: truncate uses no disk),
# /dev/zero and a FIFO without a writer are refused with a message naming
# the path and the reason, status 2, without reading them; w3ddump on a
# folder says 'Is a directory'; in a folder, dangling and looping symbolic
# links are unreadable paths (status 2, named) for the tools that walk
# folders (w3dlint, w3dfix), and the other files are still processed.  Each run is bounded by `timeout`, so a
# regression (reading without a cap) fails instead of hanging or eating the
# machine's memory.
# Usage: tests/cli_inputs.sh BUILD_DIR
set -u
name=cli_inputs
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
limit="timeout 60"

truncate -s 3G "$tmp/big.w3d" || { echo "$name: skipped: truncate cannot make a sparse file here"; exit 0; }

# refuse TOOL PATH WHAT EXPECT: TOOL on PATH exits 2 and says EXPECT.
refuse() {
	t=$1
	p=$2
	shift 2
	what=$1
	expect=$2
	if [ "$t" = w3dasm ]; then
		$limit "$build/w3dasm" "$p" -o "$tmp/out.w3d" >"$tmp/out" 2>"$tmp/err"
	else
		$limit "$build/$t" "$p" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	if [ "$rc" -eq 2 ] && errhas "$t: $p: $expect"; then
		ok "$t refuses $what"
	else
		bad "$t on $what: status $rc (want 2 and '$t: $p: $expect')"
	fi
}

for t in w3dlint w3dfix w3ddump w3dasm; do
	refuse $t "$tmp/big.w3d" "a 3 GB file" "file is 3221225472 bytes, over the 1 GiB limit (1073741824 bytes)"
	refuse $t /dev/zero "/dev/zero" "not a regular file (a character device)"
done
if mkfifo "$tmp/pipe.w3d" 2>/dev/null; then
	for t in w3dlint w3dfix w3ddump w3dasm; do
		refuse $t "$tmp/pipe.w3d" "a FIFO" "not a regular file (a FIFO)"
	done
else
	echo "$name: skipped: mkfifo failed, FIFO cases not run"
fi
[ -e "$tmp/out.w3d" ] && bad "w3dasm wrote an output for a refused input"

mkdir "$tmp/mods"
refuse w3ddump "$tmp/mods" "a folder" "Is a directory"

"$build/w3dasm" corpus/valid/mesh.w3d.txt -o "$tmp/mods/mesh.w3d" || exit 2
ln -s nowhere.w3d "$tmp/mods/dangling.w3d"
ln -s loop.w3d "$tmp/mods/loop.w3d"
for t in w3dlint w3dfix; do
	$limit "$build/$t" "$tmp/mods" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && errhas "$t: $tmp/mods/dangling.w3d: No such file or directory" &&
		errhas "$t: $tmp/mods/loop.w3d: Too many levels of symbolic links" && has "1 file,"; then
		ok "$t: dangling and looping links in a folder are unreadable paths (status 2), the rest is processed"
	else
		bad "$t on a folder with a dangling and a looping link: status $rc"
	fi
done
# --- "-" is standard input in every tool, checked as a named file is: a
# device there (`- < /dev/zero`) is refused before a byte is read
"$build/w3dasm" corpus/rules/trailing-bytes/fire.w3d.txt -o "$tmp/trail.w3d" || exit 2
"$build/w3ddump" --text "$tmp/mods/mesh.w3d" >"$tmp/mesh.txt" || exit 2
$limit "$build/w3dlint" - <"$tmp/trail.w3d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && has "-:0x13C: warning: 3 byte(s) after the last chunk" && has "1 file,"; then
	ok "w3dlint - reads standard input"
else
	bad "w3dlint - < FILE: status $rc"
fi
$limit "$build/w3dfix" - -o "$tmp/fixed.w3d" <"$tmp/trail.w3d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ] && [ "$(wc -c <"$tmp/fixed.w3d")" -eq 316 ]; then
	ok "w3dfix - -o FILE repairs standard input into FILE"
else
	bad "w3dfix - -o FILE < FILE: status $rc"
fi
$limit "$build/w3dfix" --in-place - <"$tmp/trail.w3d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && errhas "w3dfix: -: standard input cannot be written in place"; then
	ok "w3dfix --in-place - is refused"
else
	bad "w3dfix --in-place -: status $rc"
fi
$limit "$build/w3ddump" --chunks - <"$tmp/trail.w3d" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && has "MESH" && ok "w3ddump - reads standard input" || bad "w3ddump - < FILE: status $rc"
$limit "$build/w3dasm" - -o "$tmp/asm.w3d" <"$tmp/mesh.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$tmp/asm.w3d" "$tmp/mods/mesh.w3d" && ok "w3dasm - reads standard input" || bad "w3dasm - < TEXT: status $rc"
for t in w3dlint w3dfix w3ddump w3dasm; do
	if [ "$t" = w3dasm ]; then
		$limit "$build/w3dasm" - -o "$tmp/zero.w3d" </dev/zero >"$tmp/out" 2>"$tmp/err"
	else
		$limit "$build/$t" - </dev/zero >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
	if [ "$rc" -eq 2 ] && errhas "$t: <stdin>: not a regular file (a character device); not read"; then
		ok "$t - < /dev/zero is refused before reading"
	else
		bad "$t - < /dev/zero: status $rc"
	fi
done

# --- a sniff before the whole read: a 1000 MB sparse .b3d / .p3d without
# its magic is reported from its first bytes (b3d-not-b3d, p3d-not-p3d,
# over the whole size) with the memory of a small file, not read whole.
# Peak memory (ru_maxrss of the child, KiB) is measured, not time: below a
# quarter of the file (a whole read takes all of it; a sanitizer build's
# shadow of the untouched buffer takes an eighth).
for f in b3d p3d; do
	truncate -s 1000M "$tmp/sparse.$f" || continue
	peak=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[3], "w") as out:
    subprocess.run([sys.argv[1], "--format", "json", sys.argv[2]], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$build/w3dlint" "$tmp/sparse.$f" "$tmp/out")
	if [ "${peak:-999999999}" -lt 256000 ] && has "\"rule\": \"$f-not-$f\"" && has "\"length\": 1048576000"; then
		ok "a 1000 MB sparse .$f without its magic: $f-not-$f over the whole file, peak $peak KiB"
	else
		bad "a 1000 MB sparse .$f: peak ${peak:-?} KiB (want < 250 MiB) or no $f-not-$f over 1048576000 bytes"
	fi
	rm -f "$tmp/sparse.$f"
done

# --- the same sniff on a file of at most 1 MiB, which is read whole first
# (core/file_io.c SNIFF_AFTER_READ): the report is the one of a file over
# 1 MiB with the same first bytes (one b3d-not-b3d).
head -c 64 /dev/urandom | tr 'B' 'C' > "$tmp/head"
for kb in 300 1500; do
	{ cat "$tmp/head"; head -c $((kb * 1024)) /dev/urandom; } > "$tmp/junk$kb.b3d"
	$limit "$build/w3dlint" --no-progress --format json "$tmp/junk$kb.b3d" 2>&1 |
		grep -E '"(rule|offset|element)"' > "$tmp/junk$kb.out"
done
if [ -s "$tmp/junk300.out" ] && cmp -s "$tmp/junk300.out" "$tmp/junk1500.out" &&
	[ "$(grep -c '"rule"' "$tmp/junk300.out")" -eq 1 ] && grep -q '"rule": "b3d-not-b3d"' "$tmp/junk300.out"; then
	ok "a 300 KiB .b3d without its magic (read whole, then sniffed) is reported as one of 1500 KiB: one b3d-not-b3d"
else
	bad "a 300 KiB .b3d without its magic differs from a 1500 KiB one: $(cat "$tmp/junk300.out" | tr '\n' ' ')"
fi
exit $fail
