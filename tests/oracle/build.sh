#!/bin/sh
# tests/oracle/build.sh BUILD: builds the two loader programs of the oracle
# tier (docs/oracle.md) into BUILD/oracle against the engines installed here
# (Irrlicht 1.8, Debian libirrlicht-dev; Assimp, libassimp-dev), when they
# are older than their source.  Exits 3, printing nothing, when g++, Irrlicht
# or Assimp is absent (the callers say what they skip); 0 when both built.
set -eu
build=${1:-build}
here=$(dirname "$0")
cxx=${CXX:-g++}
irrinc=/usr/include/irrlicht
if ! command -v "$cxx" >/dev/null 2>&1 || [ ! -f "$irrinc/irrlicht.h" ] || ! pkg-config --exists assimp; then
	exit 3
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
