#!/bin/sh
# Archives as folders, end to end, with archives built here
# (build/tool_mkarchive, tests/build/archbuild.c): BIGF and BIG4 holding W3D models
# (the project's own, some with defects, plus up to 12 of
# ../shared/corpus/w3d when present), plain and packed PBOs.
#  - w3dlint reports every model entry as ARCHIVE:PATH with the findings of
#    the same model as a file (tests/archive_check.py compare), in text,
#    JSON and baseline keys; a folder holding only archives is walked;
#  - a damaged archive: its archive-* finding, its readable entries linted;
#  - w3dfix -n lists the edits of an entry; w3dfix -i --unsafe repairs the
#    model entries in the archive and no other entry;
#  - w3ddump ARCHIVE:PATH dumps the entry as w3ddump dumps the file.
# Usage: tests/archive_cli.sh BUILD
set -u
name=archive_cli
. "$(dirname "$0")/lib.sh"
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
mk="$build/tool_mkarchive"
cd "$tmp" || exit 2
: > empty.yaml

# the models, as files: m/Art/W3D/NAME.w3d
mkdir -p m/Art/W3D
for c in valid/mesh valid/box valid/dazzle rules/trailing-bytes/fire rules/mesh-vertex-count-mismatch/fire \
	rules/pivot-parent-order/fire; do
	"$build/w3dasm" "$top/corpus/$c.w3d.txt" -o "m/Art/W3D/$(echo "$c" | tr '/' '_').w3d" || exit 2
done
corpus="$top/../shared/corpus/w3d"
if [ -d "$corpus" ]; then
	find "$corpus" -type f -iname '*.w3d' -size -200k | LC_ALL=C sort | head -n 12 | while IFS= read -r f; do
		cp "$f" "m/Art/W3D/corpus_$(basename "$f")"
	done
	ok "added $(ls m/Art/W3D | grep -c '^corpus_') models of $corpus"
else
	echo "$name: no ../shared/corpus/w3d: only the project's own models"
