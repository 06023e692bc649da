#!/bin/sh
# w3dfix's options end to end (cli/main_w3dfix.c, docs/w3dfix.md): nothing
# written without --in-place / -o, --dry-run, --diff, -o to a file and to a
# folder (mirrored, every file written), --in-place with and without
# --backup (the .bak equals the original, permission bits kept), --select /
# --ignore by rule id and fixer id, --unsafe / --fix / --rebuild-aabtree,
# --config (ignore, fail-on, a bad file), --quiet, --list-fixes, --help,
# --version and the exit statuses 0 / 1 / 2.
# Inputs are assembled here with w3dasm from corpus/valid and corpus/rules.
# Usage: tests/cli_w3dfix.sh W3DFIX W3DASM
set -u
name=cli_w3dfix
. "$(dirname "$0")/lib.sh"
fix=$(abspath "$1")
asm=$(abspath "$2")
top=$(pwd)
tool=$fix
mk() { "$asm" "$top/corpus/$1.w3d.txt" -o "$2" || exit 2; }

# The originals, kept aside; every case works on copies in $tmp/w.
o="$tmp/orig"
mkdir -p "$o/sub"
mk valid/mesh "$o/clean.w3d"                          # nothing to fix
mk rules/trailing-bytes/fire "$o/trail.w3d"           # safe: trailing-bytes (319 -> 316)
mk rules/container-bit-on-leaf/fire "$o/sub/bit.w3d"  # safe: container-bits
mk rules/mesh-vertex-count-mismatch/fire "$o/count.w3d" # safe: header-counts (errors before)
mk rules/stray-bytes/fire "$o/stray.w3d"              # unsafe: drop-stray-bytes
reset() { rm -rf "$tmp/w" && cp -R "$o" "$tmp/w"; }
w="$tmp/w"
same_as_orig() { # FILE...: each equals its original
	for f in "$@"; do cmp -s "$w/$f" "$o/$f" || return 1; done
}

# --- nothing to fix: status 0
reset
run "$w/clean.w3d"
if [ $rc -eq 0 ] && has "1 file, 0 fixed, 1 unchanged, 0 edits, " && has " 0 with findings at the failing severity left, 0 verification failures"; then
	ok "a clean file: status 0, summary line"
else
	bad "clean file (status $rc)"
fi

# --- without --in-place / -o: reports, writes nothing; status 1 (count.w3d
# has an error, as w3dlint says)
reset
run "$w/trail.w3d" "$w/count.w3d"
if [ $rc -eq 1 ] && has "$w/trail.w3d:0x13C: trailing-bytes: 3 byte(s) at 0x13C: removed [trailing-bytes]" &&
	has "header-counts: numvertices: 5 -> 4 [mesh-vertex-count-mismatch] (MESH[DEMO.QUAD]/MESH_HEADER3)" &&
	has "(not written: use --in-place or -o)" && has "2 files, 0 fixed, 2 to fix (not written), 0 unchanged, 2 edits" &&
	same_as_orig trail.w3d count.w3d; then
	ok "no --in-place/-o: edits listed, nothing written, status 1"
else
	bad "report only (status $rc)"
fi

# --- --dry-run: lists every edit, writes nothing even with --in-place
reset
run --dry-run --in-place "$w"
if [ $rc -eq 1 ] && has "trail.w3d:0x13C: trailing-bytes:" && has "bit.w3d:0xC: container-bits: bit 31 of the size: 1 -> 0 [container-bit-on-leaf]" &&
	has "(dry run)" && ! has "edit(s) written" && has "5 files, 0 fixed, 3 to fix (not written), 2 unchanged, 3 edits" &&
	same_as_orig clean.w3d trail.w3d sub/bit.w3d count.w3d stray.w3d &&
	[ -z "$(find "$w" -name '*.w3dfix-*' -o -name '*.wltmp-*' -o -name '*.bak')" ]; then
	ok "--dry-run --in-place: every edit listed, no file written or left behind"
else
	bad "--dry-run (status $rc)"
