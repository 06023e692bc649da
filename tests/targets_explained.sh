#!/bin/sh
# What a rule's explanation says about its targets must be what its
# `targets:` says (issue 32): a target the explanation calls unaffected is
# off for the rule.  Read from `w3dlint --explain` of every catalogue rule
# (the built catalogue, as users see it).  The statements recognised:
#   "off for T1, T2 and T3" / "off for every B3D target"    -> those targets
#   "the game is unaffected", "playback is unaffected",
#   "harmless in the game"                                  -> the format's games
#                                                              (W3D, P3D: all
#                                                              targets; B3D:
#                                                              luanti, irrlicht,
#                                                              blitz3d)
#   "Luanti|Irrlicht|Blitz3D|Assimp ... is not affected"    -> that target
# A sentence that hedges ("most", "usually", "often") is not a statement.
# The checker is run first on a real rule's text with one off target turned
# to warning, which it must refuse, so the test can fail.
# Usage: tests/targets_explained.sh W3DLINT
set -u
w3dlint=$1
name=targets_explained
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	echo "$name: skipped: python3 not found"
	exit 0
fi
for r in $("$w3dlint" --list-rules | awk '{ print $1 }'); do
	"$w3dlint" --explain "$r"
	echo "@@end"
done > "$tmp/explain.txt"
cat > "$tmp/check.py" <<'PY'
import re, sys
GAMES = {"w3d": ["renegade", "generals", "bfme", "w3dhub"], "b3d": ["luanti", "irrlicht", "blitz3d"],
         "p3d": ["arma1", "arma2", "arma3", "dayz"]}
ALL = {"w3d": GAMES["w3d"], "b3d": GAMES["b3d"] + ["assimp"], "p3d": GAMES["p3d"]}
ENGINE = {"luanti": "luanti", "irrlicht": "irrlicht", "blitz3d": "blitz3d", "assimp": "assimp"}
NAMES = sorted({t for v in ALL.values() for t in v}, key=len, reverse=True)
name_re = "(?:" + "|".join(NAMES) + ")"
rules = checked = bad = 0
for block in open(sys.argv[1], encoding="utf-8").read().split("@@end\n"):
    lines = block.split("\n")
    if not lines[0].strip():
        continue
    rid = lines[0].strip()
    fmt = next((l.split(":", 1)[1].strip() for l in lines if l.startswith("  format:")), "")
    tline = next((l.split(":", 1)[1] for l in lines if l.startswith("  targets:")), "")
    off = {m.group(1) for m in re.finditer(r"([a-z0-9]+) unaffected \(off\)", tline)}
    have = {m.group(1) for m in re.finditer(r"([a-z0-9]+) (?:unaffected \(off\)|error|warning|info)", tline)}
    try:
        body = lines.index("", 1)
    except ValueError:
        continue
    text = " ".join(l.strip() for l in lines[body + 1:] if not l.startswith("parameters:"))
    rules += 1
    for sent in re.split(r"(?<=[.;])\s+", text):
        if re.search(r"\b(most|usually|often)\b", sent):
            continue
        said = set()
        for m in re.finditer(r"off for (" + name_re + r"(?:(?:, | and |, and )" + name_re + r")*)", sent):
            said |= set(re.findall(name_re, m.group(1)))
        for m in re.finditer(r"off for every (W3D|B3D|P3D) target", sent):
            said |= set(ALL[m.group(1).lower()])
        if re.search(r"(the game|playback) is unaffected|harmless in the game", sent, re.I):
            for f in ([fmt] if fmt in GAMES else GAMES):
                said |= set(GAMES[f])
        for m in re.finditer(r"\b(Luanti|Irrlicht|Blitz3D|Assimp)\b(?: [0-9.]+)? (?:is|are) not affected", sent):
            said.add(ENGINE[m.group(1).lower()])
        if have:
            said &= have  # only targets of the rule's format
        for t in sorted(said):
            checked += 1
            if t not in off:
                print("%s: %s: the explanation says %s is unaffected (\"%s\"), but its targets give %s a severity"
                      % (sys.argv[2], rid, t, sent[:120], t))
                bad += 1
print("%s: %d rules, %d unaffected-target statements checked, %d contradicted" % (sys.argv[2], rules, checked, bad))
sys.exit(1 if bad else 0)
PY
# The checker refuses a contradiction: a real rule whose explanation says
# "off for luanti", with luanti turned to warning.
"$w3dlint" --explain b3d-weight-sum | sed 's/luanti unaffected (off)/luanti warning/' > "$tmp/neg.txt"
echo "@@end" >> "$tmp/neg.txt"
if python3 "$tmp/check.py" "$tmp/neg.txt" "$name" > "$tmp/neg.out" 2>&1; then
	bad "a rule whose explanation says luanti is unaffected, with luanti at warning, was accepted: $(cat "$tmp/neg.out")"
else
	ok "a contradicted statement fails: $(head -n 1 "$tmp/neg.out" | cut -c1-110)"
fi
if python3 "$tmp/check.py" "$tmp/explain.txt" "$name" > "$tmp/out" 2>&1; then
	ok "$(tail -n 1 "$tmp/out")"
else
	cat "$tmp/out"
	fail=1
fi
[ "$fail" -eq 0 ] && echo "$name: all passed"
exit "$fail"
