#!/bin/sh
# tests/wiring.sh BUILD: the registrations generated from the catalogue
# (lint/wiring.h, scripts/gen_catalog.c) miss nothing and refuse what
# cannot be wired:
#   - every check function defined in lint/FMT/check_*.c
#     (`void FMT_check_NAME(wl_lint_ctx *ctx)`) runs: some rule's `check:`
#     names it, so BUILD/gen/catalog_table.c lists it (a check no rule
#     names would never run);
#   - gen_catalog refuses a catalogue whose rule has no `check:` (exit 2,
#     naming the rule), and accepts the same rule with one.
# (A `check:` naming a function that does not exist fails the link; a
# `fixers:` naming no fixer fails tests/fix/test_fixable.c.)
set -u
if [ $# -ne 1 ]; then
	echo "usage: tests/wiring.sh BUILD" >&2
	exit 2
fi
build=$1
root=$(cd "$(dirname "$0")/.." && pwd)
table=$build/gen/catalog_table.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
[ -f "$table" ] || { echo "wiring: FAIL no $table (make first)"; exit 1; }
n=0
for f in "$root"/lint/w3d/check_*.c "$root"/lint/b3d/check_*.c "$root"/lint/p3d/check_*.c; do
	for fn in $(sed -n 's/^void \([wbp]3d_check_[a-z0-9_]*\)(wl_lint_ctx \*ctx)$/\1/p' "$f"); do
		n=$((n + 1))
		if ! grep -q "^	$fn,\$" "$table"; then
			echo "wiring: FAIL ${f#"$root"/} defines $fn, which no rule's check: names (it never runs)"
			fail=1
		fi
	done
done
[ "$n" -gt 20 ] || { echo "wiring: FAIL only $n check functions found"; fail=1; }
rule='rules:
  - id: wiring-probe
    category: chunk
    severity: error
    fixable: none
    summary: s
    explanation: x'
printf '%s\n' "$rule" > "$tmp/no_check.yaml"
"$build/gen_catalog" "$tmp/out.c" "$tmp/no_check.yaml" > "$tmp/err" 2>&1
st=$?
if [ "$st" != 2 ] || ! grep -q "wiring-probe' has no check:" "$tmp/err"; then
	echo "wiring: FAIL a rule without check: was not refused (status $st: $(cat "$tmp/err"))"
	fail=1
fi
printf '%s\n    check: reader\n' "$rule" > "$tmp/check.yaml"
if ! "$build/gen_catalog" "$tmp/out.c" "$tmp/check.yaml" > "$tmp/err" 2>&1; then
	echo "wiring: FAIL the same rule with check: reader was refused: $(cat "$tmp/err")"
	fail=1
fi
[ "$fail" = 0 ] && echo "wiring: ok: $n check functions, each named by a rule's check:; a rule without one is refused"
exit "$fail"
