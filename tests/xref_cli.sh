#!/bin/sh
# The front end's cross-file checks (lint/xref.h) and --game, end to end.
# Builds two small folders with w3dasm from the text models of
# corpus/cli/xref/:
#   bad/   an HLOD (tank.w3d) naming a mesh no file defines, and an animation
#          (sub/walk.w3d) of a hierarchy in skel.w3d animating pivot 5 of 2;
#   good/  the near miss: the same files, the HLOD naming only TANK.BODY
#          (defined in body.w3d) and the animation pivot 1.
# Asserts each finding is in the file holding the reference, naming the other
# file (text, JSON, SARIF), the same report for -j 1 and -j 4, --no-xref, the
# file-list default (off) and --xref, and the baseline, all with a base game
# (an empty --base folder: references no file defines are reported one by
# one).  Without a base game they fold into one note per run (text, JSON,
# SARIF, github), counted in no summary or baseline, the resolved ones never.  Then --game with a
# SOUNDROBJ (soundrobj-not-loaded depends on the game) and an unknown game.
# Usage: tests/xref_cli.sh W3DLINT W3DASM
set -u
name=xref_cli
. "$(dirname "$0")/lib.sh"
w3dlint=$(abspath "$1")
w3dasm=$(abspath "$2")

# mk DIR PIVOT SUB: the models of corpus/cli/xref/ assembled into DIR:
# skel.w3d (hierarchy SKEL, 2 pivots), sub/walk.w3d (animation SKEL.WALK
# with a channel on PIVOT, 1 or 5), body.w3d (mesh TANK.BODY), tank.w3d
# (hlod TANK of SKEL naming TANK.BODY and TANK.<SUB>, body or ghost).
mk() {
	assemble xref/skel.w3d "$1/skel.w3d"
	assemble "xref/walk-pivot$2.w3d" "$1/sub/walk.w3d"
	assemble xref/body.w3d "$1/body.w3d"
	assemble "xref/tank-$3.w3d" "$1/tank.w3d"
}
mk "$tmp/bad" 5 ghost
mk "$tmp/good" 1 body
mkdir -p "$tmp/base0"
cd "$tmp" || exit 2

# Text: each finding in the file that names the object, the other file named.
"$w3dlint" --no-progress --fold 0 -j 1 --fail-on warning --base base0 bad > out 2>&1
rc=$?
if [ "$rc" = 1 ] &&
   has "bad/sub/walk.w3d:0x4C: warning: animation 'WALK' animates pivot 5, but hierarchy 'SKEL' in 'bad/skel.w3d' has 2 pivots" &&
   has "[reference-hierarchy-too-few-pivots] (ANIMATION[WALK]/ANIMATION_CHANNEL) (see bad/skel.w3d)" &&
   has "bad/tank.w3d:0x88: warning: hlod 'TANK' uses 'TANK.GHOST', which no file of 'bad' or the base 'base0' defines" &&
   has "4 files, 0 errors, 2 warnings, 0 infos" &&
   [ "$(grep -c '^bad/' out)" = 2 ]; then
	ok "text: the findings are in walk.w3d and tank.w3d, naming skel.w3d"
else
	bad "text report of bad/ (exit status $rc)"
fi
cp out text1
"$w3dlint" --no-progress --fold 0 -j 4 --fail-on warning --base base0 bad > out 2>&1
if cmp -s text1 out; then ok "-j 4 gives the -j 1 report"; else bad "-j 4 differs from -j 1"; fi

# JSON: in the file's findings array, with "related".
"$w3dlint" --no-progress -j 3 --format json --base base0 bad > out 2>&1
if command -v python3 >/dev/null 2>&1; then
	if python3 - out <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
got = {}
for f in d["files"]:
    for x in f["findings"]:
        got[(f["path"], x["rule"])] = x.get("related")
want = {("bad/sub/walk.w3d", "reference-hierarchy-too-few-pivots"): "bad/skel.w3d",
        ("bad/tank.w3d", "reference-mesh-missing"): None}
sys.exit(0 if got == want and d["summary"]["warnings"] == 2 else 1)
EOF
	then ok "json: findings in their file's array, related names skel.w3d"; else bad "json report of bad/"; fi
