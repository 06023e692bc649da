#!/bin/sh
# Files that are not models (core/filekind.h) are never read as models and
# never changed: a folder of archives, images and text files, named one by
# one and walked as a folder (some of them named like models), goes through
# `w3dfix -i --unsafe` with every byte unchanged and status 1: the three
# named like models each keep their file-not-a-model error, counted by
# w3dfix as by w3dlint (issue 29: the tools agree); w3dlint and w3ddump say
# in one line what each named file is.  The files are made here; the real
# archives of ../shared/corpus/archives are added when present.
# Usage: tests/cli_nonmodel.sh BUILD
set -u
name=cli_nonmodel
. "$(dirname "$0")/lib.sh"
build=$(cd "$1" && pwd)
corpus="$(dirname "$0")/../../shared/corpus/archives"

o="$tmp/orig"
mkdir -p "$o"
# BIGF / BIG4 headers (magic, archive size LE, count and first offset BE)
printf 'BIGF\040\000\000\000\000\000\000\000\000\000\000\020' > "$o/mod.big"
printf 'BIG4\040\000\000\000\000\000\000\000\000\000\000\020' > "$o/mod4.big"
# a PBO header entry: empty name, 'sreV', four zero fields, no properties
printf '\000sreV\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' > "$o/addon.pbo"
# PNG signature + IHDR length, JPEG SOI + APP0, DDS magic
printf '\211PNG\r\n\032\n\000\000\000\rIHDR\000\000\000\001\000\000\000\001\010\002' > "$o/logo.png"
printf '\377\330\377\340\000\020JFIF\000' > "$o/photo.jpg"
printf 'DDS \174\000\000\000\007\020\000\000' > "$o/tex.dds"
# TGA: 2x1 uncompressed true colour, 24 bits, no footer; and one with the
# TGA 2.0 footer
printf '\000\000\002\000\000\000\000\000\000\000\000\000\002\000\001\000\030\000abcdef' > "$o/plain.tga"
{ cat "$o/plain.tga"; printf '\000\000\000\000\000\000\000\000TRUEVISION-XFILE.\000'; } > "$o/footer.tga"
printf '[Object]\r\nModel = tank\r\n' > "$o/tank.ini"
printf 'class CfgPatches {};\n' > "$o/config.cpp"
# non-model bytes behind model names: the walk collects them
cp "$o/logo.png" "$o/looks_like.w3d"
cp "$o/tank.ini" "$o/notes.w3d"
cp "$o/mod.big" "$o/archive.w3d"
# a PBO of the OFP era (no 'sreV' header): known by its name only
printf 'data\\x.sqf\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' > "$o/old.pbo"
if [ -d "$corpus" ]; then
	n=0
	for f in $(find "$corpus" -type f \( -name '*.pbo' -o -name '*.big' \) | LC_ALL=C sort); do
		n=$((n + 1))
		cp "$f" "$o/corpus$n.$(echo "$f" | sed 's/.*\.//')"
	done
	ok "added $n real archives from $corpus"
else
	echo "$name: skipped the real archives: $corpus is absent"
fi
chmod -R u+w "$o"
cp -R "$o" "$tmp/w"
w="$tmp/w"
unchanged() {
	for f in "$o"/*; do
		cmp -s "$f" "$w/$(basename "$f")" || { echo "changed: $(basename "$f")"; return 1; }
	done
	[ "$(ls "$o" | wc -l)" = "$(ls "$w" | wc -l)" ] || { echo "file count differs"; return 1; }
}

tool="$build/w3dfix"
run -i --unsafe "$w"/*
if unchanged > "$tmp/why" && [ $rc -eq 1 ] && grep -q "with findings at the failing severity left" "$tmp/out" &&
	[ "$(grep -c "^  findings left: .*\.w3d (1 finding at the failing severity)" "$tmp/out")" -eq 3 ]; then
	ok "w3dfix -i --unsafe FILE...: every byte of $(ls "$o" | wc -l) files unchanged, status 1 (3 x file-not-a-model)"
else
	bad "w3dfix -i --unsafe FILE... (status $rc): $(cat "$tmp/why")"
fi
run -i --unsafe "$w"
if unchanged > "$tmp/why" && [ $rc -eq 1 ]; then
	ok "w3dfix -i --unsafe FOLDER: every byte unchanged, status 1 (file-not-a-model)"
else
	bad "w3dfix -i --unsafe FOLDER (status $rc): $(cat "$tmp/why")"
fi
run -i --unsafe "$w/logo.png"
if has "logo.png: PNG image, not a model file; not changed" && [ "$(wc -l < "$tmp/out")" -eq 2 ]; then
	ok "w3dfix names what a PNG is in one line (and the summary)"
else
	bad "w3dfix on a PNG"
fi

tool="$build/w3dlint"
for f in logo.png:"PNG image" tex.dds:"DDS texture" plain.tga:"TGA image" footer.tga:"TGA image" \
	photo.jpg:"JPEG image" tank.ini:"text file"; do
	file=${f%%:*} what=${f#*:}
	run "$w/$file"
	if [ $rc -eq 0 ] && errhas "$file: $what, not a model file" && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
		! grep -q '\[' "$tmp/out"; then
		ok "w3dlint $file: one line ($what), no finding, status 0"
	else
		bad "w3dlint $file (status $rc)"
	fi
done

# named as a model: one finding over the whole file, an error
run "$w/looks_like.w3d" "$w/notes.w3d"
if [ $rc -eq 1 ] && [ "$(grep -c 'file-not-a-model' "$tmp/out")" -eq 2 ] &&
	has "looks_like.w3d:0x0: error: the file holds a PNG image, not a Westwood/EA W3D model [file-not-a-model]" &&
	[ "$(grep -c '\[' "$tmp/out")" -eq 2 ]; then
	ok "w3dlint: a PNG and a text file named .w3d get one file-not-a-model error each"
else
	bad "w3dlint on non-models named .w3d (status $rc)"
fi

tool="$build/w3ddump"
run "$w/tex.dds"
if [ $rc -eq 0 ] && has "tex.dds: DDS texture, not a model file" && [ "$(wc -l < "$tmp/out")" -eq 1 ]; then
	ok "w3ddump names a DDS texture in one line"
else
	bad "w3ddump on a DDS texture (status $rc)"
fi
exit $fail
