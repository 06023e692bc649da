#!/bin/sh
# Salvage of damaged files (issue 11, part 3; issue 17 item 1;
# docs/w3dfix.md "Salvage"), over the real corpus of every format
# (../shared/corpus/{w3d,b3d,p3d}, or $W3DLINT_CORPUS for W3D and
# $W3DLINT_CORPUS_ROOT/FORMAT for all; a format whose corpus is absent is
# skipped with one line).  Each picked file is cut at 20 evenly spaced
# offsets and gets one size field changed by +1, -1, +8 and -4 (W3D also one
# data chunk grown by 4, 12 and 1000 bytes past its parent), and (issue 29)
# 4 and 20 bytes deleted from and inserted into one object, 8 bytes of two
# objects swapped and 32 zeros written over one object (tests/tools/salvage_gen.c);
# then `w3dfix --unsafe -o OUT` and `w3dfix -o OUT` (safe) run over all of
# them, and 1. is checked for each.
#
# 1. Intact elements (every format): tests/chunkwalk.py walks the chunk
#    headers of the undamaged file on its own (not with the project's
#    reader) and lists the top-level objects (W3D top-level chunks, B3D
#    BB3D's NODE/TEXS/BRUS) and arrays (W3D data chunks of top-level
#    containers, B3D VRTS/TRIS) the damage leaves intact (wholly before the
#    cut; everything but the changed header) and that the repair of the
#    undamaged file keeps as they are.  A case passes when every such
#    element is in w3dfix's output byte for byte, or w3dfix refused (a
#    `verification failed` reason, non-zero exit, the damaged file written
#    unchanged).  For the damage inside an object only the objects are
#    checked (the damaged one's arrays may be trimmed).  A P3D file
#    (read-only) must never be changed.  Per damage kind and mode: the
#    cases, the outputs written that lack an intact object (these fail the
#    test: there must be none) and the refusals.  Every other
#    case is listed; the test fails when fewer cases pass than the level
#    reached (SALVAGE_INTACT_W3D, default 100 %; SALVAGE_INTACT_B3D, 100 %;
#    P3D 100 %), and prints the per-format figures.  (A W3D size grown by 8
#    over exactly a sibling's header, where nothing after the declared end
#    looks wrong, is read with the size its header's counts give.)
# 2. W3D error-free rate (issue 11, over the cuts, sizes and grown chunks,
#    --unsafe): a case succeeds when w3dfix wrote a file
#    in which w3dlint finds no error-severity finding.  Prints the
#    percentage per kind and in all, lists every other case with its reason
#    (the rules still at error, or why w3dfix did not write, and for a cut
#    inside the first top-level object the chunks the cut goes through) and
#    the count of those left per such chunk, and fails below $SALVAGE_MIN %
#    (default 91.5: a point below the level reached, 92.5, so that a
#    regression fails; the goal of issue 11 is 95).  Every case left is a
#    cut inside the first top-level object with nothing whole before it,
#    where what the cut leaves cannot load (docs/w3dfix.md "What cannot be
#    salvaged").
#
# Usage: tests/salvage.sh SALVAGE_GEN W3DFIX W3DLINT [EVERY [B3D_EVERY [P3D_EVERY]]]
# EVERY: take only every EVERY-th W3D corpus file (default 1: all);
# B3D_EVERY, P3D_EVERY: the same for B3D and P3D (default 1: all; every
# file of the three formats takes about 4 min on a loaded 2-core machine);
# the picks are deterministic.
set -u
name=salvage
. "$(dirname "$0")/lib.sh"
gen=$(abspath "$1")
fix=$(abspath "$2")
lint=$(abspath "$3")
every=${4:-1}
b3d_every=${5:-1}
p3d_every=${6:-1}
min=${SALVAGE_MIN:-91.5}
walker=$(abspath "$(dirname "$0")/chunkwalk.py")
oracle_build=$(abspath "$(dirname "$0")/oracle/build.sh")
irr_check=$(abspath "$(dirname "$0")/oracle/salvage_irr.py")
root=${W3DLINT_CORPUS_ROOT:-$(dirname "$0")/../../shared/corpus}
root=$(cd "$root" 2>/dev/null && pwd || echo "$root")
here=$(pwd)

