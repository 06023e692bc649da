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
exit $fail