fi
# trail.w3d's only finding is a warning: status 0, as w3dlint's; --check
# makes "something to fix" status 1.
run -n -q "$w/trail.w3d"
if [ $rc -eq 0 ] && has "trail.w3d:0x13C: trailing-bytes:" && ! has "(dry run)" && same_as_orig trail.w3d; then
	ok "-n -q: the edit lines and the summary only; a warning to fix: status 0, as w3dlint's"
else
	bad "-n -q (status $rc)"
fi
run -n -q --check "$w/trail.w3d"
if [ $rc -eq 1 ] && same_as_orig trail.w3d; then
	ok "-n --check: something to fix: status 1"
else
	bad "-n --check (status $rc)"
fi

# --- the per-file line counts what happened; edits in offset order
reset
run -n "$w/count.w3d"
if has "count.w3d: 1 edit(s) (dry run), 2 finding(s) before, 0 after, 2 finding(s) at the failing severity before, 0 after" &&
	has "1 file, 0 fixed, 1 to fix (not written), 0 unchanged, 1 edit, " && has " 0 with findings at the failing severity left"; then
	ok "dry run: findings before and after computed, nothing counted as fixed"
else
	bad "dry-run counts (status $rc)"
fi
mk rules/chunk-truncated/fire "$tmp/cut.w3d" # salvage: the cut chunk's edit, then its parent's
run -n -u "$tmp/cut.w3d"
rm -f "$tmp/cut.w3d"
offs=$(sed -n 's/^[^:]*:0x\([0-9A-F]*\): .*/\1/p' "$tmp/out")
sorted=$(for x in $offs; do printf '%d %s\n' "0x$x" "$x"; done | sort -n -s -k1,1 | cut -d' ' -f2)
if [ "$(echo $offs | wc -w)" -ge 3 ] && [ "$offs" = "$sorted" ] && ! grep -q '0x[0-9a-f]*[a-f]' "$tmp/out"; then
	ok "edits listed in offset order, offsets as 0xHEX in upper case"
else
	bad "edit order / offset format"
fi

# the AABTree rebuild reads old -> new for each measure
mk rules/aabtree-leaf-out-of-range/fire "$tmp/tree.w3d"
run -n --rebuild-aabtree "$tmp/tree.w3d"
rm -f "$tmp/tree.w3d"
if has "rebuild-aabtree: rebuilt AABTree of mesh 'DEMO.QUAD': 3 -> 1 nodes, depth 2 -> 1, SAH cost 4.00 -> 2.00 [aabtree-leaf-out-of-range]"; then
	ok "the AABTree rebuild line: nodes, depth and SAH cost, old -> new"
else
	bad "AABTree rebuild line (status $rc)"
fi

# --- --diff: per chunk path, then the size change
reset
run --diff "$w/trail.w3d" "$w/count.w3d"
if [ $rc -eq 1 ] && has "$w/trail.w3d:" && has "  (bytes)@0x13C: trailing-bytes (1 edit)" &&
	has "  file size: 319 -> 316 bytes" &&
	has "  MESH[DEMO.QUAD]/MESH_HEADER3: mesh-vertex-count-mismatch (1 edit)" &&
	has "  file size: 316 -> 316 bytes" && ! has ":0x13C: trailing-bytes:" && same_as_orig trail.w3d count.w3d; then
	ok "--diff: chunk paths, rules, edit counts, size change; writes nothing"
else
	bad "--diff (status $rc)"
fi

# --- -o FILE for one input
reset
run -o "$tmp/fixed.w3d" "$w/trail.w3d"
head -c 316 "$o/trail.w3d" >"$tmp/trail.expect"
if [ $rc -eq 0 ] && has "1 edit(s) written" && cmp -s "$tmp/fixed.w3d" "$tmp/trail.expect" && same_as_orig trail.w3d; then
	ok "-o FILE: the repaired bytes (trailing bytes cut), input untouched, status 0"
else
	bad "-o FILE (status $rc)"
fi
run "$tmp/fixed.w3d"
if [ $rc -eq 0 ] && has "0 fixed, 1 unchanged"; then
	ok "the -o output needs no further fix"
