#!/bin/sh
# The fuzz replay of `make test` and `make asan`: every seed (BUILD/fuzz/
# seeds, tests/fuzz/seeds.sh) and every saved crash (tests/fuzz/regressions/)
# goes through each fuzz target, built with replay_main.c, once.  Fails when
# an input aborts (a broken invariant, tests/fuzz/fuzz.h), crashes or trips
# a sanitizer.  Verification problems listed in tests/fuzz/known-open.txt
# (reported, not fixed yet) are tolerated and the list is printed.
# Usage: tests/fuzz/replay.sh BUILD
set -u
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
seeds=$build/fuzz/seeds
regs=$root/tests/fuzz/regressions
W3DLINT_FUZZ_KNOWN_OPEN=$root/tests/fuzz/known-open.txt
export W3DLINT_FUZZ_KNOWN_OPEN
grep -v -e '^#' -e '^[[:space:]]*$' "$W3DLINT_FUZZ_KNOWN_OPEN" 2>/dev/null |
	sed 's/^/fuzz replay: known open problem tolerated (tests\/fuzz\/known-open.txt): /'
fail=0
for t in lint fix textform; do
	extra=
	[ "$t" = textform ] && extra=$seeds/text
	if ! "$build/fuzz/replay_$t" "$seeds/bin" $extra "$regs"; then
		echo "fuzz replay: FAIL: $t (the input is named above)"
		fail=1
	fi
done
[ "$fail" -eq 0 ]
