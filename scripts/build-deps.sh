#!/bin/sh
# build-deps.sh - the library's dependencies built for another platform from
# Debian's own source packages (`apt-get source`: the versions the Linux
# build links), as static libraries: libyaml, PCRE2 (no JIT), jansson, LZO 2,
# Nettle (C only, no public-key code) and Qhull (libqhull_r); for Windows
# also Check, which the unit tests link.
#
#   sh scripts/build-deps.sh TARGET PREFIX
#
# TARGET  wasm     Emscripten (Debian `emscripten`; issue 28, docs/web.md)
#         windows  MinGW-w64 x86_64 (Debian `gcc-mingw-w64-x86-64`; issue 27)
# PREFIX (e.g. build-wasm-deps) receives include/ and lib/*.a; the sources
# are unpacked under PREFIX/src.  A library already in PREFIX/lib is not
# built again, so the cache survives runs (`make clean` removes it).  Needs
# deb-src lines for apt-get source: scripts/setup-deps.sh web (or windows)
# adds them and installs the compilers, cmake and the build tools.
set -eu
target=${1:?usage: build-deps.sh wasm|windows PREFIX}
prefix=${2:?usage: build-deps.sh wasm|windows PREFIX}
mkdir -p "$prefix/src" "$prefix/lib" "$prefix/include"
prefix=$(cd "$prefix" && pwd)
src=$prefix/src
jobs=$(nproc 2>/dev/null || echo 2)
name=build-deps-$target

# What differs per target: how CMake, configure and make are run, the C
# compiler and archiver, and configure's --host.
case $target in
wasm)
	# Debian's emcc runs its JavaScript optimiser with the machine's node,
	# which finds Debian's node-acorn only through NODE_PATH.
	export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
	cmake_cmd() { emcmake cmake "$@"; }
	conf_cmd() { emconfigure "$@"; }
	make_cmd() { emmake make "$@"; }
	cc=emcc ar=emar host=wasm32
	;;
windows)
	mingw=x86_64-w64-mingw32
	# MinGW-w64's own C99 printf, not msvcrt's: jansson writes a real
	# with "%.17g", and msvcrt rounds a tie away from zero where glibc
	# (and MinGW's) round it to even, so reports would differ in the last
	# digit (-0.20000076293945313 against ...312).
	export CFLAGS="-O2 -D__USE_MINGW_ANSI_STDIO=1"
	cmake_cmd() {
		cmake -DCMAKE_SYSTEM_NAME=Windows -DCMAKE_C_COMPILER=$mingw-gcc -DCMAKE_CXX_COMPILER=$mingw-g++ \
			-DCMAKE_RC_COMPILER=$mingw-windres -DCMAKE_FIND_ROOT_PATH=/usr/$mingw \
			-DCMAKE_C_FLAGS="$CFLAGS" "$@"
	}
	conf_cmd() { "$@"; }
	make_cmd() { make "$@"; }
	cc=$mingw-gcc ar=$mingw-ar host=$mingw
	;;
*)
	echo "usage: build-deps.sh wasm|windows PREFIX" >&2
	exit 2
	;;
esac
command -v "$cc" >/dev/null 2>&1 || {
	echo "$name: no $cc (sh scripts/setup-deps.sh $([ "$target" = wasm ] && echo web || echo windows))" >&2
	exit 2
}

