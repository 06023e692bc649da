#!/bin/sh
# Tests scripts/new-rule (CONTRIBUTING.md, "A new rule") in a copy of the
# parts of the repository it writes into (rules/, lint/, core/ for the
# includes, corpus/valid/, tests/): for one new rule of each format it
# checks that
#   - the catalogue with the appended entries loads with the catalogue's own
#     reader (BUILD/gen_catalog, which fails on any load error) and the
#     rule handles include the new ids (scripts/gen-rule-ids.sh);
#   - the fire and near cases assemble with BUILD/w3dasm (W3D, B3D) and
#     P3D gets its README.md instead;
#   - the check stub and the test stub compile with the project's warnings
#     as errors, and the catalogue entry alone registers the check (the
#     generated table lists it once; no checks.c is touched);
#   - a new catalogue file gets its `format:` header;
#   - an id already in the catalogue, a bad id and a B3D id without b3d-
#     are refused with status 2 and leave the tree as it was.
# Usage: tests/new_rule.sh BUILD   (BUILD holds gen_catalog and w3dasm)
set -u
if [ $# -ne 1 ]; then
	echo "usage: tests/new_rule.sh BUILD" >&2
	exit 2
fi
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fail=0
bad() {
	echo "new_rule: FAIL $*"
	fail=$((fail + 1))
}

tree=$tmp/tree
mkdir -p "$tree/corpus" "$tree/tests"
cp -R "$root/rules" "$root/lint" "$root/core" "$root/scripts" "$tree/"
cp -R "$root/corpus/valid" "$tree/corpus/"
# The state before: what a refused run must leave unchanged.
snapshot() { (cd "$tree" && find . -type f | LC_ALL=C sort | xargs cksum); }

nr() { sh "$root/scripts/new-rule" --root "$tree" "$@"; }

nr b3d animation b3d-test-new-rule > "$tmp/out" 2>&1 || bad "b3d: new-rule failed: $(cat "$tmp/out")"
nr w3d geometry test-new-rule geometry error > "$tmp/out" 2>&1 || bad "w3d: new-rule failed: $(cat "$tmp/out")"
nr p3d test_new_file p3d-test-new-rule > "$tmp/out" 2>&1 || bad "p3d: new-rule failed: $(cat "$tmp/out")"

# The catalogue loads (every load error names file, line and column and
# fails gen_catalog) and holds the new rules.
rules=$(find "$tree/rules" -name '*.yaml' | LC_ALL=C sort)
# shellcheck disable=SC2086
if ! "$build/gen_catalog" "$tmp/catalog_table.c" $rules > "$tmp/cat.err" 2>&1; then
	bad "the catalogue with the new entries does not load: $(cat "$tmp/cat.err")"
fi
for id in b3d-test-new-rule test-new-rule p3d-test-new-rule; do
	grep -q "\"$id\"" "$tmp/catalog_table.c" 2> /dev/null || bad "$id is not in the generated catalogue"
done
grep -q '^format: p3d$' "$tree/rules/p3d/test_new_file.yaml" || bad "a new catalogue file has no format: header"
mkdir -p "$tree/gen"
# shellcheck disable=SC2086
sh "$root/scripts/gen-rule-ids.sh" "$tree/gen/rule_list.h" $rules
for h in WLR_B3D_TEST_NEW_RULE WLR_TEST_NEW_RULE WLR_P3D_TEST_NEW_RULE; do
	grep -q "X($h," "$tree/gen/rule_list.h" || bad "no handle $h"
done

# The cases assemble.
for c in b3d-test-new-rule/fire.b3d.txt b3d-test-new-rule/near.b3d.txt \
	test-new-rule/fire.w3d.txt test-new-rule/near.w3d.txt; do
	f=$tree/corpus/rules/$c
	if [ ! -f "$f" ]; then
		bad "no case corpus/rules/$c"
	elif ! "$build/w3dasm" "$f" -o "$tmp/case.bin" > "$tmp/asm.err" 2>&1; then
		bad "corpus/rules/$c does not assemble: $(cat "$tmp/asm.err")"
	fi
done
[ -f "$tree/corpus/rules/p3d-test-new-rule/README.md" ] || bad "no P3D README.md case"

# The stubs and the registrations compile, warnings as errors.
pkg=$(pkg-config --cflags yaml-0.1 libpcre2-8 jansson lzo2 nettle qhull_r check 2> /dev/null)
cflags="-std=c11 -Wall -Wextra -Wshadow -Wvla -Wstrict-prototypes -Wmissing-prototypes -Wconversion -Werror
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I$tree -I$tree/gen $pkg"
for f in lint/b3d/check_test_new_rule.c lint/w3d/check_test_new_rule.c lint/p3d/check_test_new_rule.c \
	tests/lint/b3d/test_test_new_rule.c tests/lint/w3d/test_test_new_rule.c tests/lint/p3d/test_test_new_rule.c; do
	# shellcheck disable=SC2086
	if [ ! -f "$tree/$f" ]; then
		bad "no $f"
	elif ! cc $cflags -fsyntax-only "$tree/$f" > "$tmp/cc.err" 2>&1; then
		bad "$f does not compile: $(cat "$tmp/cc.err")"
	fi
done
# Registered by the catalogue alone: the generated tables run each new
# check once (lint/wiring.h), and no checks.c was touched.
for fmt in b3d w3d p3d; do
	n=$(grep -c "^	${fmt}_check_test_new_rule,$" "$tmp/catalog_table.c")
	[ "$n" = 1 ] || bad "the generated checks of $fmt list ${fmt}_check_test_new_rule $n times, not once"
	cmp -s "$root/lint/$fmt/checks.c" "$tree/lint/$fmt/checks.c" || bad "lint/$fmt/checks.c was changed"
done

# Refusals: status 2, nothing written.
snapshot > "$tmp/before"
for args in "b3d animation b3d-test-new-rule" "b3d animation Bad_Id" "b3d animation test-no-prefix" \
	"w3d mesh b3d-other-prefix" "x3d mesh some-rule"; do
	# shellcheck disable=SC2086
	nr $args > "$tmp/out" 2>&1
	st=$?
	[ "$st" = 2 ] || bad "new-rule $args: status $st, not 2"
done
snapshot > "$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || bad "a refused run changed the tree"

if [ "$fail" -ne 0 ]; then
	echo "new_rule: $fail failure(s)"
	exit 1
fi
echo "new_rule: ok (a rule of each format written, loaded, assembled and compiled; 5 refusals)"
