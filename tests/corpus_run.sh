#!/bin/sh
# The golden corpus runner (corpus/README.md): assembles every text-form case
# of corpus/ (NAME.w3d.txt into NAME.w3d, NAME.b3d.txt into NAME.b3d) with
# w3dasm, lints it with `w3dlint --format json`, reduces the
# report to one line per finding,
#
#     0xOFFSET RULE SEVERITY CHUNK_PATH
#
# and compares that with the .expected file beside the case (diff -u; the
# diff is printed on a mismatch).  Messages are left out on purpose, so
# rewording a message never breaks a case.
#
# It also checks the coverage of the catalogue: every rule id of
# `w3dlint --list-rules` needs corpus/rules/<id>/ with fire.w3d.txt (whose
# report holds the rule) and near.w3d.txt (whose report does not), or the
# same as .b3d.txt for a B3D rule, except
# the rules of the allow-list below, which cannot come from one file; each
# of those has corpus/rules/<id>/README.md saying why and where it is tested.
#
# A rule folder may hold more pairs, fire-NAME.w3d.txt / near-NAME.w3d.txt,
# checked the same way (mesh-bounds-box: a skin in the bind pose).
# A rule that reports one finding per defective element may have
# corpus/rules/<id>/more.w3d.txt: fire.w3d.txt with one more defective
# element.  Its report must hold exactly one more finding of the rule than
# fire's (one finding per element, so a baseline sees the new one).
#
# A rule folder may hold beside/: its files are put beside the assembled
# binary (text-form models there, NAME.w3d.txt or NAME.b3d.txt, assembled
# too) and the case lints that folder instead of the one file, so that a
# cross-file rule has a real case: beside/ holds the (empty) image files a
# texture name is looked up in, or the model that defines the hierarchy a
# case refers to.
#
# Usage: tests/corpus_run.sh [--update] W3DASM W3DLINT
#   --update   write the .expected files from the current reports instead of
#              comparing (then review every changed file with git diff).
set -u
update=0
if [ "${1:-}" = "--update" ]; then
	update=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: tests/corpus_run.sh [--update] W3DASM W3DLINT" >&2
	exit 2
fi
asm=$1
lint=$2
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/corpus

# Rules that no single file can produce (see corpus/rules/<id>/README.md).
ALLOW="out-of-memory internal-unknown-rule chunk-depth-limit
b3d-tris-too-many-vertices"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# No .w3dlint.yaml of the surroundings may change the reports.
: > "$tmp/empty.yaml"

# jansson's indented JSON has one key per line; a finding's object closes
# with a line holding only "}" (or "},").
extract() {
	awk '
	/"findings": \[/ { inf = 1; next }
	inf && /^ *\],?$/ { inf = 0; next }
	!inf { next }
	{
		line = $0
		sub(/^ */, "", line)
		if (line ~ /^"rule": /)       { v = line; sub(/^"rule": "/, "", v); sub(/",?$/, "", v); rule = v }
		else if (line ~ /^"severity": /) { v = line; sub(/^"severity": "/, "", v); sub(/",?$/, "", v); sev = v }
		else if (line ~ /^"offset": /)   { v = line; sub(/^"offset": /, "", v); sub(/,$/, "", v); off = v }
		else if (line ~ /^"chunk_path": /) { v = line; sub(/^"chunk_path": /, "", v); sub(/,$/, "", v); if (v == "null") v = ""; gsub(/^"|"$/, "", v); path = v }
		else if (line ~ /^},?$/ && rule != "") {
			printf "0x%08X %s %s %s\n", off + 0, rule, sev, (path == "" ? "-" : path)
			rule = ""; sev = ""; off = 0; path = ""
		}
	}' "$1"
}