# Windows libraries built before MinGW's C99 printf was asked for (no
# stamp, or another one) are built again.
if [ "$target" = windows ] && [ "$(cat "$prefix/lib/.cflags" 2>/dev/null)" != "$CFLAGS" ]; then
	rm -f "$prefix"/lib/*.a
	printf '%s\n' "$CFLAGS" > "$prefix/lib/.cflags"
fi

fetch() { # fetch PACKAGE: unpack Debian's source package, print its folder
	pkg=$1
	dir=$(find "$src" -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
	if [ -z "$dir" ]; then
		(cd "$src" && apt-get source -q "$pkg" > "$pkg.log" 2>&1) || {
			echo "$name: apt-get source $pkg failed (deb-src lines? see $src/$pkg.log)" >&2
			exit 2
		}
		dir=$(find "$src" -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
	fi
	echo "$dir"
}

cmake_lib() { # cmake_lib PACKAGE LIBFILE TARGET CMAKE-ARGS... (TARGET: install, or the
	# one CMake target to build, whose LIBFILE and headers are then copied)
	pkg=$1 lib=$2 what=$3
	shift 3
	[ -f "$prefix/lib/$lib" ] && return 0
	echo "$name: $pkg"
	dir=$(fetch "$pkg")
	b=$dir/$target-build
	rm -rf "$b"
	{ cmake_cmd -S "$dir" -B "$b" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF "$@" &&
		if [ "$what" = install ]; then
			cmake --build "$b" -j "$jobs" && cmake --install "$b"
		else
			cmake --build "$b" -j "$jobs" --target "$what" &&
				cp "$(find "$b" -name "$lib" | head -n 1)" "$prefix/lib/"
		fi; } > "$b.log" 2>&1 || {
		echo "$name: $pkg failed ($b.log)" >&2
		exit 2
	}
	[ -f "$prefix/lib/$lib" ] || { echo "$name: $pkg gave no $lib ($b.log)" >&2; exit 2; }
}

cmake_lib libyaml libyaml.a install -DBUILD_TESTING=OFF -DINSTALL_CMAKE_DIR=lib/cmake/yaml
cmake_lib pcre2 libpcre2-8.a install -DPCRE2_BUILD_TESTS=OFF -DPCRE2_BUILD_PCRE2GREP=OFF -DPCRE2_SUPPORT_JIT=OFF
# jansson maps snprintf to msvcrt's _snprintf for every Windows compiler but
# MSVC (src/jansson_private.h), which would undo the C99 printf above: for
# MinGW-w64 that mapping is left out of the source built.
if [ "$target" = windows ] && [ ! -f "$prefix/lib/libjansson.a" ]; then
	sed -i 's|^#else /\* Other Windows compiller, old definition \*/$|#elif !defined(__MINGW32__) /* Other Windows compiler (not MinGW-w64: C99 printf) */|' \
		"$(fetch jansson)/src/jansson_private.h"
fi
cmake_lib jansson libjansson.a install -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF
# LZO2's CMake checks of type sizes fail under Emscripten (its headers then
# assert a negative array size); its sources need no configuration, so they
# are compiled as they are, for every target.
if [ ! -f "$prefix/lib/liblzo2.a" ]; then
	echo "$name: lzo2"
	dir=$(fetch lzo2)
	o=$dir/$target-obj
	mkdir -p "$o" "$prefix/include/lzo"
	for c in "$dir"/src/*.c; do
		"$cc" ${CFLAGS:--O2} -I"$dir/include" -I"$dir/src" -c "$c" -o "$o/$(basename "$c" .c).o" ||
			{ echo "$name: lzo2 failed at $c" >&2; exit 2; }
	done
	"$ar" rcs "$prefix/lib/liblzo2.a" "$o"/*.o
	cp "$dir"/include/lzo/*.h "$prefix/include/lzo/"
fi
# Qhull: only the reentrant C library (libqhull_r, what fix/p3d/fix_hull.c
# links), and its headers.
cmake_lib qhull libqhullstatic_r.a qhullstatic_r
if [ ! -d "$prefix/include/libqhull_r" ]; then
	mkdir -p "$prefix/include/libqhull_r"
	cp "$(fetch qhull)"/src/libqhull_r/*.h "$prefix/include/libqhull_r/"
fi

# Nettle has no CMake build: its configure, with the C code only (no
# assembler) and only the static library.
if [ ! -f "$prefix/lib/libnettle.a" ]; then
	echo "$name: nettle"
	dir=$(fetch nettle)
	log=$dir/$target-build.log
	(cd "$dir" && { [ ! -f Makefile ] || make distclean > /dev/null 2>&1 || true; } &&
		conf_cmd ./configure --prefix="$prefix" --host="$host" --disable-assembler \
			--disable-shared --disable-documentation --disable-openssl --disable-public-key \
			--disable-fat --libdir="$prefix/lib" > "$log" 2>&1 &&
		make_cmd -j "$jobs" libnettle.a >> "$log" 2>&1 &&
		make_cmd install-headers >> "$log" 2>&1 &&
		cp libnettle.a "$prefix/lib/") || {
		echo "$name: nettle failed ($log)" >&2
		exit 2
	}
fi

# Check, for the unit tests built for Windows (they run with CK_FORK=no:
# Windows has no fork).
if [ "$target" = windows ]; then
	cmake_lib check libcheck.a install -DCHECK_ENABLE_TESTS=OFF -DENABLE_MEMORY_LEAKING_TESTS=OFF \
		-DCHECK_ENABLE_TIMEOUT_TESTS=OFF
fi
echo "$name: $prefix/lib: $(cd "$prefix/lib" && ls ./*.a | tr '\n' ' ')"
