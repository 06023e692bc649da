#!/bin/sh
# w3dfix writing repaired archives (issue 18 item 4), with archives built
# here (build/tool_mkarchive): BIGF, BIG4 and PBOs (plain, packed, mixed)
# holding clean W3D models, defective ones and a non-model entry.
#  - w3dfix -o NEW ARCHIVE: NEW read back by the project's reader (w3dlint:
#    no finding left, no archive-* finding; w3ddump lists the entries) and
#    by the tests' own Python reader (tests/archive_check.py same: the same
#    entries in the same order, every byte of every other entry unchanged,
#    the repaired entries stored, the BIG size field / PBO SHA-1 valid; no
#    Debian package reads BIG or PBO); each repaired entry equals the model
#    repaired as a file (w3dfix -o of the extracted file);
#  - a second run over NEW changes nothing (idempotent);
#  - an archive with nothing to fix: -o gives it back byte for byte, -i
#    leaves its bytes and mtime unchanged and says it is not rewritten;
#  - -i rewrites in place (the same bytes as -o); -o DIR mirrors a folder;
#  - -n names the edits ARCHIVE:PATH;
#  - a damaged archive (archive-big-size-field) is refused and kept; damage
#    confined to copied bytes (a duplicate path) does not stop the rewrite.
# Usage: tests/archive_fix.sh BUILD
set -u
name=archive_fix
. "$(dirname "$0")/lib.sh"
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
mk="$build/tool_mkarchive"
check="$here/archive_check.py"
cd "$tmp" || exit 2
: > empty.yaml
mkdir -p m
for c in valid/mesh valid/box rules/trailing-bytes/fire rules/mesh-vertex-count-mismatch/fire; do
	"$build/w3dasm" "$top/corpus/$c.w3d.txt" -o "m/$(echo "$c" | tr '/' '_').w3d" || exit 2
done
bad1=rules_trailing-bytes_fire.w3d
bad2=rules_mesh-vertex-count-mismatch_fire.w3d
# the models repaired as files: what a repaired entry must hold
mkdir -p r
for f in $bad1 $bad2; do
	"$build/w3dfix" -q -c empty.yaml -o "r/$f" "m/$f" > /dev/null || exit 2
done
cmp -s "m/$bad1" "r/$bad1" && { bad "the defective model $bad1 is not repaired as a file"; exit 1; }
args="Art\\W3D\\valid_mesh.w3d=m/valid_mesh.w3d Art\\W3D\\$bad1=m/$bad1 Data\\INI\\readme.ini=$top/README.md"
args="$args Art\\W3D\\$bad2=m/$bad2 Art\\W3D\\valid_box.w3d=m/valid_box.w3d"
clean="Art\\W3D\\valid_mesh.w3d=m/valid_mesh.w3d Data\\INI\\readme.ini=$top/README.md Art\\W3D\\valid_box.w3d=m/valid_box.w3d"
mkdir -p a c
for k in bigf big4 pbo pbo-packed pbo-mixed; do
	case $k in big*) ext=big ;; *) ext=pbo ;; esac
	"$mk" "$k" "a/$k.$ext" $args && "$mk" "$k" "c/$k.$ext" $clean || exit 2
