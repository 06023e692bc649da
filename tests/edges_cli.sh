#!/bin/sh
# Where the tools disagreed, and the edges of the write path (issue 29):
#  - a BIG archive named .w3d: w3dlint gives file-not-a-model (status 1);
#    w3dfix -i --unsafe leaves its bytes alone and counts the same finding
#    (status 1); near miss: the same archive named .big is walked;
#  - a BIG whose first-data offset is 0xFFFFFFFF: w3dlint warns
#    (archive-big-data-offset) and w3dfix -o writes the repaired archive
#    (it refused: "entry lies inside the table"); near miss: the archive as
#    written has no such finding;
#  - w3ddump --json ARCHIVE is JSON with every entry;
#  - w3dfix -o - writes the repaired bytes to standard output (no file
#    named "-"), the same bytes as -o FILE, its report on standard error;
#  - w3dfix -i on a file whose name is 250 bytes long (the temporary name
#    would pass NAME_MAX), with O_TMPFILE and with named temporary files.
# Usage: tests/edges_cli.sh BUILD_DIR
set -u
name=edges_cli
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$tmp" || exit 2
"$build/w3dasm" "$top/corpus/rules/trailing-bytes/fire.w3d.txt" -o m.w3d || exit 2
: > empty.yaml
"$build/tool_mkarchive" bigf a.big 'Art\W3D\m.w3d=m.w3d' || exit 2

cp a.big named.w3d
"$build/w3dlint" --no-progress -c empty.yaml named.w3d > out 2> err
lrc=$?
cp named.w3d fixed.w3d
"$build/w3dfix" -c empty.yaml -i --unsafe fixed.w3d > fout 2> ferr
frc=$?
if [ $lrc -eq 1 ] && has "[file-not-a-model]" && [ $frc -eq 1 ] && cmp -s named.w3d fixed.w3d &&
	grep -q "1 finding before, 1 after" fout; then
	ok "a BIG named .w3d: file-not-a-model in both, w3dfix leaves it alone (status 1 and 1)"
else
	bad "a BIG named .w3d: w3dlint $lrc, w3dfix $frc ($(tail -n 1 fout))"
fi
cp a.big walked.big
"$build/w3dfix" -c empty.yaml -i walked.big > out 2> err
if [ $? -eq 0 ] && ! cmp -s a.big walked.big && has "1 model entry, 1 repaired: rewritten"; then
	ok "near miss: the same archive named .big is walked and rewritten"
else
	bad "the archive named .big was not rewritten"
fi

"$build/w3dlint" --no-progress -c empty.yaml a.big > out 2> err
if ! has "archive-big-data-offset"; then ok "near miss: a BIG as written has no archive-big-data-offset"; else bad "archive-big-data-offset on a sound BIG"; fi
cp a.big ff.big
printf '\377\377\377\377' | dd of=ff.big bs=1 seek=12 conv=notrunc 2> /dev/null
"$build/w3dlint" --no-progress --show-infos -c empty.yaml ff.big > out 2> err
lrc=$?
"$build/w3dfix" -c empty.yaml -o ff2.big ff.big > fout 2> ferr
frc=$?
"$build/w3dlint" --no-progress -c empty.yaml ff2.big > out2 2> err2
if grep -q "ff.big:0xC: info: .*\[archive-big-data-offset\]" out && [ $frc -eq 0 ] &&
	grep -q "1 repaired: written to ff2.big" fout && ! grep -q "trailing-bytes" out2; then
	ok "first-data offset 0xFFFFFFFF: w3dlint reports it as info (status $lrc), w3dfix -o writes the repair"
else
	bad "first-data offset 0xFFFFFFFF: w3dlint $lrc, w3dfix $frc: $(cat ferr)"
fi

"$build/w3ddump" --json a.big > out 2> err
if python3 -c 'import json,sys; d=json.load(open("out")); sys.exit(0 if [e["path"] for e in d["entries"]] == ["Art/W3D/m.w3d"] else 1)'; then
	ok "w3ddump --json ARCHIVE is JSON with its entries"
else
	bad "w3ddump --json ARCHIVE is not the JSON listing"
fi

"$build/w3dfix" -c empty.yaml -o - m.w3d > stdout.w3d 2> err
rc=$?
"$build/w3dfix" -c empty.yaml -o file.w3d m.w3d > /dev/null 2>&1
if [ $rc -eq 0 ] && [ ! -e ./- ] && cmp -s stdout.w3d file.w3d && errhas "1 file, 1 fixed"; then
	ok "w3dfix -o - writes the repaired bytes to standard output, the report to standard error"
else
	bad "w3dfix -o - (status $rc; a file '-': $([ -e ./- ] && echo yes || echo no))"
fi
mkdir dir && cp m.w3d dir/
"$build/w3dfix" -c empty.yaml -o - dir > out 2> err
if [ $? -eq 2 ] && errhas "-o - (standard output) takes one input file"; then
	ok "w3dfix -o - refuses a folder"
else
	bad "w3dfix -o - with a folder"
fi

long=$(printf 'L%.0s' $(seq 1 246)).w3d
for env in "" W3DLINT_NO_TMPFILE=1; do
	cp m.w3d "$long"
	env $env "$build/w3dfix" -c empty.yaml -i "$long" > out 2> err
	rc=$?
	if [ $rc -eq 0 ] && cmp -s "$long" file.w3d && [ "$(ls | grep -c wltmp)" -eq 0 ]; then
		ok "w3dfix -i on a ${#long}-byte name${env:+ ($env)}: repaired, no temporary file left"
	else
		bad "w3dfix -i on a ${#long}-byte name${env:+ ($env)}: status $rc"
	fi
	rm -f "$long"
done
exit $fail
