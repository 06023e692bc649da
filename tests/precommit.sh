#!/bin/sh
# Runs this repository's .pre-commit-hooks.yaml with pre-commit over a
# throw-away git repository under $TMPDIR (docs/pre-commit.md explains each
# step): a hook repository holding only .pre-commit-hooks.yaml is committed,
# a test repository uses it at that commit, build/w3dlint (and build/w3dfix
# when built) are put on PATH, and models from gen_demo are committed:
#   - the clean model (named .W3D: the pattern ignores letter case) passes,
#   - a text file is not handed to the hooks,
#   - the broken model fails the w3dlint hook, which names the rule,
#   - `git commit` through the installed hook refuses the broken model,
#   - the w3dfix hook passes on the clean model and leaves it unchanged,
#   - in a scratch repository with one W3D, one B3D and one P3D file
#     (P3D from ../shared/corpus/p3d), `pre-commit run --all-files` hands
#     every file to both hooks.
# Skips with one line when pre-commit or git is not installed.
# Usage: tests/precommit.sh W3DLINT GEN_DEMO [W3DFIX]
set -u
w3dlint=$1
gen_demo=$2
w3dfix=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in pre-commit git; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "precommit: skipped: $tool is not installed (apt-get install $tool)"
		exit 0
	fi
done
abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
w3dlint=$(abspath "$w3dlint")
gen_demo=$(abspath "$gen_demo")
[ -n "$w3dfix" ] && [ -x "$w3dfix" ] && w3dfix=$(abspath "$w3dfix") || w3dfix=""

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
export PRE_COMMIT_HOME="$tmp/cache" HOME="$tmp/home"
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.invalid
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.invalid
mkdir -p "$HOME" "$tmp/bin"
ln -s "$w3dlint" "$tmp/bin/w3dlint"
[ -n "$w3dfix" ] && ln -s "$w3dfix" "$tmp/bin/w3dfix"
PATH="$tmp/bin:$PATH"

fail=0
check() { # check WHAT EXPECTED_STATUS STATUS
	if [ "$2" = "$3" ]; then
		echo "precommit: ok: $1"
	else
		echo "precommit: FAIL: $1: exit status $3, want $2"
		sed 's/^/    /' "$tmp/out" | head -n 30
		fail=1
	fi
}

# The hook repository: only the hook definitions, committed.
git init -q "$tmp/hooks"
cp "$root/.pre-commit-hooks.yaml" "$tmp/hooks/"
(cd "$tmp/hooks" && git add .pre-commit-hooks.yaml && git commit -q -m hooks)
rev=$(cd "$tmp/hooks" && git rev-parse HEAD)

# The test repository.
git init -q "$tmp/repo"
mkdir "$tmp/demo"
"$gen_demo" "$tmp/demo" > /dev/null
cp "$tmp/demo/clean_quad.w3d" "$tmp/repo/clean.W3D"
cp "$tmp/demo/bad_mesh.w3d" "$tmp/repo/broken.w3d"
echo "not a model" > "$tmp/repo/notes.txt"
hooks="      - id: w3dlint"
[ -n "$w3dfix" ] && hooks="$hooks
      - id: w3dfix"
cat > "$tmp/repo/.pre-commit-config.yaml" <<EOC
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
$hooks
EOC
cd "$tmp/repo" || exit 1
git add .pre-commit-config.yaml clean.W3D notes.txt

pre-commit run w3dlint --files clean.W3D notes.txt > "$tmp/out" 2>&1
st=$?
grep -q 'Passed' "$tmp/out" || st="$st (the hook did not run: Passed missing)"
check "w3dlint hook runs and passes on the clean model (.W3D)" 0 "$st"
pre-commit run w3dlint --verbose --files notes.txt > "$tmp/out" 2>&1
st=$?
grep -q 'no files to check' "$tmp/out" && st=skipped
check "a .txt file is not handed to w3dlint" skipped "$st"
pre-commit run w3dlint --files broken.w3d > "$tmp/out" 2>&1
st=$?
grep -q 'triangle-index-out-of-range' "$tmp/out" || st="$st (rule id missing from the output)"
check "w3dlint hook fails on the broken model and names the rule" 1 "$st"

pre-commit install > "$tmp/out" 2>&1
check "pre-commit install" 0 $?
git commit -q -m clean > "$tmp/out" 2>&1
check "git commit of the clean model passes the hook" 0 $?
git add broken.w3d
git commit -q -m broken > "$tmp/out" 2>&1
check "git commit of the broken model is refused" 1 $?

if [ -n "$w3dfix" ]; then
	sum=$(cksum < clean.W3D)
	pre-commit run w3dfix --files clean.W3D > "$tmp/out" 2>&1
	st=$?
	[ "$(cksum < clean.W3D)" = "$sum" ] || st="$st (file changed)"
	check "w3dfix hook passes on the clean model and leaves it unchanged" 0 "$st"
else
	echo "precommit: note: no w3dfix built, its hook was not run"
fi

# All three formats: a scratch repository with one W3D, one B3D and one
# P3D file; `pre-commit run --all-files` must hand each of them to both
# hooks (wrappers on PATH log the files they get).
w3dasm=$(dirname "$w3dlint")/w3dasm
p3d=$(ls "$root"/../shared/corpus/p3d/*/*.p3d 2>/dev/null | head -n 1)
if [ -n "$w3dfix" ] && [ -x "$w3dasm" ] && [ -n "$p3d" ]; then
	mkdir "$tmp/wrap" "$tmp/three"
	for t in w3dlint w3dfix; do
		real=$(readlink "$tmp/bin/$t")
		printf '#!/bin/sh\nfor a in "$@"; do echo "%s $a"; done >> "%s"\nexec "%s" "$@"\n' \
			"$t" "$tmp/handed.log" "$real" > "$tmp/wrap/$t"
		chmod +x "$tmp/wrap/$t"
	done
	git init -q "$tmp/three"
	cp "$tmp/demo/clean_quad.w3d" "$tmp/three/tank.w3d"
	"$w3dasm" "$root/corpus/valid/quad.b3d.txt" -o "$tmp/three/mob.b3d" > "$tmp/out" 2>&1
	cp "$p3d" "$tmp/three/addon.P3D"
	cat > "$tmp/three/.pre-commit-config.yaml" <<EOC
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: w3dlint
      - id: w3dfix
EOC
	(cd "$tmp/three" && git add -A && PATH="$tmp/wrap:$PATH" pre-commit run --all-files > "$tmp/out" 2>&1)
	st=ok
	for t in w3dlint w3dfix; do
		for f in tank.w3d mob.b3d addon.P3D; do
			grep -q "^$t $f\$" "$tmp/handed.log" 2>/dev/null || st="$st; $t did not get $f"
		done
	done
	check "pre-commit run --all-files hands the W3D, B3D and P3D file to both hooks" ok "$st"
else
	echo "precommit: note: no w3dfix, w3dasm or ../shared/corpus/p3d: the three-format run was skipped"
fi

if [ "$fail" -ne 0 ]; then
	echo "precommit: FAIL"
	exit 1
fi
echo "precommit: hooks ok with $(pre-commit --version)"