fi
args=""
for f in m/Art/W3D/*; do args="$args Art\\W3D\\$(basename "$f")=$f"; done
args="$args Data\\INI\\readme.ini=$top/README.md"
mkdir -p a x
"$mk" bigf a/mod.big $args && "$mk" big4 a/mod4.big $args && "$mk" pbo a/addon.pbo $args &&
	"$mk" pbo-packed a/packed.pbo $args || exit 2
nmodels=$(ls m/Art/W3D | wc -l)
for k in mod.big mod4.big addon.pbo packed.pbo; do
	mkdir -p "x/$k"
	python3 "$here/archive_check.py" extract "a/$k" "x/$k" > /dev/null || exit 2
done

tool="$build/w3dlint"
lintj() { "$tool" --no-xref --no-progress -c empty.yaml --format json "$@"; }
lintj a > arch.json 2> err
rc=$?
lintj x > plain.json 2>> err
if python3 "$here/archive_check.py" compare arch.json plain.json x > out; then
	ok "4 archives x $nmodels models: the same findings as the files ($(tail -n 1 out)), status $rc"
else
	bad "entries differ from their files"
fi
if [ "$(grep -c '"path": "a/mod.big:Art/W3D/' arch.json)" -eq "$nmodels" ] &&
	[ "$(grep -c '"path": "a/packed.pbo:Art/W3D/' arch.json)" -eq "$nmodels" ] &&
	grep -q '"format": "big"' arch.json && grep -q '"format": "pbo"' arch.json; then
	ok "JSON: every entry named ARCHIVE:Art/W3D/NAME, the archives reported as big / pbo"
else
	bad "JSON paths of entries"
fi
run() { "$tool" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
run -c empty.yaml a/mod.big
if [ $rc -eq 1 ] && has "a/mod.big:Art/W3D/rules_trailing-bytes_fire.w3d:0x" &&
	has "$((nmodels + 1)) files" && ! errhas "no W3D files"; then
	ok "text: a/mod.big:Art/W3D/NAME.w3d:0xOFFSET lines; the archive and its $nmodels models counted"
else
	bad "text report of a named BIG (status $rc)"
fi
# SARIF: the archive is the artifact, the entry the logical location; a
# stored entry's region is the finding's bytes in the archive (checked against
# the model file), a packed entry's has no byte region
run -c empty.yaml --format sarif a/mod.big a/packed.pbo
if python3 - out > /dev/null <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
n = 0
for r in res:
    loc = r["locations"][0]
    uri = loc["physicalLocation"]["artifactLocation"]["uri"]
    reg = loc["physicalLocation"]["region"]
    names = [x["fullyQualifiedName"] for x in loc.get("logicalLocations", [])]
    if not names or not names[0].startswith("Art/W3D/"):
        continue
    entry = "/".join(names[0].split("/")[:3])
    model = open("m/" + entry, "rb").read()
    if uri == "a/mod.big":
        arch = open(uri, "rb").read()
        off, ln = reg["byteOffset"], reg["byteLength"]
        base = arch.find(model)
        assert base > 0 and off - base >= 0 and arch[off:off + ln] == model[off - base:off - base + ln], r
        n += 1
    else:
        assert uri == "a/packed.pbo" and "byteOffset" not in reg, r
print(n)
sys.exit(0 if n else 1)
PY
then
	ok "SARIF: artifact = the archive, logical location = entry/chunk path, regions at the entry's bytes"
else
	bad "SARIF of archive entries"
fi

# baseline keys
run -c empty.yaml --write-baseline bl.json a
run -c empty.yaml --baseline bl.json a
if [ $rc -eq 0 ] && grep -q '"a/mod.big:Art/W3D/rules_trailing-bytes_fire.w3d"' bl.json; then
	ok "baseline: keys ARCHIVE:PATH, a second run matches them all"
else
	bad "baseline of entries (status $rc)"
fi

# a damaged BIG: cut inside the last model's bytes; its archive-* finding,
# the other entries still linted
size=$(wc -c < a/mod.big)
head -c $((size - 300)) a/mod.big > cut.big
run -c empty.yaml --format json cut.big
if grep -q '"rule": "archive-entry-past-end"' out && grep -q '"rule": "archive-big-size-field"' out &&
	[ "$(grep -c '"path": "cut.big:Art/W3D/' out)" -ge $((nmodels - 2)) ]; then
	ok "a cut BIG: archive-entry-past-end, archive-big-size-field, its readable entries linted"
else
	bad "cut BIG (status $rc)"
fi

# w3dfix: -n lists the edits of an entry; -i --unsafe changes no other entry
tool="$build/w3dfix"
cp a/mod.big w.big
run -n w.big
if has "w.big:Art/W3D/rules_trailing-bytes_fire.w3d:0x" && has "trailing-bytes"; then
	ok "w3dfix -n ARCHIVE lists the edits of its entries"
else
	bad "w3dfix -n on a BIG (status $rc)"
fi
run -i --unsafe w.big
mkdir -p xw
python3 "$here/archive_check.py" extract w.big xw > /dev/null
if has "w.big: BIG archive" && has "rewritten" && cmp -s xw/Data/INI/readme.ini "$top/README.md" &&
	! cmp -s w.big a/mod.big; then
	ok "w3dfix -i --unsafe ARCHIVE: its model entries repaired in it, its INI entry unchanged (tests/archive_fix.sh)"
else
	bad "w3dfix -i on a BIG (status $rc)"
fi

# w3ddump ARCHIVE:PATH = w3ddump of the file
tool="$build/w3ddump"
run "a/packed.pbo:Art/W3D/valid_mesh.w3d"
sed 's|a/packed.pbo:Art/W3D/valid_mesh.w3d|F|' out > d1
run "m/Art/W3D/valid_mesh.w3d"
sed 's|m/Art/W3D/valid_mesh.w3d|F|' out > d2
if [ -s d1 ] && cmp -s d1 d2; then
	ok "w3ddump ARCHIVE:PATH (a packed PBO entry) prints what w3ddump FILE prints"
else
	bad "w3ddump of an entry differs from the file's dump"
fi
run a/mod4.big
if [ $rc -eq 0 ] && has "BIG4" && has "Art/W3D/valid_mesh.w3d" && [ "$(wc -l < out)" -eq $((nmodels + 2)) ]; then
	ok "w3ddump ARCHIVE lists its $((nmodels + 1)) entries"
else
	bad "w3ddump of a BIG4 (status $rc)"
fi
exit $fail