else
	if has '"related": "bad/skel.w3d"'; then ok "json: related"; else bad "json: related missing"; fi
fi

# SARIF: relatedLocations names the other file.
(cd bad && "$w3dlint" --no-progress --format sarif --base ../base0 . > ../out 2>&1)
if has '"relatedLocations"' && has '"uri": "skel.w3d"'; then
	ok "sarif: relatedLocations names skel.w3d"
else
	bad "sarif: relatedLocations"
fi

# Near miss: every reference resolves.
"$w3dlint" --no-progress --fail-on info good > out 2>&1
rc=$?
if [ "$rc" = 0 ] && ! has "reference-" && has "4 files, 0 errors, 0 warnings, 0 infos"; then
	ok "near miss: no cross-file finding when the references resolve"
else
	bad "near miss good/ (exit status $rc)"
fi

# --no-xref; a list of files: off unless --xref.
"$w3dlint" --no-progress --no-xref bad > out 2>&1
if ! has "reference-" && has "4 files, "; then ok "--no-xref: no cross-file finding"; else bad "--no-xref"; fi
"$w3dlint" --no-progress bad/tank.w3d bad/sub/walk.w3d bad/skel.w3d bad/body.w3d > out 2>&1
if ! has "reference-" && has "4 files, "; then ok "files named: no cross-file check by default"; else bad "file list default"; fi
"$w3dlint" --no-progress --xref --base base0 bad/tank.w3d bad/sub/walk.w3d bad/skel.w3d bad/body.w3d > out 2>&1
if has "(see bad/skel.w3d)" && has "reference-mesh-missing"; then
	ok "--xref with files named"
else
	bad "--xref with files named"
fi

# Baseline: cross-file findings are recorded and then matched.
"$w3dlint" --no-progress --write-baseline bl.json --base base0 bad > out 2>&1
"$w3dlint" --no-progress --fail-on warning --baseline bl.json --base base0 bad > out 2>&1
rc=$?
if [ "$rc" = 0 ] && ! has "reference-" && has "0 warnings"; then
	ok "baseline: cross-file findings are baselined"
else
	bad "baseline (exit status $rc)"
fi

# Without a base game: the reference to TANK.GHOST, which no file defines,
# is one run-level note (the count, the rule, the name, how to pass
# --base), in no count; the reference that resolves in another file of the
# run (TANK.BODY) is never counted, and the finding about a hierarchy the
# run has (too few pivots) is still reported one by one.
"$w3dlint" --no-progress --fold 0 --fail-on warning bad > out 2>&1
rc=$?
if [ "$rc" = 1 ] && ! has "bad/tank.w3d:0x88" &&
   has "note: 1 reference to a name that no file of the run defines" &&
   has "(reference-mesh-missing 1); the most named: 'TANK.GHOST' 1; pass --base with the base game's folder or its .big / .pbo files" &&
   [ "$(grep -c '^note: ' out)" = 1 ] && ! has "TANK.BODY" &&
   has "[reference-hierarchy-too-few-pivots]" && has "4 files, 0 errors, 1 warning, 0 infos"; then
	ok "no base game: one note with the count, the rule and the name; the resolved reference not in it"
else
	bad "no base game: the note (exit status $rc)"
fi
# A second HLOD naming the same missing mesh (a duplicate definition
# too): the note counts 2
# references, the name twice.
mk "$tmp/many" 1 ghost
cp many/tank.w3d many/tank2.w3d
"$w3dlint" --no-progress many > out 2>&1
if has "note: 2 references to names that no file of the run defines" &&
   has "the most named: 'TANK.GHOST' 2;" && has "5 files, 0 errors, 1 warning, 0 infos"; then
	ok "no base game: the note counts each reference, the most named first"
else
	bad "no base game: the note's count"
fi
"$w3dlint" --no-progress -f json bad > out 2>&1
if python3 - out <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
u = d["unresolved"]
rules = [x["rule"] for f in d["files"] for x in f["findings"]]
sys.exit(0 if u["count"] == 1 and u["rules"] == {"reference-mesh-missing": 1} and
         u["names"] == [{"name": "TANK.GHOST", "count": 1}] and "--base" in u["message"] and
         "reference-mesh-missing" not in rules and d["summary"]["warnings"] == 1 else 1)
