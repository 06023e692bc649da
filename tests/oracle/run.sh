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
cxx=${CXX:-g++}
irrinc=/usr/include/irrlicht
if ! command -v "$cxx" >/dev/null 2>&1 || [ ! -f "$irrinc/irrlicht.h" ] || ! pkg-config --exists assimp; then
	echo "oracle: skipped: needs g++, Irrlicht (libirrlicht-dev) and Assimp (libassimp-dev): sh scripts/setup-deps.sh"
	exit 0
fi
out=$build/oracle
mkdir -p "$out"
if [ ! -x "$out/irr_oracle" ] || [ "$here/irr_oracle.cpp" -nt "$out/irr_oracle" ]; then
	"$cxx" -O1 -std=c++11 -Wall -Wextra -Werror -isystem "$irrinc" "$here/irr_oracle.cpp" -o "$out/irr_oracle" -lIrrlicht
fi
if [ ! -x "$out/assimp_oracle" ] || [ "$here/assimp_oracle.c" -nt "$out/assimp_oracle" ]; then
	${CC:-cc} -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wconversion -Werror \
		$(pkg-config --cflags assimp) "$here/assimp_oracle.c" -o "$out/assimp_oracle" $(pkg-config --libs assimp) -lm
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/compare.py" "$build" "$out/irr_oracle" "$out/assimp_oracle" "$corpus" "$work/run"
