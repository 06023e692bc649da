#!/bin/sh
# git diff of models through the textconv driver (issue 31, docs/textform.md
# "git diff of models"): a temporary git repository with .gitattributes
# and `git config diff.<fmt>.textconv "w3ddump --diff-text"` commits one
# W3D, one B3D and one MLOD file of ../shared/corpus, then changes one W3D
# vertex and one B3D texture file name (through w3ddump --text and w3dasm)
# and one MLOD named property's value (a byte edit of its 64-byte value),
# and checks that `git diff` shows exactly one removed and one added line
# per file, the removed line holding the old value and the added line the
# new one.  Near miss: an unchanged model shows no diff at all.  The three
# diffs are written to $GIT_DIFF_OUT when set.  Skipped with one line
# without the corpus or git.
# Usage: tests/git_diff.sh W3DDUMP W3DASM
set -u
w3ddump=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
w3dasm=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
name=git_diff
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=$root/../shared/corpus
if [ ! -d "$corpus" ] || ! command -v git >/dev/null 2>&1; then
	echo "$name: skipped: no corpus at $corpus or no git"
	exit 0
fi
repo=$tmp/repo
mkdir "$repo"
g() { git -C "$repo" -c user.name=t -c user.email=t@t -c core.autocrlf=false "$@"; }
g init -q
printf '*.w3d diff=w3d\n*.b3d diff=w3d\n*.p3d diff=w3d\n' > "$repo/.gitattributes"
g config diff.w3d.textconv "$w3ddump --diff-text"

# The first W3D file (sorted) whose text form has VERTICES; the first B3D
# with a TEXS file name; the first MLOD with a #Property# tag.
for f in $(find "$corpus/w3d" -name '*.w3d' -size -200k | sort); do
	"$w3ddump" --text "$f" > "$tmp/w.txt" 2>/dev/null && grep -q 'chunk: VERTICES' "$tmp/w.txt" && { w3d=$f; break; }
done
for f in $(find "$corpus/b3d" -name '*.b3d' -size -200k | sort); do
	"$w3ddump" --text "$f" > "$tmp/b.txt" 2>/dev/null && grep -q '{file: "' "$tmp/b.txt" && { b3d=$f; break; }
done
for f in $(find "$corpus/p3d" -name '*.p3d' -size -500k | sort); do
	head -c 4 "$f" | grep -q MLOD && grep -q -a '#Property#' "$f" && { mlod=$f; break; }
done
cp "$w3d" "$repo/model.w3d"; cp "$b3d" "$repo/model.b3d"; cp "$mlod" "$repo/model.p3d"
chmod u+w "$repo"/model.*
g add -A && g commit -q -m base

g diff > "$tmp/none"
if [ -s "$tmp/none" ]; then bad "an unchanged repository shows a diff"; else ok "no change: no diff"; fi

# W3D: the first vertex's x + 1 (the line after "items:" under VERTICES).
python3 - "$tmp/w.txt" "$tmp/w2.txt" > "$tmp/wvals" <<'PY'
import sys, re
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if "chunk: VERTICES" in l)
j = next(k for k in range(i, len(lines)) if lines[k].strip().startswith("- ["))
m = re.match(r"(\s*- \[)([^,]+)(,.*)", lines[j])
old = lines[j].strip()
lines[j] = m.group(1) + repr(float(m.group(2)) + 1.0) + m.group(3)
print(old); print(lines[j].strip())
open(sys.argv[2], "w").write("\n".join(lines))
PY
"$w3dasm" "$tmp/w2.txt" -o "$repo/model.w3d" 2>"$tmp/err" || bad "w3dasm of the changed W3D text"
# B3D: the first texture file name gets "x_" in front.
python3 - "$tmp/b.txt" "$tmp/b2.txt" > "$tmp/bvals" <<'PY'
import sys
s = open(sys.argv[1]).read()
k = s.index('{file: "') + len('{file: "')
e = s.index('"', k)
print(s[k:e]); print("x_" + s[k:e])
open(sys.argv[2], "w").write(s[:k] + "x_" + s[k:])
PY
"$w3dasm" "$tmp/b2.txt" -o "$repo/model.b3d" 2>"$tmp/err" || bad "w3dasm of the changed B3D text"
# MLOD: the first #Property# value (64 bytes after its 64-byte name): its
# first byte '0' becomes '1', anything else '0'.
python3 - "$repo/model.p3d" > "$tmp/pvals" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
k = b.index(b"#Property#\0") + len(b"#Property#\0") + 4
name = bytes(b[k:k + 64]).split(b"\0")[0].decode("latin-1")
v = k + 64
old = bytes(b[v:v + 64]).split(b"\0")[0].decode("latin-1")
b[v] = ord("1") if b[v] == ord("0") else ord("0")
new = bytes(b[v:v + 64]).split(b"\0")[0].decode("latin-1")
open(sys.argv[1], "wb").write(b)
print(name); print(old); print(new)
PY

check() { # FILE OLD NEW: exactly one - and one + line, holding OLD and NEW
	g diff -- "$1" > "$tmp/d.$1"
	[ -n "${GIT_DIFF_OUT:-}" ] && cat "$tmp/d.$1" >> "$GIT_DIFF_OUT"
	minus=$(grep -c '^-[^-]' "$tmp/d.$1"); plus=$(grep -c '^+[^+]' "$tmp/d.$1")
	if [ "$minus" -eq 1 ] && [ "$plus" -eq 1 ] && grep '^-[^-]' "$tmp/d.$1" | grep -F -q -- "$2" &&
	   grep '^+[^+]' "$tmp/d.$1" | grep -F -q -- "$3"; then
		ok "$1: git diff shows the one changed line"
	else
		bad "$1: git diff shows $minus - and $plus + lines"
		sed 's/^/    /' "$tmp/d.$1" | head -n 30
	fi
}
wold=$(sed -n 1p "$tmp/wvals" | sed 's/^- //'); wnew=$(sed -n 2p "$tmp/wvals" | sed 's/^- //')
check model.w3d "$wold" "$wnew"
check model.b3d "\"$(sed -n 1p "$tmp/bvals")\"" "\"$(sed -n 2p "$tmp/bvals")\""
check model.p3d "value: \"$(sed -n 2p "$tmp/pvals")\"" "value: \"$(sed -n 3p "$tmp/pvals")\""
[ "$fail" -eq 0 ] && echo "$name: all passed"
exit "$fail"
