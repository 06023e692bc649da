#!/bin/sh
# Salvage of damaged files (issue 11, part 3; docs/w3dfix.md "Salvage"):
# every W3D file of the real corpus (../shared/corpus/w3d, or
# $W3DLINT_CORPUS) cut at 20 evenly spaced offsets and with one data chunk
# grown by 4, 12 and 1000 bytes past its parent (tests/salvage_gen.c), then
# `w3dfix --unsafe -o OUT` over all of them; a case succeeds when w3dfix
# wrote a file in which w3dlint finds no error-severity finding.
# Prints the percentage per kind and in all, lists every other case with its
# reason (the rules still at error, or why w3dfix did not write, and for a
# cut inside the first top-level object the chunks the cut goes through)
# and the count of those left per such chunk, and fails below $SALVAGE_MIN %
# (default 91.5: a point below the level reached, 92.5, so that a
# regression fails; the goal of issue 11 is 95).  The rates are also given
# by where the cut is (tests/salvage_gen.c).  Every case left is a cut
# inside the first top-level object with nothing whole before it, where
# what the cut leaves cannot load (docs/w3dfix.md "Salvage", "What cannot
# be salvaged"): a mesh cut before its first whole triangle or vertex, a
# skin cut before its first whole VERTEX_INFLUENCES record, a hierarchy
# before its first whole pivot, an object cut inside its header.
#
# Usage: tests/salvage.sh SALVAGE_GEN W3DFIX W3DLINT [EVERY]
# EVERY: take only every EVERY-th corpus file (default 1: all).
set -u
name=salvage
. "$(dirname "$0")/lib.sh"
gen=$(abspath "$1")
fix=$(abspath "$2")
lint=$(abspath "$3")
every=${4:-1}
min=${SALVAGE_MIN:-91.5}
corpus=${W3DLINT_CORPUS:-$(dirname "$0")/../../shared/corpus/w3d}
if [ ! -d "$corpus" ]; then
	echo "salvage: skipped: no corpus at $corpus"
	exit 0
fi
cd "$corpus" || exit 2
w3d_files .
awk -v e="$every" '(NR - 1) % e == 0 { sub(/^\.\//, ""); print }' "$tmp/files" >"$tmp/pick"
mkdir "$tmp/in" "$tmp/out"
"$gen" "$tmp/in" <"$tmp/pick" | LC_ALL=C sort >"$tmp/cases" || exit 2
cd "$tmp/in" || exit 2
"$fix" --unsafe --quiet -o "$tmp/out" . >/dev/null 2>"$tmp/fixerr"
cd "$tmp/out" || exit 2
# the rules at error per written file: "FILE RULE" lines
"$lint" --fold 0 . 2>/dev/null | sed -n 's/^\.\/\([^:]*\):[^ ]*: error: .* \[\([a-z][a-z0-9-]*\)\]\( (.*)\)\{0,1\}$/\1 \2/p' \
	| sort -u >"$tmp/errors"
awk -v min="$min" -v errs="$tmp/errors" -v fixerr="$tmp/fixerr" -v outdir="$tmp/out" '
BEGIN {
	while ((getline l < errs) > 0) { split(l, a, " "); k = a[1]; if (k in bad) bad[k] = bad[k] "," a[2]; else bad[k] = a[2] }
	while ((getline l < fixerr) > 0) {
		f = l; sub(/^w3dfix: (\.\/)?/, "", f); sub(/: .*/, "", f)
		m = l; sub(/^w3dfix: [^:]*: /, "", m)
		if (!(f in why)) why[f] = m
	}
}
BEGIN { FS = "\t" }
{
	where = $2
	path = NF >= 3 ? $3 : "-"
	if ($1 ~ /\.t[0-9]+\.w3d$/) kind = "truncated"
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
	split("first later grown", ws, " ")
	label["first"] = "cut inside the first top-level object"
	label["later"] = "cut after a whole top-level object"
	label["grown"] = "a data chunk grown past its parent"
	for (i = 1; i <= 3; i++) if (nw[ws[i]])
		printf "salvage: %s: %d of %d (%.1f %%)\n", label[ws[i]], goodw[ws[i]], nw[ws[i]], 100 * goodw[ws[i]] / nw[ws[i]]
	fflush()
	for (p in leftin) printf "salvage: left, cut in %s: %d\n", p, leftin[p] | "sort"
	close("sort")
	pct = total ? 100 * okall / total : 100
	printf "salvage: all %d of %d cases salvaged: %.1f %%\n", okall, total, pct
	if (pct < min) printf "salvage: FAIL: below %s %%\n", min
	exit pct >= min ? 0 : 1
}' "$tmp/cases"