done
fix() { "$build/w3dfix" -c empty.yaml "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }
lint() { "$build/w3dlint" --no-xref --no-progress -c empty.yaml "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; }

for f in a/*; do
	k=$(basename "$f")
	fix -o "new-$k" "$f"
	if [ $rc -eq 0 ] && has "$f: " && has "4 model entries, 2 repaired: written to new-$k" && [ -f "new-$k" ]; then
		ok "$k: w3dfix -o wrote the archive with its 2 defective entries repaired"
	else
		bad "$k: w3dfix -o (status $rc)"
		continue
	fi
	# the project's reader: no finding left, every entry listed
	lint --format json "new-$k"
	if [ $rc -eq 0 ] && ! grep -q '"rule": "archive-' out && [ "$(grep -c "\"path\": \"new-$k:" out)" -eq 4 ]; then
		ok "$k: w3dlint reads the new archive: 4 model entries, no finding, no archive-* finding"
	else
		bad "$k: w3dlint of the new archive (status $rc)"
	fi
	tool="$build/w3ddump"
	run "new-$k"
	if [ $rc -eq 0 ] && has "5 entries" && has "Art/W3D/$bad1" && has "Data/INI/readme.ini" && [ "$(wc -l < out)" -eq 6 ]; then
		ok "$k: w3ddump lists the new archive's 5 entries"
	else
		bad "$k: w3ddump of the new archive (status $rc)"
	fi
	# the independent reader: same entries, same bytes but the repaired
	if python3 "$check" same "$f" "new-$k" "Art/W3D/$bad1" "Art/W3D/$bad2" > out 2> err; then
		ok "$k: $(tail -n 1 out)"
	else
		bad "$k: the Python reader finds the new archive wrong"
	fi
	rm -rf x && mkdir x && python3 "$check" extract "new-$k" x > /dev/null
	if cmp -s "x/Art/W3D/$bad1" "r/$bad1" && cmp -s "x/Art/W3D/$bad2" "r/$bad2" &&
		cmp -s x/Data/INI/readme.ini "$top/README.md"; then
		ok "$k: each repaired entry holds the model repaired as a file; the INI entry is the original"
	else
		bad "$k: repaired entries differ from the repaired files"
	fi
	# idempotent: a second run finds nothing and gives the bytes back
	fix -o "again-$k" "new-$k"
	if [ $rc -eq 0 ] && cmp -s "again-$k" "new-$k" && has "0 repaired: nothing to repair, copied unchanged"; then
		ok "$k: a second run repairs nothing and copies it byte for byte"
	else
		bad "$k: second run (status $rc)"
	fi
	# in place: the same bytes as -o
	cp "$f" "ip-$k"
	fix -i "ip-$k"
	if [ $rc -eq 0 ] && cmp -s "ip-$k" "new-$k" && has "2 repaired: rewritten"; then
		ok "$k: w3dfix -i rewrites it in place, the same bytes as -o"
	else
		bad "$k: w3dfix -i (status $rc)"
	fi
done

# nothing to fix: byte for byte, never rewritten
for f in c/*; do
	k=$(basename "$f")
	fix -o "rt-$k" "$f"
	if [ $rc -eq 0 ] && cmp -s "rt-$k" "$f"; then
		ok "$k, clean: w3dfix -o gives it back byte for byte"
	else
		bad "$k, clean: round trip (status $rc)"
	fi
	cp "$f" "ci-$k"
	touch -d '2001-02-03 04:05:06' "ci-$k"
	before=$(stat -c %Y "ci-$k")
	fix -i "ci-$k"
	if [ $rc -eq 0 ] && cmp -s "ci-$k" "$f" && [ "$(stat -c %Y "ci-$k")" = "$before" ] &&
		has "nothing to repair, not rewritten"; then
		ok "$k, clean: w3dfix -i leaves bytes and mtime alone (not rewritten)"
	else
		bad "$k, clean: -i rewrote it (status $rc)"
	fi
done

# -o DIR over a folder of archives; -n names the entries' edits
fix -o outdir a
if [ $rc -eq 0 ] && cmp -s outdir/bigf.big new-bigf.big && cmp -s outdir/pbo-mixed.pbo new-pbo-mixed.pbo; then
	ok "w3dfix -o DIR FOLDER writes each repaired archive to DIR/NAME"
else
	bad "w3dfix -o DIR (status $rc)"
fi
fix -n a/bigf.big
if [ $rc -eq 1 ] && has "a/bigf.big:Art/W3D/$bad1:0x" && has "a/bigf.big:Art/W3D/$bad2:0x" &&
	has "not written (use --in-place or -o)"; then
	ok "w3dfix -n ARCHIVE lists the entries' edits as ARCHIVE:PATH:0xOFFSET"
else
	bad "w3dfix -n on a BIG (status $rc)"
fi

# damage: the BIG size field off by one is refused, the original kept
# (the low byte of the size field changed to 1, or to 2 where it is 1: the
# archive holds README.md, whose size moves that byte)
cp a/bigf.big dmg.big
if [ "$(od -An -tu1 -j4 -N1 dmg.big | tr -d ' ')" = 1 ]; then v='\002'; else v='\001'; fi
printf "$v" | dd of=dmg.big bs=1 seek=4 conv=notrunc 2> /dev/null
cmp -s a/bigf.big dmg.big && { bad "the damage left the BIG unchanged"; exit 1; }
cp dmg.big dmg0.big
fix -i dmg.big
if [ $rc -eq 2 ] && cmp -s dmg.big dmg0.big && errhas "dmg.big: not written: the archive is damaged (archive-big-size-field"; then
	ok "a damaged BIG is not rewritten: the reason named, the original kept, status 2"
else
	bad "damaged BIG (status $rc)"
fi
fix -o dmg-new.big dmg.big
if [ $rc -eq 2 ] && [ ! -e dmg-new.big ]; then
	ok "a damaged BIG: -o writes nothing"
else
	bad "damaged BIG with -o (status $rc)"
fi
# confined damage: a second entry of the same path (its bytes copied)
"$mk" pbo dup.pbo $args "Art\\W3D\\valid_box.w3d=m/valid_box.w3d" || exit 2
fix -o dup-new.pbo dup.pbo
if [ $rc -eq 0 ] && python3 "$check" same dup.pbo dup-new.pbo "Art/W3D/$bad1" "Art/W3D/$bad2" > out; then
	ok "a PBO with a duplicate path (damage confined to copied bytes) is rewritten"
else
	bad "PBO with a duplicate path (status $rc)"
fi
# ARCHIVE:PATH as w3dfix's argument (issue 30 item 2): only that entry is
# repaired; the other defective entry stays as it was.
for f in a/bigf.big a/pbo.pbo; do
	k=$(basename "$f")
	fix -o "one-$k" "$f:Art/W3D/$bad1"
	if [ $rc -eq 0 ] && has "1 model entry, 1 repaired: written to one-$k" &&
		python3 "$check" same "$f" "one-$k" "Art/W3D/$bad1" > out 2> err; then
		ok "$k: w3dfix -o on ARCHIVE:$bad1 repairs that entry only (every other byte of every other entry kept)"
	else
		bad "$k: w3dfix -o on one entry (status $rc)"
	fi
	lint --format json "one-$k"
	if grep -q '"rule": "mesh-vertex-count-mismatch"' out && ! grep -q '"rule": "trailing-bytes"' out; then
		ok "$k: near miss: the entry not named keeps its defect"
	else
		bad "$k: the entry not named was changed, or the named one not repaired"
	fi
done
exit $fail
