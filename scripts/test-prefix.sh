#!/bin/sh
# Renames the test helpers to one prefix (issue 20 item 5): every helper
# that tests/*.h export, and tests/lint/test_xref_archive.c's own, starts with t_
# (macros T_), followed by the helper file's word where there is more than
# one such file:
#   reader_util  ru_   -> t_            robust_util  rb_  -> t_robust_
#   w3dbuild     wb_   -> t_w3d_        fix_util     fu_  -> t_fix_
#   b3dbuild     b3b_  -> t_b3d_        b3dlint      b3l_ -> t_b3dlint_
#   p3dbuild     p3b_  -> t_p3d_        b3dlint_util bl_  -> t_b3dutil_
#   p3dbuild_info p3bi_ -> t_p3dinfo_   p3dlint      p3l_ -> t_p3dlint_
#   p3dbuild_lod p3bl_ -> t_p3dlod_     archbuild    ab_  -> t_arc_
#   build_anim   ba_   -> t_anim_       build_mesh   bm_  -> t_mesh_
#   build_objects bo_  -> t_obj_        build_refs   br_  -> t_ref_
#   build_skin   bs_   -> t_skin_       check_xref_archive xa_ -> t_xarc_
# Idempotent and re-runnable (an old name that is gone matches nothing): the
# lead re-runs it after merging a branch that still uses the old names:
#     sh scripts/test-prefix.sh && make -j2 WERROR=1 all && make -j2 unit
# It rewrites every .c and .h file under tests/ and corpus/**/*.md, and
# prints the files it changed.  struct rusage's ru_* fields are left alone.
set -eu
cd "$(dirname "$0")/.."
script=$(mktemp)
trap 'rm -f "$script"' EXIT
{
	# longest prefixes first (p3bi_ before p3b_ is not needed with \b, but
	# keeps the table readable)
	while read -r old new; do
		up_old=$(printf '%s' "$old" | tr a-z A-Z)
		up_new=$(printf '%s' "$new" | tr a-z A-Z)
		printf 's/\\b%s_\\([A-Za-z0-9_]\\+\\)/%s\\1/g\n' "$old" "$new"
		printf 's/\\b%s_\\([A-Z0-9_]\\+\\)\\b/%s\\1/g\n' "$up_old" "$up_new"
	done <<'MAP'
p3bi t_p3dinfo_
p3bl t_p3dlod_
p3b t_p3d_
p3l t_p3dlint_
b3b t_b3d_
b3l t_b3dlint_
bl t_b3dutil_
wb t_w3d_
ab t_arc_
ba t_anim_
bm t_mesh_
bo t_obj_
br t_ref_
bs t_skin_
fu t_fix_
rb t_robust_
xa t_xarc_
MAP
	# reader_util: the common helpers, the bare prefix (not rusage's fields)
	printf '%s\n' 's/\bru_\(maxrss\|utime\|stime\|ixrss\|idrss\|isrss\|minflt\|majflt\|nswap\|inblock\|oublock\|msgsnd\|msgrcv\|nsignals\|nvcsw\|nivcsw\)\b/RUSAGE_KEEP_\1/g'
	printf '%s\n' 's/\bru_\([A-Za-z0-9_]\+\)/t_\1/g'
	printf '%s\n' 's/\bRU_\([A-Z0-9_]\+\)\b/T_\1/g'
	printf '%s\n' 's/\bRUSAGE_KEEP_\([a-z]\+\)\b/ru_\1/g'
} > "$script"
{
	find tests -name "*.[ch]" | LC_ALL=C sort
	find corpus -name '*.md'
} | sort | while read -r f; do
	if ! sed -f "$script" "$f" | cmp -s - "$f"; then
		sed -i -f "$script" "$f"
		echo "$f"
	fi
done