# damage FORMAT DIR EVERY LEAST: the variants of every EVERY-th file of FORMAT
# under DIR in $tmp/FORMAT/in, their list in $tmp/FORMAT/cases, the repair
# of each undamaged file in $tmp/FORMAT/base, of each variant in
# $tmp/FORMAT/out, w3dfix's messages in $tmp/FORMAT/fixerr, and the check of
# the intact elements (1. above).  Returns 1 when a case fails.
damage() {
	fmt=$1
	w=$tmp/$fmt
	mkdir -p "$w/in" "$w/out" "$w/base" "$w/orig"
	cd "$2" || return 2
	case $fmt in
	w3d) find . -type f \( -iname '*.w3d' -o -iname '*.wlt' -o -iname '*.wht' -o -iname '*.wha' -o -iname '*.wtm' \) ;;
	*) find . -type f -iname "*.$fmt" ;;
	esac | LC_ALL=C sort | awk -v e="$3" '(NR - 1) % e == 0 { sub(/^\.\//, ""); print }' >"$w/pick"
	if [ ! -s "$w/pick" ]; then
		echo "salvage: $fmt: skipped: no $fmt files under $2"
		return 0
	fi
	"$gen" "$w/in" "$fmt" <"$w/pick" >"$w/cases.raw" || { echo "salvage: $fmt: FAIL: $gen failed"; return 2; }
	LC_ALL=C sort "$w/cases.raw" >"$w/cases"
	if [ ! -s "$w/cases" ]; then
		# files were picked, so a run with no case measured nothing
		echo "salvage: $fmt: FAIL: no damaged variant made of $(wc -l <"$w/pick") file(s)"
		return 2
	fi
	while IFS= read -r f; do
		cp "$f" "$w/orig/$(printf '%s' "$f" | tr '/' '~')"
	done <"$w/pick"
	# SALVAGE_IRR=1: the B3D repairs are an Irrlicht game's (--target
	# irrlicht), since the check (3. below) asks what Irrlicht loads: a
	# fixer that suits Luanti or Blitz3D but changes Irrlicht's skin
	# (fix-weights keeping the 4 strongest) is not run for it.
	tgt=
	[ "$fmt" = b3d ] && [ "${SALVAGE_IRR:-0}" = 1 ] && tgt="--target irrlicht"
	(cd "$w/orig" && "$fix" $tgt --unsafe --quiet -o "$w/base" . >/dev/null 2>&1)
	(cd "$w/in" && "$fix" $tgt --unsafe --quiet -o "$w/out" . >"$w/fixout" 2>"$w/fixerr")
	(cd "$w/in" && "$fix" $tgt --quiet -o "$w/outsafe" . >"$w/fixout.safe" 2>"$w/fixerr.safe")
	cut -f1,4,5 "$w/cases" >"$w/wcases"
	rc=0
	for mode in --unsafe safe; do
		sfx=; o=$w/out
		[ "$mode" = safe ] && { sfx=.safe; o=$w/outsafe; }
		# "NAME<TAB>1<TAB>REASON" for each variant w3dfix refused
		sed -n 's/^w3dfix: \(\.\/\)\{0,1\}\([^:]*\): verification failed: \(.*\)$/\2	1	\3/p' "$w/fixerr$sfx" >"$w/status$sfx"
		(cd "$2" && SALVAGE_INTACT_MIN=$4 python3 "$walker" check "$fmt" "$w/wcases" "$w/in" "$o" "$w/base" "$w/status$sfx" "$mode") || rc=1
	done
	[ "$fmt" = b3d ] && { irr_outputs "$w" || rc=1; }
	return $rc
}

# irr_outputs W: 3. with SALVAGE_IRR=1, every B3D output loads in Irrlicht
# with at least what Irrlicht loads from its damaged file
# (tests/oracle/salvage_irr.py; the oracle tier's loader, built into
# W3DFIX's build folder); skipped with a line when Irrlicht is absent.
# SALVAGE_IRR_LESS: the outputs allowed to load less (default 0).  Not in
# the default run: Irrlicht crashes or spins on many damaged inputs, so
# every 8th B3D file takes about 35 minutes here (docs/oracle.md).
irr_outputs() {
	[ "${SALVAGE_IRR:-0}" = 1 ] || return 0
	ob=$(dirname "$fix")
	orc=0
	sh "$oracle_build" "$ob" >/dev/null 2>&1 || orc=$?
	if [ "$orc" != 0 ]; then
		echo "salvage: b3d: Irrlicht check skipped: no Irrlicht oracle (sh scripts/setup-deps.sh; tests/oracle/build.sh)"
		return 0
	fi
	python3 "$irr_check" "$ob/oracle/irr_oracle" "$1/cases" "$1/in" "$1/out" "$1/outsafe" "$1/orig" \
		"${SALVAGE_IRR_LESS:-0}"
}

