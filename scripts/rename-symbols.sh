#!/bin/sh
# Renames the format code's symbols to one prefix rule per layer (issue 20
# item 4): <format>_check_* and <format>_checks in lint/<format>/,
# <format>_fix_* and <format>_fixers in fix/<format>/ (the format-free
# structural fixers of fix/fix_structure.c keep wl_fix_*), and one spelling,
# "normalize", in identifiers (text users read - messages, rules/, docs -
# is left alone so that reports stay byte-identical).
#
# Idempotent and re-runnable: an old name that is gone matches nothing.
# The lead re-runs it after merging branches that still use the old names
# (see scripts/rule-handles-convert.py for the whole sequence):
#     sh scripts/rename-symbols.sh && make -j2 WERROR=1 all
# It rewrites every *.c, *.h, *.md, *.sh, *.py, *.mk and Makefile of the
# tree outside build*/ and .git, and prints the files it changed.
set -eu
cd "$(dirname "$0")/.."
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
	# lint: the check lists and P3D's checks
	for f in w3d b3d p3d; do printf '%s\n' "s/\\bwl_${f}_checks\\b/${f}_checks/g"; done
	printf '%s\n' 's/\bwl_p3d_check_\([a-z0-9_]*\)\b/p3d_check_\1/g'
	# fix: the fixer lists and the fixers of each format folder
	for f in w3d b3d p3d; do printf '%s\n' "s/\\bwl_${f}_fixers\\b/${f}_fixers/g"; done
	printf '%s\n' 's/\bwl_fix_b3d_normalise_quaternions\b/b3d_fix_normalize_quaternions/g'
	printf '%s\n' 's/\bwl_fix_\(w3d\|b3d\|p3d\)_\([a-z0-9_]*\)\b/\1_fix_\2/g'
	for x in salvage_mesh header_counts aabtree_header_counts refit_aabtree rebuild_aabtree \
		recompute_bounds recompute_planes normalize_quaternions align_quaternion_hemispheres \
		recompute_euler_angles reorder_pivots; do
		printf '%s\n' "s/\\bwl_fix_${x}\\b/w3d_fix_${x}/g"
	done
	# one spelling in identifiers
	printf '%s\n' 's/\bnormalise_path\b/normalize_path/g'
	printf '%s\n' 's/\bnormalise\([,();]\|$\)/normalize\1/g'
} > "$script"
find . -path ./.git -prune -o -path './build*' -prune -o -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.md' -o -name '*.sh' -o -name '*.py' -o -name '*.mk' -o -name Makefile \) \
	-print | sort | while read -r f; do
	case $f in ./scripts/rename-symbols.sh) continue ;; esac
	if ! sed -f "$script" "$f" | cmp -s - "$f"; then
		sed -i -f "$script" "$f"
		printf '%s\n' "renamed in $f"
	fi
done