fail=0
cases=0
updated=0
# run CASE.w3d.txt (or CASE.b3d.txt): assembles, lints and compares with
# CASE.expected.
run() {
	txt=$1
	case $txt in *.b3d.txt) ext=b3d ;; *) ext=w3d ;; esac
	base=${txt%."$ext".txt}
	exp=$base.expected
	rel=${txt#"$root"/}
	cases=$((cases + 1))
	# The binary is named after the case (fire.w3d, near.w3d, mesh.w3d):
	# hierarchy-name-not-file-name compares the hierarchy with that name.
	dir=$tmp/$cases
	mkdir -p "$dir/in"
	bin=$dir/in/$(basename "$base").$ext
	target=$bin
	if [ -d "$(dirname "$txt")/beside" ]; then
		cp -R "$(dirname "$txt")/beside/." "$dir/in/"
		# Text-form models beside are assembled (other.w3d.txt into
		# other.w3d) like the case itself.
		for b in "$dir"/in/*.w3d.txt "$dir"/in/*.b3d.txt; do
			[ -e "$b" ] || continue
			if ! "$asm" "$b" -o "${b%.txt}" 2>> "$dir/asm.err"; then
				echo "corpus: FAIL $rel: w3dasm failed on beside/$(basename "$b"):"
				sed 's/^/    /' "$dir/asm.err"
				fail=$((fail + 1))
				return
			fi
			rm -f "$b"
		done
		target=$dir/in
	fi
	if ! "$asm" "$txt" -o "$bin" 2> "$dir/asm.err"; then
		echo "corpus: FAIL $rel: w3dasm failed:"
		sed 's/^/    /' "$dir/asm.err"
		fail=$((fail + 1))
		return
	fi
	# A case folder may hold config.yaml (for a rule that is off by
	# default); every other case is linted with an empty configuration.
	# --extend-select '*': the rules outside the default set (opt-in, or
	# off for every target) run too, so every rule has its cases; the
	# targets are the format's all (no mod layout here): each rule at the
	# strictest severity a target gives it.  A B3D file with no layout gets
	# only the game engines under auto, so B3D cases name every target
	# (--target any) for Assimp's severities to be tested too.
	# A case folder may hold base/ (a base game: README.md alone for an
	# empty one), passed as --base: then a reference no file of the case
	# resolves is a per-reference finding, not part of the run's note on
	# unresolved names (README, Base game).
	cfg=$tmp/empty.yaml
	[ -f "$(dirname "$txt")/config.yaml" ] && cfg=$(dirname "$txt")/config.yaml
	tgt=auto
	[ "$ext" = b3d ] && tgt=any
	set --
	[ -d "$(dirname "$txt")/base" ] && set -- --base "$(dirname "$txt")/base"
	"$lint" --no-progress --config "$cfg" --target "$tgt" --extend-select '*' "$@" \
		--format json -o "$dir/report.json" "$target" \
		2> "$dir/lint.err"
	rc=$?
	if [ "$rc" -ge 2 ]; then
		echo "corpus: FAIL $rel: w3dlint exit status $rc:"
		sed 's/^/    /' "$dir/lint.err"
		fail=$((fail + 1))
		return
	fi
	extract "$dir/report.json" > "$dir/got"
	if [ "$update" -eq 1 ]; then
		if [ ! -f "$exp" ] || ! cmp -s "$dir/got" "$exp"; then
			cp "$dir/got" "$exp"
			echo "corpus: wrote ${exp#"$root"/}"
			updated=$((updated + 1))
		fi
		return
	fi
	if [ ! -f "$exp" ]; then
		echo "corpus: FAIL $rel: no ${exp#"$root"/} (run tests/corpus_run.sh --update, then review it)"
		fail=$((fail + 1))
		return
	fi
	if ! diff -u --label "${exp#"$root"/} (expected)" --label "$rel (w3dlint)" "$exp" "$dir/got" > "$dir/diff"; then
		echo "corpus: FAIL $rel: the report differs from the expected one:"
		sed 's/^/    /' "$dir/diff"
		fail=$((fail + 1))
	fi
}

# has_rule FILE RULE: FILE (an .expected) names RULE.
has_rule() { awk -v r="$2" '$2 == r { f = 1 } END { exit !f }' "$1"; }
# count_rule FILE RULE: the number of findings of RULE in FILE.
count_rule() { awk -v r="$2" '$2 == r { n++ } END { print n + 0 }' "$1"; }

for txt in "$corpus"/valid/*.w3d.txt "$corpus"/valid/*.b3d.txt; do
	[ -e "$txt" ] && run "$txt"
done
for d in "$corpus"/rules/*/; do
	[ -d "$d" ] || continue
	for txt in "$d"fire*.w3d.txt "$d"near*.w3d.txt "$d"more.w3d.txt \
		"$d"fire*.b3d.txt "$d"near*.b3d.txt "$d"more.b3d.txt; do
		[ -e "$txt" ] && run "$txt"
	done
done
# has_case DIR NAME: DIR holds NAME.w3d.txt or NAME.b3d.txt.
has_case() { [ -f "$1/$2.w3d.txt" ] || [ -f "$1/$2.b3d.txt" ]; }

# Coverage of the catalogue.
"$lint" --list-rules | awk '{ print $1 }' > "$tmp/rules"
if [ ! -s "$tmp/rules" ]; then
	echo "corpus: FAIL: w3dlint --list-rules printed nothing"
	fail=$((fail + 1))
fi
missing=""
while IFS= read -r id; do
	d=$corpus/rules/$id
	allowed=0
	for a in $ALLOW; do [ "$a" = "$id" ] && allowed=1; done
	# A B3D rule may still be tested by unit tests only (its cases came
	# before the B3D text form), and a P3D rule always is (P3D is read-only:
	# no text form assembles it); its README.md says where ("Tested instead
	# in: ..."); so is an archive rule (archives are built by
	# tests/build/archbuild.c, not assembled from the text form).
	case $id in b3d-*|p3d-*|archive-*) grep -q '^Tested instead in:' "$d/README.md" 2>/dev/null && allowed=1 ;; esac
	if [ "$allowed" -eq 1 ]; then
		if [ ! -f "$d/README.md" ]; then
			echo "corpus: FAIL rules/$id: allow-listed but has no README.md saying where it is tested"
			fail=$((fail + 1))
		fi
		continue
	fi
	if ! has_case "$d" fire || ! has_case "$d" near; then
		missing="$missing $id"
		continue
	fi
	[ "$update" -eq 1 ] && continue
	for e in "$d"/fire*.expected; do
		if [ -f "$e" ] && ! has_rule "$e" "$id"; then
			echo "corpus: FAIL rules/$id/$(basename "$e") does not hold $id"
			fail=$((fail + 1))
		fi
	done
	for e in "$d"/near*.expected; do
		if [ -f "$e" ] && has_rule "$e" "$id"; then
			echo "corpus: FAIL rules/$id/$(basename "$e") holds $id (a near-miss must not fire it)"
			fail=$((fail + 1))
		fi
	done
	if [ -f "$d/more.expected" ] && [ -f "$d/fire.expected" ]; then
		nf=$(count_rule "$d/fire.expected" "$id")
		nm=$(count_rule "$d/more.expected" "$id")
		if [ "$nm" -ne $((nf + 1)) ]; then
			echo "corpus: FAIL rules/$id/more.expected holds $nm findings of $id, fire.expected $nf: one more defective element must add exactly one finding"
			fail=$((fail + 1))
		fi
	fi
done < "$tmp/rules"
# A case folder of a rule that is not in the catalogue (renamed or removed).
for d in "$corpus"/rules/*/; do
	[ -d "$d" ] || continue
	id=$(basename "$d")
	if ! grep -qx "$id" "$tmp/rules"; then
		echo "corpus: FAIL rules/$id: no such rule in the catalogue"
		fail=$((fail + 1))
	fi
done
if [ -n "$missing" ]; then
	n=$(echo $missing | wc -w)
	echo "corpus: FAIL: $n catalogue rule(s) without a fire/near case:$missing"
	fail=$((fail + 1))
fi

if [ "$update" -eq 1 ]; then
	echo "corpus: $cases cases, $updated expected file(s) written; review them (git diff corpus/)"
	[ "$fail" -eq 0 ]
	exit
fi
echo "corpus: $cases cases, $fail failure(s)"
[ "$fail" -eq 0 ]