else
	bad "re-running on the -o output (status $rc)"
fi

# --- -o DIR for a folder: mirrored, every file written
reset
run -o "$tmp/outdir" "$w"
if [ -f "$tmp/outdir/clean.w3d" ] && [ -f "$tmp/outdir/sub/bit.w3d" ] && [ -f "$tmp/outdir/stray.w3d" ] &&
	cmp -s "$tmp/outdir/clean.w3d" "$o/clean.w3d" && cmp -s "$tmp/outdir/stray.w3d" "$o/stray.w3d" &&
	cmp -s "$tmp/outdir/trail.w3d" "$tmp/trail.expect" && ! cmp -s "$tmp/outdir/sub/bit.w3d" "$o/sub/bit.w3d" &&
	[ "$(wc -c <"$tmp/outdir/sub/bit.w3d")" -eq "$(wc -c <"$o/sub/bit.w3d")" ] &&
	same_as_orig clean.w3d trail.w3d sub/bit.w3d count.w3d stray.w3d; then
	ok "-o DIR: folder mirrored (sub/), unchanged files copied, repaired ones written"
else
	bad "-o DIR (status $rc)"
fi
# stray.w3d is left (unsafe fixer not run): status 1
if [ $rc -eq 1 ] && has "5 files, 3 fixed, 2 unchanged"; then
	ok "-o DIR: status 1 while stray-bytes (unsafe) remains"
else
	bad "-o DIR status $rc"
fi
# one file into an existing folder
mkdir -p "$tmp/into"
run -o "$tmp/into" "$w/trail.w3d"
if [ $rc -eq 0 ] && cmp -s "$tmp/into/trail.w3d" "$tmp/trail.expect"; then
	ok "-o DIR with one file: DIR/NAME"
else
	bad "-o existing folder, one file (status $rc)"
fi

# --- --in-place, --backup
reset
chmod 640 "$w/trail.w3d"
run --in-place --backup "$w/trail.w3d"
mode=$(stat -c %a "$w/trail.w3d" 2>/dev/null || echo 640)
if [ $rc -eq 0 ] && has "written" && cmp -s "$w/trail.w3d.bak" "$o/trail.w3d" &&
	cmp -s "$w/trail.w3d" "$tmp/trail.expect" && [ "$mode" = 640 ] &&
	[ -z "$(find "$w" -name '*.w3dfix-*' -o -name '*.wltmp-*')" ]; then
	ok "--in-place --backup: .bak equals the original, file repaired, mode kept, no temporary left"
else
	bad "--in-place --backup (status $rc, mode $mode)"
fi
reset
run -i -b "$w/clean.w3d"
if [ $rc -eq 0 ] && [ ! -e "$w/clean.w3d.bak" ] && same_as_orig clean.w3d; then
	ok "-i -b on a clean file: nothing written, no .bak"
else
	bad "-i -b clean (status $rc)"
fi
reset
run -i "$w/count.w3d" "$w/sub"
if [ $rc -eq 0 ] && [ ! -e "$w/count.w3d.bak" ] && [ ! -e "$w/sub/bit.w3d.bak" ] &&
	! cmp -s "$w/count.w3d" "$o/count.w3d" && ! cmp -s "$w/sub/bit.w3d" "$o/sub/bit.w3d" &&
	has "2 files, 2 fixed, 0 unchanged, 2 edits, " && has " 0 with findings at the failing severity left"; then
	ok "-i: files repaired in place, no .bak, status 0"
else
	bad "-i (status $rc)"
fi

# --- --select / --ignore (rule ids, fixer ids, globs)
reset
run --select trailing-bytes "$w"
if has "trail.w3d:0x13C: trailing-bytes" && ! has "container-bits" && ! has "header-counts" &&
	has "5 files, 0 fixed, 1 to fix (not written), 4 unchanged, 1 edit"; then
	ok "--select RULE: only that repair"
else
	bad "--select trailing-bytes (status $rc)"
fi
run -s 'container-bit*,mesh-vertex-*' "$w"
if has "container-bits:" && has "header-counts:" && ! has "trailing-bytes:" && has "2 to fix"; then
	ok "-s with a comma-separated glob list"
