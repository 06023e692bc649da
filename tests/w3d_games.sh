#!/bin/sh
# The W3D targets mean something (issue 32 item 4): for each W3D game, a
# rule whose severity under that game differs from its severity under
# another game, shown on the rule's own fire case (corpus/rules/RULE/
# fire.w3d.txt, assembled with w3dasm) linted with --target GAME.
#  1. For every (rule, game), the severity the report gives the rule's
#     finding (none when it does not run) is the one `w3dlint --explain`
#     states for that game (off -> none): the checks, the catalogue and the
#     front end agree.
#  2. Every two games are told apart by at least one of these rules (a
#     severity that differs), so naming a game changes what is reported;
#     the table of severities is printed.
#  3. Under auto, the game the file itself shows decides: a SOUNDROBJ alone
#     (read as Renegade) gets no soundrobj-not-loaded, the same beside Zero
#     Hour evidence does.
# Needs only the project's own cases.
# Usage: tests/w3d_games.sh W3DASM W3DLINT
set -u
w3dasm=$1
w3dlint=$2
name=w3d_games
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
games="renegade generals bfme w3dhub"
# Rules whose catalogue entry gives the W3D games different severities.
rules="chunk-bfme-only texture-info-invalid skin-influences-extended-only soundrobj-not-loaded"

# stated RULE GAME: the severity --explain gives GAME ("off" when unaffected).
stated() {
	"$w3dlint" --explain "$1" | sed -n 's/^  targets: *//p' | tr ',' '\n' |
		sed -n "s/^ *$2 unaffected (off)$/off/p; s/^ *$2 \([a-z]*\)$/\1/p" | head -n 1
}
# reported JSON RULE: the severity of RULE's findings in a JSON report
# ("off" when none; "mixed" when they differ).
reported() {
	python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
s={x["severity"] for f in d["files"] for x in f["findings"] if x["rule"]==sys.argv[2]}
print("off" if not s else s.pop() if len(s)==1 else "mixed")' "$@"
}

: > "$tmp/table"
for r in $rules; do
	src=$root/corpus/rules/$r/fire.w3d.txt
	if [ ! -f "$src" ]; then
		bad "$r: no fire case $src"
		continue
	fi
	if ! "$w3dasm" "$src" -o "$tmp/$r.w3d" 2>"$tmp/err"; then
		bad "$r: w3dasm failed on $src"
		continue
	fi
	line=$r
	for g in $games; do
		want=$(stated "$r" "$g")
		"$w3dlint" --no-progress --no-xref --config /dev/null --show-infos -f json --target "$g" \
			"$tmp/$r.w3d" > "$tmp/$g.json" 2>/dev/null
		got=$(reported "$tmp/$g.json" "$r")
		if [ -z "$want" ] || [ "$got" != "$want" ]; then
			bad "$r under --target $g: the report gives '$got', --explain states '$want'"
		fi
		line="$line $g=$got"
	done
	echo "$line" >> "$tmp/table"
done
sed "s/^/$name: /" "$tmp/table"
# 2: every pair of games differs in at least one rule's severity.
for g in $games; do
	for h in $games; do
		[ "$g" \< "$h" ] || continue
		by=$(awk -v g="$g" -v h="$h" '{
			sg = ""; sh = ""
			for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == g) sg = kv[2]; if (kv[1] == h) sh = kv[2] }
			if (sg != sh) { print $1 " (" g " " sg ", " h " " sh ")"; exit }
		}' "$tmp/table")
		if [ -n "$by" ]; then
			ok "$g vs $h: $by"
		else
			bad "$g and $h: no rule whose severity differs between them"
		fi
	done
done
# 3: auto-detection from the file decides.
auto_count() {
	"$w3dasm" "$1" -o "$tmp/auto.w3d" 2>/dev/null &&
		"$w3dlint" --no-progress --no-xref --config /dev/null --show-infos -f json "$tmp/auto.w3d" \
			> "$tmp/auto.json" 2>/dev/null
	reported "$tmp/auto.json" soundrobj-not-loaded
}
alone=$(auto_count "$root/corpus/cli/xref/beep.w3d.txt")
beside=$(auto_count "$root/corpus/rules/soundrobj-not-loaded/fire.w3d.txt")
if [ "$alone" = off ] && [ "$beside" = info ]; then
	ok "auto: a SOUNDROBJ alone (renegade) gets no soundrobj-not-loaded; beside a SHDMESH (generals) it does"
else
	bad "auto: soundrobj-not-loaded alone '$alone' (want off), beside Zero Hour evidence '$beside' (want info)"
fi
if [ "$fail" = 0 ]; then
	echo "$name: ok"
fi
exit "$fail"
