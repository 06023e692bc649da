#!/bin/sh
# The input files of all four tools (core/file_io.h wl_read_input): a file
# over the 1 GiB limit (a sparse 3 GB file: truncate uses no disk) and
# /dev/zero are refused with a message naming the path and the reason,
# status 2, without reading them.  Each run is bounded by `timeout`, so a
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
[ -e "$tmp/out.w3d" ] && bad "w3dasm wrote an output for a refused input"
exit $fail
