#!/bin/sh
# --target and its auto-detection, end to end (issue 16).
#  1. Per target, with --target T on files of its format: a rule the
#     catalogue gives T a severity for runs at that severity, and a rule T
#     is unaffected by (off) does not run - read from the JSON report of
#     real files, so the checks, the catalogue and the front end all take
#     part.  The (rule, severity) pairs come from `w3dlint --explain`, the
#     files from ../shared/corpus (skipped with one line when absent).
#  2. Auto-detection: a Luanti mod (mod.conf), an Arma addon (config.cpp,
#     the ODOL version deciding the game) and a SAGE mod (Data/INI) give
#     the targets --verbose names, and a Luanti-unaffected rule that fires
#     outside the mod does not inside it; a B3D file with no layout gets
#     the game engines (luanti, irrlicht, blitz3d), not assimp.
#  3. False positives per target: over the B3D corpus, a rule fires under
#     the target its defect hurts and not under the targets that load the
#     file as it is (auto included).
# Usage: tests/targets.sh W3DLINT
set -u
w3dlint=$1
name=targets
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${W3DLINT_CORPUS:-$root/../shared/corpus}
if [ ! -d "$corpus/b3d" ] || [ ! -d "$corpus/p3d" ] || [ ! -d "$corpus/w3d" ]; then
	echo "$name: skipped: no corpus with w3d/, b3d/ and p3d/ at $corpus"
	exit 0
fi

# severity RULE TARGET: what --explain says T gets ("off" when unaffected).
severity() {
	"$w3dlint" --explain "$1" | sed -n 's/^  targets: *//p' | tr ',' '\n' |
		sed -n "s/^ *$2 \(unaffected\)* *(*\([a-z]*\))*$/\2/p; s/^ *$2 \([a-z]*\)$/\1/p" | head -n 1
}
# count JSON RULE SEVERITY: findings of RULE at SEVERITY in a JSON report.
count() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); n=0
for f in d["files"]:
    n+=sum(1 for x in f["findings"] if x["rule"]==sys.argv[2] and x["severity"]==sys.argv[3])
print(n)' "$@"
}
# case TARGET FOLDER ON OFF: --target TARGET on FOLDER; ON must run at its
# catalogue severity for TARGET (and fire there with --target any), OFF
# must be off for TARGET and not run (though it fires when named with
# --extend-select).
case_target() {
	t=$1 dir=$2 on=$3 off=$4
	son=$(severity "$on" "$t")
	soff=$(severity "$off" "$t")
	"$w3dlint" --no-progress --no-xref --config /dev/null -f json --target "$t" "$dir" > "$tmp/t.json" 2>/dev/null
	"$w3dlint" --no-progress --no-xref --config /dev/null -f json --target "$t" --extend-select "$off" "$dir" \
		> "$tmp/any.json" 2>/dev/null
	n_on=$(count "$tmp/t.json" "$on" "$son")
	n_off=$(count "$tmp/t.json" "$off" info)$(count "$tmp/t.json" "$off" warning)$(count "$tmp/t.json" "$off" error)
	any_off=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); print(sum(1 for f in d["files"] for x in f["findings"] if x["rule"]==sys.argv[2]))' "$tmp/any.json" "$off")
	if [ -n "$son" ] && [ "$son" != off ] && [ "$n_on" -gt 0 ] && [ "$soff" = off ] && [ "$n_off" = 000 ] &&
		[ "$any_off" -gt 0 ]; then
		ok "--target $t: $on runs at $son ($n_on), $off is off ($any_off when named)"
	else
		echo "$name: FAIL: --target $t: $on at '$son': $n_on; $off '$soff': $n_off (any: $any_off)"
		fail=1
	fi
}
b=$corpus/b3d
case_target luanti "$b" b3d-normal-zero b3d-weight-sum
case_target irrlicht "$b" b3d-weight-sum b3d-weight-over-4
case_target blitz3d "$b" b3d-anim-zero-frames b3d-keys-beyond-anim-by1
case_target assimp "$b" b3d-texture-id-out-of-range b3d-weight-unreferenced-vertex
w=$corpus/w3d
for t in renegade generals bfme w3dhub; do
	case_target "$t" "$w" vertex-normal-length triangle-plane