else
	bad "-s globs (status $rc)"
fi
run --ignore container-bits,header-counts "$w"
if has "trailing-bytes:" && ! has "container-bits:" && ! has "header-counts:" && has "1 to fix"; then
	ok "--ignore by fixer id"
else
	bad "--ignore fixer ids (status $rc)"
fi
run -I trailing-bytes -I container-bit-on-leaf "$w"
if ! has "trailing-bytes:" && ! has "container-bits:" && has "header-counts:" && has "1 to fix"; then
	ok "-I repeated, by rule id"
else
	bad "-I rule ids (status $rc)"
fi

# --- --unsafe, --fix, --rebuild-aabtree
reset
run "$w/stray.w3d"
if [ $rc -eq 1 ] && has "0 fixed, 1 unchanged" && ! has "drop-stray-bytes:" &&
	has "  findings left: $w/stray.w3d (1 finding at the failing severity)" &&
	has "  --unsafe (or --fix drop-stray-bytes) would repair 1 more finding at the failing severity"; then
	ok "an unsafe repair is not made by default; the summary lists the file left and the fixer that would repair it"
else
	bad "stray default (status $rc)"
fi
run --unsafe -o "$tmp/stray_fixed.w3d" "$w/stray.w3d"
if [ $rc -eq 0 ] && has "drop-stray-bytes: 3 byte(s) at 0x13C: removed [stray-bytes]" &&
	[ "$(wc -c <"$tmp/stray_fixed.w3d")" -eq $(($(wc -c <"$o/stray.w3d") - 3)) ]; then
	ok "--unsafe runs drop-stray-bytes (3 bytes less)"
else
	bad "--unsafe (status $rc)"
fi
run --fix drop-stray-bytes "$w/stray.w3d"
if [ $rc -eq 1 ] && has "drop-stray-bytes:" && has "1 to fix"; then
	ok "--fix ID runs one unsafe fixer"
else
	bad "--fix drop-stray-bytes (status $rc)"
fi
run -u -s trailing-bytes "$w/stray.w3d"
if has "0 fixed" && ! has "drop-stray-bytes"; then
	ok "--unsafe with --select: the unsafe fixer stays out"
else
	bad "-u -s (status $rc)"
fi
run --rebuild-aabtree "$w/clean.w3d"
if [ $rc -eq 0 ] && has "1 file"; then
	ok "--rebuild-aabtree is accepted"
else
	bad "--rebuild-aabtree (status $rc)"
fi
run --fix no-such-fixer "$w/clean.w3d"
if [ $rc -eq 2 ] && errhas "unknown fixer 'no-such-fixer'"; then
	ok "--fix with an unknown id: status 2"
else
	bad "--fix unknown (status $rc)"
fi

# --- --config
reset
printf 'ignore: ["trailing-bytes"]\n' >"$tmp/ignore.yaml"
run --config "$tmp/ignore.yaml" "$w/trail.w3d"
if [ $rc -eq 0 ] && has "0 fixed, 1 unchanged"; then
	ok "--config ignoring the rule: nothing to repair, status 0"
else
	bad "--config ignore (status $rc)"
fi
printf 'fail-on: warning\n' >"$tmp/warn.yaml"
run -c "$tmp/warn.yaml" "$w/trail.w3d"
if [ $rc -eq 1 ] && has "1 finding(s) at the failing severity before, 0 after"; then
	ok "-c with fail-on: warning counts the warning"
else
	bad "-c fail-on (status $rc)"
fi
printf 'bogus: 1\n' >"$tmp/bad.yaml"
run -c "$tmp/bad.yaml" "$w/trail.w3d"
if [ $rc -eq 2 ] && errhas "unknown key 'bogus'" && same_as_orig trail.w3d; then
	ok "a bad configuration: status 2"
else
	bad "bad config (status $rc)"
fi
run -c "$tmp/none.yaml" "$w/trail.w3d"
if [ $rc -eq 2 ] && errhas "none.yaml"; then
	ok "a missing configuration: status 2, named"