status=0
for fmt in w3d b3d p3d; do
	case $fmt in
	w3d) dir=${W3DLINT_CORPUS:-$root/w3d}; ev=$every; least=${SALVAGE_INTACT_W3D:-100} ;;
	b3d) dir=$root/b3d; ev=$b3d_every; least=${SALVAGE_INTACT_B3D:-100} ;;
	p3d) dir=$root/p3d; ev=$p3d_every; least=100 ;;
	esac
	if [ ! -d "$dir" ]; then
		echo "salvage: $fmt: skipped: no corpus at $dir"
		continue
	fi
	damage "$fmt" "$dir" "$ev" "$least" || status=1
	cd "$here" || exit 2
done
[ -s "$tmp/w3d/cases" ] || exit $status

# 2. the W3D error-free rate
cd "$tmp/w3d/out" || exit 2
# the rules at error per written file: "FILE RULE" lines
"$lint" --fold 0 . 2>/dev/null | sed -n 's/^\.\/\([^:]*\):[^ ]*: error: .* \[\([a-z][a-z0-9-]*\)\]\( (.*)\)\{0,1\}$/\1 \2/p' \
	| sort -u >"$tmp/errors"
awk -v min="$min" -v errs="$tmp/errors" -v fixerr="$tmp/w3d/fixerr" -v outdir="$tmp/w3d/out" '
BEGIN {
	while ((getline l < errs) > 0) { split(l, a, " "); k = a[1]; if (k in bad) bad[k] = bad[k] "," a[2]; else bad[k] = a[2] }
	while ((getline l < fixerr) > 0) {
		f = l; sub(/^w3dfix: (\.\/)?/, "", f); sub(/: .*/, "", f)
		m = l; sub(/^w3dfix: [^:]*: /, "", m)
		if (!(f in why)) why[f] = m
	}
}
BEGIN { FS = "\t" }
$2 ~ /^(deleted|inserted|swapped|zeroed)$/ { next }
{
	where = $2
	path = NF >= 3 ? $3 : "-"
	if ($1 ~ /\.t[0-9]+\.w3d$/) kind = "truncated"
	else if (where == "sized") { kind = $1; sub(/^.*\.s/, "", kind); sub(/\.w3d$/, "", kind); sub(/^p/, "+", kind); sub(/^m/, "-", kind); kind = "size " kind }
	else { kind = $1; sub(/^.*\.g/, "", kind); sub(/\.w3d$/, "", kind); kind = "grown by " kind }
	n[kind]++; total++; nw[where]++
	$0 = $1
	f = outdir "/" $0
	written = (getline junk < f) >= 0
	close(f)
	if (!written) {
		reason = "not written" ($0 in why ? ": " why[$0] : "")
	} else if ($0 in bad) {
		reason = "error findings: " bad[$0] ($0 in why ? " (" why[$0] ")" : "")
	} else {
		good[kind]++; goodw[where]++; okall++; next
	}
	if (where == "first") reason = reason "; cut in " path " of the first object, nothing whole before it"
	printf "salvage: left: %s: %s\n", $0, reason
	leftin[path]++
}
END {
	for (k in n) printf "salvage: %-16s %5d of %5d salvaged (%.1f %%)\n", k, good[k], n[k], 100 * good[k] / n[k]
	split("first later grown sized", ws, " ")
	label["first"] = "cut inside the first top-level object"
	label["later"] = "cut after a whole top-level object"
	label["grown"] = "a data chunk grown past its parent"
	label["sized"] = "a size field changed by +1, -1, +8 or -4"
	for (i = 1; i <= 4; i++) if (nw[ws[i]])
		printf "salvage: %s: %d of %d (%.1f %%)\n", label[ws[i]], goodw[ws[i]], nw[ws[i]], 100 * goodw[ws[i]] / nw[ws[i]]
	fflush()
	for (p in leftin) printf "salvage: left, cut in %s: %d\n", p, leftin[p] | "sort"
	close("sort")
	pct = total ? 100 * okall / total : 100
	printf "salvage: all %d of %d cases salvaged: %.1f %%\n", okall, total, pct
	if (pct < min) printf "salvage: FAIL: below %s %%\n", min
	exit pct >= min ? 0 : 1
}' "$tmp/w3d/cases" || status=1
exit $status