done
p=$corpus/p3d
for t in arma1 arma2 arma3 dayz; do
	case_target "$t" "$p" p3d-resolution-duplicate p3d-lod-order
done

# --- auto-detection from the mod's layout ---------------------------------
verbose() { "$w3dlint" --no-progress --no-xref --config /dev/null --verbose "$@" 2>&1 >/dev/null; }
mkdir -p "$tmp/mods/mobs/models" "$tmp/loose"
printf 'name = mobs\n' > "$tmp/mods/mobs/mod.conf"
model=$(grep -l . "$b"/voxelibre/*.b3d | head -n 1)
for m in "$b"/voxelibre/*.b3d; do
	if "$w3dlint" --no-progress --config /dev/null -f json --select b3d-weight-sum "$m" 2>/dev/null | grep -q b3d-weight-sum; then
		model=$m
		break
	fi
done
cp "$model" "$tmp/mods/mobs/models/m.b3d"
cp "$model" "$tmp/loose/m.b3d"
verbose "$tmp/mods/mobs/models/m.b3d" > "$tmp/out"
if has "m.b3d: b3d, targets luanti"; then ok "mod.conf above the model: target luanti"; else bad "mod.conf: not luanti"; fi
"$w3dlint" --no-progress --config /dev/null -f json "$tmp/mods/mobs/models/m.b3d" > "$tmp/in.json" 2>/dev/null
"$w3dlint" --no-progress --config /dev/null -f json "$tmp/loose/m.b3d" > "$tmp/out.json" 2>/dev/null
if [ "$(count "$tmp/in.json" b3d-weight-sum warning)" = 0 ] && [ "$(count "$tmp/out.json" b3d-weight-sum warning)" -gt 0 ]; then
	ok "b3d-weight-sum (Luanti renormalises) fires outside the Luanti mod, not inside"
else
	bad "b3d-weight-sum inside/outside the Luanti mod"
fi
verbose "$tmp/loose/m.b3d" > "$tmp/out"
if has "m.b3d: b3d, targets luanti, irrlicht, blitz3d"; then
	ok "no layout: auto gives the B3D game engines (luanti, irrlicht, blitz3d), not the assimp importer"
else
	bad "no layout: $(cat "$tmp/out")"
fi
verbose --target any "$tmp/loose/m.b3d" > "$tmp/out"
if has "m.b3d: b3d, targets luanti, irrlicht, blitz3d, assimp"; then ok "--target any adds assimp"; else bad "--target any"; fi
rm "$tmp/mods/mobs/mod.conf"
printf 'dofile("x")\n' > "$tmp/mods/mobs/init.lua"
verbose "$tmp/mods/mobs/models/m.b3d" > "$tmp/out"
if has "targets luanti"; then ok "init.lua: target luanti"; else bad "init.lua: not luanti"; fi

# Arma: config.cpp names the family, the ODOL version the game.
mkdir -p "$tmp/addon/data"
printf 'class CfgPatches {};\n' > "$tmp/addon/config.cpp"
a2=$(awk -F'\t' '$7 == "ODOL" && $8 == 50 { print $1; exit }' "$p/MANIFEST.tsv")
a3=$(awk -F'\t' '$7 == "ODOL" && $8 == 73 { print $1; exit }' "$p/MANIFEST.tsv")
ml=$(awk -F'\t' '$7 == "MLOD" { print $1; exit }' "$p/MANIFEST.tsv")
cp "$p/$a2" "$tmp/addon/data/a2.p3d"
cp "$p/$a3" "$tmp/addon/data/a3.p3d"
cp "$p/$ml" "$tmp/addon/data/src.p3d"
verbose "$tmp/addon" > "$tmp/out"
if has "a2.p3d: p3d, targets arma2" && has "a3.p3d: p3d, targets arma3" &&
	has "src.p3d: p3d, targets arma1, arma2, arma3, dayz" && has "the mod's layout names the targets arma1, arma2, arma3, dayz"; then
	ok "config.cpp: Arma; ODOL v50 -> arma2, v73 -> arma3, MLOD -> every Arma game"
else
	bad "Arma layout"
fi
rm "$tmp/addon/config.cpp"
printf 'x\\y\n' > "$tmp/addon/\$PBOPREFIX\$"
verbose "$tmp/addon" > "$tmp/out"
if has "the mod's layout names the targets arma1, arma2, arma3, dayz"; then ok "\$PBOPREFIX\$: Arma"; else bad "\$PBOPREFIX\$"; fi

# SAGE: Data/INI above the art.
mkdir -p "$tmp/zhmod/Data/INI" "$tmp/zhmod/Art/W3D"
w3=$(find "$w" -iname '*.w3d' | LC_ALL=C sort | head -n 1)
cp "$w3" "$tmp/zhmod/Art/W3D/x.w3d"
verbose "$tmp/zhmod/Art/W3D/x.w3d" > "$tmp/out"
if has "the mod's layout names the targets generals, bfme" && grep -q "x.w3d: w3d, targets \(generals\|bfme\|generals, bfme\)$" "$tmp/out"; then
	ok "Data/INI: a SAGE game (generals, bfme)"
else
	bad "SAGE layout"
fi
# The layout's markers in any letter case (the games' file systems ignore it).
for ini in data/ini DATA/Ini; do
	rm -rf "$tmp/zhmod/Data"
	mkdir -p "$tmp/zhmod/$ini"
	verbose "$tmp/zhmod/Art/W3D/x.w3d" > "$tmp/out"
	if has "the mod's layout names the targets generals, bfme"; then ok "$ini: a SAGE game"; else bad "$ini not recognised"; fi
done
rm -rf "$tmp/zhmod/data" "$tmp/zhmod/DATA"
mkdir -p "$tmp/zhmod/Data/INI"
# What the INI files say (lint/w3d/layout_ini.c): a block only BFME has
# narrows the SAGE games to bfme; the same words in a comment, or Zero
# Hour's own draw module, do not.
mkdir -p "$tmp/zhmod/Data/INI/Object"
printf 'Object Tank\n  Draw = W3DModelDraw ModuleTag_01\n  End\nEnd\n; LivingWorldMapInfo\n' \
	> "$tmp/zhmod/Data/INI/Object/tank.ini"
verbose "$tmp/zhmod/Art/W3D/x.w3d" > "$tmp/out"
if has "the mod's layout names the targets generals, bfme"; then
	ok "Data/INI with Zero Hour's INI words only: generals, bfme"
else
	bad "Data/INI near miss: $(cat "$tmp/out")"
fi
printf 'Object Orc\n  Draw = W3DHordeModelDraw ModuleTag_01\n  End\nEnd\n' > "$tmp/zhmod/Data/INI/Object/orc.INI"
verbose "$tmp/zhmod/Art/W3D/x.w3d" > "$tmp/out"
if has "the mod's layout names the targets bfme" && ! has "targets generals"; then
	ok "Data/INI with a BFME draw module (W3DHordeModelDraw): bfme"
else
	bad "Data/INI with W3DHordeModelDraw: $(cat "$tmp/out")"
fi
rm -rf "$tmp/zhmod/Data/INI/Object"

# W3D rules whose severity differs by game (the catalogue's targets:, read
# from --explain): each case is a rule's fire case of corpus/rules, linted
# with --target T for every W3D game; the finding must run at the severity
# --explain gives T (absent where that is off), and the games must not all
# agree.  chunk-bfme-only: off for bfme (BFME reads the chunk), a warning for
# renegade, generals and w3dhub; texture-info-invalid: info for renegade and
# generals (their Load_Texture never reads AnimType), warning for bfme.
asm=$(dirname "$w3dlint")/w3dasm
for rule in chunk-bfme-only texture-info-invalid; do
	"$asm" "$root/corpus/rules/$rule/fire.w3d.txt" -o "$tmp/$rule.w3d" || { bad "$rule: w3dasm"; continue; }
	seen=""
	for t in renegade generals bfme w3dhub; do
		want=$(severity "$rule" "$t")
		"$w3dlint" --no-progress --no-xref --config /dev/null -f json --target "$t" "$tmp/$rule.w3d" > "$tmp/s.json" 2>/dev/null
		got=$(python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); s=[x["severity"] for f in d["files"] for x in f["findings"] if x["rule"]==sys.argv[2]]
print(s[0] if s else "off")' "$tmp/s.json" "$rule")
		if [ "$got" = "$want" ]; then ok "--target $t: $rule at $got"; else bad "--target $t: $rule at $got, catalogue says $want"; fi
		case " $seen " in *" $got "*) ;; *) seen="$seen $got" ;; esac
	done
	if [ "$(echo $seen | wc -w)" -gt 1 ]; then ok "$rule: severity differs by game ($seen)"; else bad "$rule: one severity for every game"; fi
done

# --target overrides the layout.
verbose --target renegade "$tmp/zhmod/Art/W3D/x.w3d" > "$tmp/out"
if has "x.w3d: w3d, targets renegade"; then ok "--target renegade overrides the layout"; else bad "--target over layout"; fi

# --- false positives per target (issue 32) --------------------------------
# Over the B3D corpus, once per target and once with no layout (auto): each
# rule below fires under the target whose reader the defect hurts and stays
# quiet under the targets whose explanation says they load the file as it
# is (the readers cited in the rule).
for t in luanti irrlicht blitz3d assimp auto; do
	"$w3dlint" --no-progress --no-xref --config /dev/null -f json --target "$t" "$b" > "$tmp/fp-$t.json" 2>/dev/null
done
"$w3dlint" --no-progress --no-xref --config /dev/null -f json --extend-select chunk-unknown "$b" > "$tmp/fp-named.json" 2>/dev/null
# any JSON RULE: findings of RULE at any severity.
any() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); print(sum(1 for f in d["files"] for x in f["findings"] if x["rule"]==sys.argv[2]))' "$@"
}
# fp RULE FIRE QUIET...: RULE fires under target FIRE, not under any QUIET.
fp() {
	rule=$1 fire=$2
	shift 2
	n=$(any "$tmp/fp-$fire.json" "$rule")
	quiet=
	for q in "$@"; do
		[ "$(any "$tmp/fp-$q.json" "$rule")" = 0 ] || quiet="$quiet $q"
	done
	if [ "$n" -gt 0 ] && [ -z "$quiet" ]; then
		ok "$rule: $n under $fire, none under $*"
	else
		bad "$rule: $n under $fire; fires under:$quiet"
	fi
}
fp b3d-bone-binding-differs assimp luanti irrlicht blitz3d auto
fp b3d-mesh-no-tris assimp luanti irrlicht blitz3d auto
fp b3d-mesh-no-vertices assimp luanti irrlicht blitz3d auto
fp b3d-tris-empty assimp luanti irrlicht blitz3d auto
fp b3d-texture-id-out-of-range assimp luanti irrlicht
fp b3d-texture-id-out-of-range blitz3d luanti irrlicht
fp b3d-texture-path-absolute assimp luanti irrlicht
fp b3d-keys-beyond-anim-by1 assimp luanti irrlicht blitz3d auto
fp chunk-unknown named luanti irrlicht blitz3d assimp auto

[ "$fail" -eq 0 ] && echo "$name: all passed"
exit "$fail"
