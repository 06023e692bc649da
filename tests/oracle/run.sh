#!/bin/sh
# make oracle (docs/oracle.md): the B3D oracle tier.  Builds the two loader
# programs of tests/oracle/ against the engines installed here (Irrlicht 1.8,
# Debian libirrlicht-dev; Assimp, libassimp-dev) and runs compare.py over
# ../shared/corpus/b3d and the rule fixtures.  Skips with one line when the
# corpus or a loader is absent.
#   sh tests/oracle/run.sh BUILD
set -eu
build=${1:-build}
corpus=${ORACLE_CORPUS:-../shared/corpus/b3d}
here=$(dirname "$0")
if [ ! -d "$corpus" ]; then
	echo "oracle: skipped: no B3D corpus at $corpus"
	exit 0
fi
rc=0
sh "$here/build.sh" "$build" || rc=$?
if [ "$rc" = 3 ]; then
	echo "oracle: skipped: needs g++, Irrlicht (libirrlicht-dev) and Assimp (libassimp-dev): sh scripts/setup-deps.sh"
	exit 0
elif [ "$rc" != 0 ]; then
	echo "oracle: FAIL: the loader programs did not build"
	exit 1
fi
out=$build/oracle
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/compare.py" "$build" "$out/irr_oracle" "$out/assimp_oracle" "$corpus" "$work/run"
