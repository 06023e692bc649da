#!/bin/sh
# Folder walks and unreadable paths (issue 16): a dangling link to a file
# the walk would never lint (readme.txt) is skipped, named only with
# --verbose; a dangling link named like a model is still an unreadable path
# (exit status 2); JSON counts a missing PATH as unreadable and SARIF says
# executionSuccessful false.
# Usage: tests/walk_links.sh W3DLINT W3DASM
set -u
w3dlint=$1
w3dasm=$2
name=walk_links
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$tmp/mod"
"$w3dasm" "$root/corpus/valid/mesh.w3d.txt" -o "$tmp/mod/tank.w3d" > /dev/null 2>&1 || { echo "$name: FAIL: w3dasm"; exit 1; }
ln -s "$tmp/nowhere/readme.txt" "$tmp/mod/readme.txt"
"$w3dlint" --no-progress "$tmp/mod" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" = 0 ] && ! errhas "readme.txt"; then
	ok "a dangling readme.txt link is skipped (exit status 0, nothing said)"
else
	bad "dangling readme.txt (exit status $rc)"
fi
"$w3dlint" --no-progress --verbose "$tmp/mod" > "$tmp/out" 2> "$tmp/err"
if errhas "readme.txt: skipped: a dangling link"; then ok "--verbose names it"; else bad "--verbose does not name the skipped link"; fi
ln -s "$tmp/nowhere/gone.w3d" "$tmp/mod/gone.w3d"
"$w3dlint" --no-progress "$tmp/mod" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" = 2 ] && errhas "gone.w3d"; then
	ok "near miss: a dangling gone.w3d link is an unreadable path (exit status 2)"
else
	bad "dangling gone.w3d (exit status $rc)"
fi
"$w3dlint" --no-progress -f json "$tmp/nonexistent" > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" = 2 ] && has '"unreadable": 1'; then
	ok "-f json on a missing path: exit status 2, unreadable 1"
else
	bad "-f json missing path (exit status $rc)"
fi
"$w3dlint" --no-progress -f sarif "$tmp/nonexistent" > "$tmp/out" 2> "$tmp/err"
if has '"executionSuccessful": false' && has "nonexistent: could not be read"; then
	ok "-f sarif on a missing path: executionSuccessful false, a notification naming it"
else
	bad "-f sarif missing path"
fi
# Several named paths (their folders' listings tell files from folders,
# cli/walk.h wl_walk_memo): a file, a hidden file, a folder, a missing name
# and a dangling link named like a model each count as when named alone.
cp "$tmp/mod/tank.w3d" "$tmp/mod/.hidden.w3d"
bin=$(abspath "$w3dlint")
(cd "$tmp" && "$bin" --no-progress mod/tank.w3d mod/.hidden.w3d mod mod/missing.w3d mod/gone.w3d) > "$tmp/out" 2> "$tmp/err"
rc=$?
if [ "$rc" = 2 ] && has "3 files" && errhas "mod/missing.w3d" && errhas "mod/gone.w3d" && [ "$(grep -c gone.w3d "$tmp/err")" = 2 ]; then
	ok "named paths: 3 files linted (named, hidden, in the folder), the missing name and the dangling link reported"
else
	bad "named paths (exit status $rc)"
fi
[ "$fail" -eq 0 ] && echo "$name: all passed"
exit "$fail"