else
	bad "missing config (status $rc)"
fi

# --- --quiet
reset
run --quiet "$w/trail.w3d" "$w/count.w3d"
if [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/out")" -eq 2 ] && has "2 files, 0 fixed, 2 to fix (not written)" &&
	grep -q 'trail.w3d: bytes: [0-9]* kept, 3 dropped of [0-9]*$' "$tmp/out"; then
	ok "--quiet: the summary line, and the bytes line of the file that loses bytes"
else
	bad "--quiet (status $rc)"
fi

# --- --list-fixes: every fixer of docs/w3dfix.md with its safety
run --list-fixes
miss=""
for f in "container-sizes safe" "container-bits safe" "trailing-bytes safe" "header-counts safe" \
	"aabtree-header-counts unsafe" "chunk-overruns unsafe" "drop-stray-bytes unsafe" \
	"drop-unreadable unsafe" "trim-partial-elements unsafe" "rebuild-aabtree"; do
	id=${f%% *}
	kind=${f#* }
	[ "$kind" = "$id" ] && kind=""
	grep -E -q "^$id +$kind" "$tmp/out" || miss="$miss $f"
done
if [ $rc -eq 0 ] && [ -z "$miss" ] && grep -E -q '^trailing-bytes +safe +trailing-bytes$' "$tmp/out"; then
	ok "--list-fixes: every documented fixer, safe/unsafe, rule ids"
else
	bad "--list-fixes (status $rc) misses:$miss"
fi

# --- help, version, usage and I/O errors
run --help
miss=""
for opt in --in-place --output --backup --dry-run --diff --select --ignore --unsafe --fix \
	--rebuild-aabtree --config --quiet --list-fixes --help --version "Exit status:"; do
	has "$opt" || miss="$miss $opt"
done
if [ $rc -eq 0 ] && [ -z "$miss" ]; then ok "--help lists every option"; else bad "--help misses:$miss"; fi
run -V
if [ $rc -eq 0 ] && grep -E -q '^w3dfix [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out"; then ok "-V"; else bad "-V (status $rc)"; fi
run
if [ $rc -eq 2 ] && errhas "no PATH given"; then ok "no PATH: status 2"; else bad "no PATH (status $rc)"; fi
run --bogus "$w/clean.w3d"
if [ $rc -eq 2 ] && errhas "unknown option '--bogus'" && errhas "Try 'w3dfix --help'"; then ok "unknown option: status 2, named"; else bad "unknown option (status $rc)"; fi
run -i -o "$tmp/x.w3d" "$w/clean.w3d"
if [ $rc -eq 2 ] && errhas "exclude each other"; then ok "-i with -o: status 2"; else bad "-i -o (status $rc)"; fi
run --backup "$w/clean.w3d"
if [ $rc -eq 2 ] && errhas "--backup needs --in-place"; then ok "--backup alone: status 2"; else bad "--backup alone (status $rc)"; fi
run "$w/missing.w3d"
if [ $rc -eq 2 ] && errhas "$w/missing.w3d"; then
	ok "a missing PATH: status 2, the path named"
else
	bad "missing PATH (status $rc)"
fi
reset
run -o "$w/clean.w3d/cannot" "$w/trail.w3d"
if [ $rc -eq 2 ] && errhas "$w/clean.w3d/cannot: cannot write: Not a directory" && ! has "written" &&
	has "0 fixed"; then
	ok "-o to an unwritable place: status 2, the output path and the reason named, nothing counted as written"
else
	bad "-o unwritable (status $rc)"
fi
# -o EXISTING_FILE with a folder: every write fails, none is reported as done
reset
cp "$o/clean.w3d" "$tmp/existing.w3d"
run -o "$tmp/existing.w3d" "$w/"
if [ $rc -eq 2 ] && errhas "$tmp/existing.w3d/trail.w3d: cannot write: Not a directory" && ! has "written" &&
	has "5 files, 0 fixed" && cmp -s "$tmp/existing.w3d" "$o/clean.w3d"; then
	ok "-o EXISTING_FILE folder/: status 2, each output path named, 0 fixed"
else
	bad "-o EXISTING_FILE folder/ (status $rc)"
fi
rm -f "$tmp/existing.w3d"
# a read-only folder (not for root, who writes there anyway)
if [ "$(id -u)" -ne 0 ]; then
	reset
	chmod 555 "$w/sub"
	run -i "$w/sub/bit.w3d"
	chmod 755 "$w/sub"
	if [ $rc -eq 2 ] && errhas "$w/sub/bit.w3d: cannot write: Permission denied" && ! has "written" &&
		has "0 fixed" && same_as_orig sub/bit.w3d; then
		ok "-i in a read-only folder: status 2, path and reason, nothing counted as written"
	else
		bad "-i read-only (status $rc)"
	fi
else
	echo "cli_w3dfix: skipped: the read-only folder case (running as root)"
fi

# --- --in-place through symbolic links (named, and found in a folder)
reset
mkdir "$w/links"
ln -s ../trail.w3d "$w/links/t.w3d"
chmod 640 "$w/trail.w3d"
run -i "$w/links"
mode=$(stat -c %a "$w/trail.w3d" 2>/dev/null || echo 640)
if [ $rc -eq 0 ] && [ -L "$w/links/t.w3d" ] && cmp -s "$w/trail.w3d" "$tmp/trail.expect" && [ "$mode" = 640 ] &&
	has "written to $(cd "$w" && pwd -P)/trail.w3d (through the symbolic link)" &&
	[ -z "$(find "$w" -name '*.w3dfix-*' -o -name '*.wltmp-*')" ]; then
	ok "-i on a link found in a folder: the target repaired, its mode kept, the link kept"
else
	bad "-i through a link in a folder (status $rc, mode $mode)"
fi
reset
ln -s count.w3d "$w/count_link.w3d"
run -i "$w/count_link.w3d"
if [ $rc -eq 0 ] && [ -L "$w/count_link.w3d" ] && ! cmp -s "$w/count.w3d" "$o/count.w3d" &&
	has "(through the symbolic link)"; then
	ok "-i on a link named on the command line: written through, the link kept"
else
	bad "-i through a named link (status $rc)"
fi

# --- --backup never replaces an older backup: FILE.bak stays, then FILE.bak.1, .2
reset
printf 'older backup' >"$w/trail.w3d.bak"
run -i -b "$w/trail.w3d"
cp "$o/trail.w3d" "$w/trail.w3d"
run -i -b "$w/trail.w3d"
if [ $rc -eq 0 ] && [ "$(cat "$w/trail.w3d.bak")" = "older backup" ] && cmp -s "$w/trail.w3d.bak.1" "$o/trail.w3d" &&
	cmp -s "$w/trail.w3d.bak.2" "$o/trail.w3d" && has "the original kept as $w/trail.w3d.bak.2" &&
	cmp -s "$w/trail.w3d" "$tmp/trail.expect"; then
	ok "--backup: an existing .bak is kept, the next ones are .bak.1 and .bak.2"
else
	bad "--backup numbering (status $rc)"
fi

# --- legacy files (no container sets bit 31) stay legacy unless asked
mk rules/container-bit-missing/fire "$tmp/legacy.w3d"
mk valid/mesh "$tmp/modern.w3d"
cat "$tmp/legacy.w3d" "$tmp/modern.w3d" >"$tmp/mixed.w3d"
cp "$tmp/legacy.w3d" "$tmp/legacy.orig"
run -i "$tmp/legacy.w3d"
if [ $rc -eq 0 ] && has "0 fixed, 1 unchanged" && cmp -s "$tmp/legacy.w3d" "$tmp/legacy.orig"; then
	ok "a legacy file: the default safe run leaves its container bits alone"
else
	bad "legacy file, default run (status $rc)"
fi
run -n --fix container-bits "$tmp/legacy.w3d"
if has "container-bits: bit 31 of the size: 0 -> 1 [container-bit-missing]" && has "1 to fix"; then
	ok "a legacy file with --fix container-bits: the bits are set"
else
	bad "legacy file, --fix container-bits (status $rc)"
fi
run -n --select container-bit-missing "$tmp/legacy.w3d"
if has "[container-bit-missing]" && has "1 to fix"; then
	ok "a legacy file with --select container-bit-missing: the bits are set"
else
	bad "legacy file, --select container-bit-missing (status $rc)"
fi
run -n "$tmp/mixed.w3d"
if has "container-bits: bit 31 of the size: 0 -> 1 [container-bit-missing]" && has "1 to fix"; then
	ok "a file where some containers set the bit: the missing ones are set by default"
else
	bad "mixed file (status $rc)"
fi
rm -f "$tmp/legacy.w3d" "$tmp/legacy.orig" "$tmp/modern.w3d" "$tmp/mixed.w3d"

# --- progress on a terminal (cli/progress.h, as w3dlint): more than 20 files,
# stderr a terminal (script(1) gives one), CI unset.  A machine without
# pseudo-terminals (a fresh root with no /dev/pts) skips the case with a
# message: script(1) fails there before running anything.
if ! command -v script >/dev/null 2>&1; then
	echo "cli_w3dfix: skipped: the progress case (no script(1))"
elif ! script -qec true /dev/null >/dev/null 2>&1; then
	echo "cli_w3dfix: skipped: the progress case (script(1) cannot open a pseudo-terminal here)"
else
	mkdir "$tmp/many"
	for i in $(seq 1 21); do cp "$o/clean.w3d" "$tmp/many/m$i.w3d"; done
	env -u CI script -qec "$fix -q $tmp/many" /dev/null >"$tmp/tty" 2>&1
	CI=1 script -qec "$fix -q $tmp/many" /dev/null >"$tmp/tty_ci" 2>&1
	rm -f "$tmp/many/m21.w3d"
	env -u CI script -qec "$fix -q $tmp/many" /dev/null >"$tmp/tty_20" 2>&1
	if grep -F -q "[21/21] $tmp/many/m9.w3d" "$tmp/tty" && ! grep -F -q "[1/" "$tmp/tty_ci" &&
		! grep -F -q "[1/" "$tmp/tty_20" && grep -F -q "21 files, 0 fixed" "$tmp/tty"; then
		ok "progress on a terminal for more than 20 files, none under CI or for 20 files"
	else
		bad "progress line: $(tr '\r' '\n' <"$tmp/tty" | head -n 3)"
	fi
	rm -rf "$tmp/many"
fi

# --- --unsafe on garbage: a repair that leaves no readable model is not written
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 102400; i++) printf "%c", int(rand() * 256) }' >"$o/garbage.w3d"
cp "$o/garbage.w3d" "$w/garbage.w3d"
run --unsafe --in-place "$w/garbage.w3d"
if [ $rc -eq 1 ] && same_as_orig garbage.w3d && errhas "no readable model" && has "0 fixed" &&
	[ -z "$(find "$w" -name 'garbage.w3d?*')" ]; then
	ok "--unsafe --in-place on 100 KB of random bytes: not written, the original stays"
else
	bad "--unsafe on garbage (status $rc)"
fi
rm -f "$o/garbage.w3d"

# --- a read-only file (P3D ODOL): said plainly, the file never changed
printf 'ODOL\062\000\000\000\000\000\000\000' >"$o/model.p3d"
cp "$o/model.p3d" "$w/model.p3d"
run --unsafe --in-place "$w/model.p3d"
if same_as_orig model.p3d && has "model.p3d: not repaired: w3dfix never changes these Arma P3D" && has "ODOL (binarised)" &&
	[ -z "$(find "$w" -name 'model.p3d?*')" ]; then
	ok "an ODOL .p3d file: w3dfix says it does not repair ODOL and leaves it as it was"
else
	bad "w3dfix on a .p3d file (status $rc)"
fi
rm -f "$o/model.p3d" "$w/model.p3d"

if [ $fail -ne 0 ]; then
	echo "cli_w3dfix: FAILED"
	exit 1
fi
echo "cli_w3dfix: all passed"