EOF
then ok "json: the note is \"unresolved\", not a finding"; else bad "json: unresolved"; fi
"$w3dlint" --no-progress -f sarif bad > out 2>&1
if python3 - out <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
notes = [n["message"]["text"] for n in run["invocations"][0].get("toolExecutionNotifications", [])]
rules = [r["ruleId"] for r in run["results"]]
sys.exit(0 if len([n for n in notes if n.startswith("1 reference to a name that no file")]) == 1 and
         "reference-mesh-missing" not in rules and len(rules) == 1 else 1)
EOF
then ok "sarif: the note is a toolExecutionNotification, not a result"; else bad "sarif: the note"; fi
"$w3dlint" --no-progress -f github bad > out 2>&1
if [ "$(grep -c '^::notice title=w3dlint::1 reference to a name' out)" = 1 ] && ! has "reference-mesh-missing::"; then
	ok "github: the note is one notice"
else
	bad "github: the note"
fi
"$w3dlint" --no-progress --write-baseline bl2.json bad > out 2>&1
if has "recorded 1 finding in 1 file" && ! grep -q "reference-mesh-missing" bl2.json; then
	ok "baseline: the note is not recorded"
else
	bad "baseline without a base game"
fi

# --game: a SOUNDROBJ loads only in Renegade (and W3D Hub builds).
assemble xref/beep.w3d beep.w3d
"$w3dlint" --no-progress --fail-on info --game generals beep.w3d > out 2>&1
rc=$?
if [ "$rc" = 1 ] && has "SOUNDROBJ is not loaded by generals" && has "[soundrobj-not-loaded]"; then
	ok "--game generals: soundrobj-not-loaded on the SOUNDROBJ"
else
	bad "--game generals (exit status $rc)"
fi
for g in auto renegade W3DHUB; do
	"$w3dlint" --no-progress --fail-on info --game "$g" beep.w3d > out 2>&1
	rc=$?
	if [ "$rc" = 0 ] && ! has "not-loaded"; then
		ok "near miss --game $g: the SOUNDROBJ loads"
	else
		bad "--game $g (exit status $rc)"
	fi
done
"$w3dlint" --no-progress --game ra2 beep.w3d > out 2>&1
rc=$?
if [ "$rc" = 2 ] && has "unknown target 'ra2' for --game" && has "renegade, generals" && has "bfme, w3dhub" && has "luanti"; then
	ok "unknown --game: exit status 2, the valid names listed"
else
	bad "unknown --game (exit status $rc)"
fi

# --base / base: the base game's files are indexed, never linted or
# reported: a mod whose hierarchy lives in the base game.
mk "$tmp/modb" 1 body
mkdir -p "$tmp/game/art"
mv "$tmp/modb/skel.w3d" "$tmp/game/art/skel.w3d"
printf 'garbage' > "$tmp/game/art/broken.w3d"
"$w3dlint" --no-progress --fail-on info --show-infos modb > out 2>&1
if has "note: 2 references to names" && has "(reference-hierarchy-missing 2); the most named: 'SKEL' 2"; then
	ok "near miss: without --base the hierarchy of the base game is missing (the note)"
else
	bad "without --base: no reference-hierarchy-missing"
fi
"$w3dlint" --no-progress --fail-on info --show-infos --base game modb > out 2>&1
rc=$?
if ! grep -q "reference-hierarchy-missing" out && ! grep -q "game/" out && [ "$rc" = 0 ]; then
	ok "--base game: the hierarchy is found there; the base files are neither linted nor reported"
else
	bad "--base game (exit status $rc)"
fi
printf 'base: [game]\n' > .w3dlint.yaml
"$w3dlint" --no-progress --fail-on info --show-infos modb > out 2>&1
rc=$?
rm -f .w3dlint.yaml
if ! grep -q "reference-hierarchy-missing" out && ! grep -q "game/" out && [ "$rc" = 0 ]; then
	ok "base: in .w3dlint.yaml (relative to its folder) does the same"
else
	bad "base: in the configuration (exit status $rc)"
fi

[ "$fail" -eq 0 ] && echo "xref_cli: all passed"
exit "$fail"
