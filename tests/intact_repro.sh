#!/bin/sh
# Issue 29 item 1, the B3D and MLOD reproducers ("repairs never lose what
# is intact"), made from corpus files by damaging one field (no binary
# blobs in the repository).  Each case failed on the code before the fix:
#  - mobs_sheep.b3d (mobs_animal) NODE at 51115 and mobs_mc_chicken.b3d
#    (voxelibre) NODE at 31110, size -4 and -12: the safe w3dfix dropped the
#    NODE's last KEYS as "repeated" (it was read as its parent's); now no
#    key is dropped, and --unsafe writes what it writes for the undamaged
#    file;
#  - mobs_rat.b3d (lott): the unknown chunk at 12, size 39 -> 1039:
#    --unsafe dropped the whole model as stray bytes; now it writes what
#    it writes for the undamaged file;
#  - advtrains_platform_diag.b3d cut at 75 bytes (a BB3D holding only a
#    BRUS): --unsafe wrote it with "0 findings left"; now the repair is
#    refused ("no model left"), the damaged file copied unchanged;
#  - sample_2_crate.p3d: the #EndOfFile# tag size of each of its 7 LODs set
#    to 100: --unsafe dropped the next, intact LOD; now p3d-mlod-tag-size
#    is reported and the safe w3dfix restores the file byte for byte.
# Skips with one line when the corpus or python3 is absent.
# Usage: tests/intact_repro.sh W3DFIX W3DLINT
set -u
name=intact_repro
. "$(dirname "$0")/lib.sh"
fix=$(abspath "$1")
lint=$(abspath "$2")
corpus=$(dirname "$0")/../../shared/corpus
if [ ! -d "$corpus/b3d" ] || [ ! -d "$corpus/p3d" ]; then
	echo "intact_repro: skipped: no corpus at $corpus"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "intact_repro: skipped: python3 not found"
	exit 0
fi
corpus=$(cd "$corpus" && pwd)

# damage SRC DST OFFSET DELTA|=VALUE|cut: DST is SRC with the u32 at
# OFFSET changed by DELTA (or set to VALUE), or cut to OFFSET bytes.
damage() {
	python3 - "$@" <<'PY' || exit 2
import struct, sys
src, dst, off, how = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
b = bytearray(open(src, "rb").read())
if how == "cut":
    b = b[:off]
else:
    v = int(how[1:]) if how[0] == "=" else struct.unpack_from("<I", b, off)[0] + int(how)
    struct.pack_into("<I", b, off, v & 0xFFFFFFFF)
open(dst, "wb").write(b)
PY
}

# same_repair ORIG DAMAGED LABEL: w3dfix --unsafe writes the same bytes for
# the damaged file as for the undamaged one.
# (The outputs get the corpus file's mode, often 0444: removed first.)
same_repair() {
	rm -f "$tmp/want" "$tmp/got"
	"$fix" --unsafe -q -o "$tmp/want" "$1" >/dev/null 2>&1
	"$fix" --unsafe -o "$tmp/got" "$2" >"$tmp/out" 2>"$tmp/err"
	if cmp -s "$tmp/want" "$tmp/got"; then
		ok "$3: --unsafe writes what it writes for the undamaged file"
	else
		bad "$3: --unsafe output differs from the undamaged file's"
	fi
}

for c in mobs_animal/mobs_sheep.b3d:51115 voxelibre/mobs_mc_chicken.b3d:31110; do
	f=$corpus/b3d/${c%%:*}
	at=${c##*:}
	for d in -4 -12; do
		label="$(basename "$f") NODE at $at $d"
		damage "$f" "$tmp/in.b3d" $((at + 4)) "$d"
		rm -f "$tmp/safe.b3d"
		"$fix" -o "$tmp/safe.b3d" "$tmp/in.b3d" >"$tmp/out" 2>"$tmp/err"
		if has "drop-repeated-keys"; then
			bad "$label: the safe w3dfix dropped keys"
		else
			ok "$label: the safe w3dfix drops no key"
		fi
		"$lint" --no-progress "$tmp/in.b3d" >"$tmp/out" 2>"$tmp/err"
		if has "[chunk-size-wrong]" && ! has "[b3d-keys-duplicate-frame]"; then
			ok "$label: chunk-size-wrong, no key read as repeated"
		else
			bad "$label: expected chunk-size-wrong and no b3d-keys-duplicate-frame"
		fi
		same_repair "$f" "$tmp/in.b3d" "$label"
	done
done

f=$corpus/b3d/lott/mobs_rat.b3d
damage "$f" "$tmp/in.b3d" 16 =1039
same_repair "$f" "$tmp/in.b3d" "mobs_rat.b3d unknown chunk at 12 size 1039"

f=$corpus/b3d/advtrains/advtrains_platform_diag.b3d
damage "$f" "$tmp/in.b3d" 75 cut
"$fix" --unsafe -o "$tmp/got.b3d" "$tmp/in.b3d" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -ne 0 ] && errhas "no model left" && cmp -s "$tmp/in.b3d" "$tmp/got.b3d"; then
	ok "advtrains_platform_diag.b3d cut at 75: refused (no model left), the original kept"
else
	bad "advtrains_platform_diag.b3d cut at 75: expected a refusal with the original kept (status $rc)"
fi

f=$corpus/p3d/dayzobjectbuilder/sample_2_crate.p3d
python3 - "$f" > "$tmp/eof" <<'PY' || exit 2
import sys
b = open(sys.argv[1], "rb").read()
i = b.find(b"\x01#EndOfFile#\x00")
while i >= 0:
    print(i + 13)
    i = b.find(b"\x01#EndOfFile#\x00", i + 1)
PY
n=0
while read -r at; do
	n=$((n + 1))
	label="sample_2_crate.p3d #EndOfFile# $n size 100"
	damage "$f" "$tmp/in.p3d" "$at" =100
	"$lint" --no-progress "$tmp/in.p3d" >"$tmp/out" 2>"$tmp/err"
	if has "[p3d-mlod-tag-size]" && ! has "[p3d-mlod-lod-signature]"; then
		ok "$label: p3d-mlod-tag-size, every LOD read"
	else
		bad "$label: expected p3d-mlod-tag-size and no p3d-mlod-lod-signature"
	fi
	rm -f "$tmp/got.p3d"
	"$fix" -o "$tmp/got.p3d" "$tmp/in.p3d" >"$tmp/out" 2>"$tmp/err"
	if cmp -s "$f" "$tmp/got.p3d"; then
		ok "$label: the safe w3dfix restores the file"
	else
		bad "$label: the safe w3dfix does not restore the file"
	fi
done < "$tmp/eof"
[ "$n" -eq 7 ] || bad "sample_2_crate.p3d: $n #EndOfFile# tags found, 7 expected"
exit $fail
