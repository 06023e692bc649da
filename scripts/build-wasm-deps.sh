#!/bin/sh
# build-wasm-deps.sh - the library's dependencies built for WebAssembly
# (issue 28): libyaml, PCRE2, jansson, LZO2, Nettle and Qhull, from Debian's
# own source packages (`apt-get source`, the versions the Linux build links),
# compiled with Emscripten (Debian `emscripten`) as static libraries.
#
#   sh scripts/build-wasm-deps.sh PREFIX
#
# PREFIX (e.g. build/wasm/deps) receives include/ and lib/*.a; the sources
# are unpacked under PREFIX/src.  A library already in PREFIX/lib is not
# built again, so the cache survives `make web` runs (`make clean` removes
# it with build/).  Needs deb-src lines for apt-get source:
# scripts/setup-deps.sh web adds them and installs emscripten, cmake and
# the build tools.
set -eu
prefix=${1:?usage: build-wasm-deps.sh PREFIX}
mkdir -p "$prefix/src" "$prefix/lib" "$prefix/include"
prefix=$(cd "$prefix" && pwd)
src=$prefix/src
jobs=$(nproc 2>/dev/null || echo 2)
# Debian's emcc runs its JavaScript optimiser with the machine's node, which
# finds Debian's node-acorn only through NODE_PATH.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

fetch() { # fetch PACKAGE: unpack Debian's source package, print its folder
	pkg=$1
	dir=$(find "$src" -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
	if [ -z "$dir" ]; then
		(cd "$src" && apt-get source -q "$pkg" > "$pkg.log" 2>&1) || {
			echo "build-wasm-deps: apt-get source $pkg failed (deb-src lines? see $src/$pkg.log)" >&2
			exit 2
		}
		dir=$(find "$src" -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
	fi
	echo "$dir"
}

cmake_lib() { # cmake_lib PACKAGE LIBFILE TARGET CMAKE-ARGS... (TARGET: install, or the
	# one CMake target to build, whose LIBFILE and headers are then copied)
	pkg=$1 lib=$2 target=$3
	shift 3
	[ -f "$prefix/lib/$lib" ] && return 0
	echo "build-wasm-deps: $pkg"
	dir=$(fetch "$pkg")
	rm -rf "$dir/wasm-build"
	{ emcmake cmake -S "$dir" -B "$dir/wasm-build" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF "$@" &&
		if [ "$target" = install ]; then
			cmake --build "$dir/wasm-build" -j "$jobs" && cmake --install "$dir/wasm-build"
		else
			cmake --build "$dir/wasm-build" -j "$jobs" --target "$target" &&
				cp "$(find "$dir/wasm-build" -name "$lib" | head -n 1)" "$prefix/lib/"
		fi; } > "$dir/wasm-build.log" 2>&1 || {
		echo "build-wasm-deps: $pkg failed ($dir/wasm-build.log)" >&2
		exit 2
	}
	[ -f "$prefix/lib/$lib" ] || { echo "build-wasm-deps: $pkg gave no $lib ($dir/wasm-build.log)" >&2; exit 2; }
}

cmake_lib libyaml libyaml.a install -DBUILD_TESTING=OFF -DINSTALL_CMAKE_DIR=lib/cmake/yaml
cmake_lib pcre2 libpcre2-8.a install -DPCRE2_BUILD_TESTS=OFF -DPCRE2_BUILD_PCRE2GREP=OFF -DPCRE2_SUPPORT_JIT=OFF
cmake_lib jansson libjansson.a install -DJANSSON_BUILD_DOCS=OFF -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_EXAMPLES=OFF
# LZO2's CMake checks of type sizes fail under Emscripten (its headers then
# assert a negative array size); its sources need no configuration, so they
# are compiled as they are.
if [ ! -f "$prefix/lib/liblzo2.a" ]; then
	echo "build-wasm-deps: lzo2"
	dir=$(fetch lzo2)
	mkdir -p "$dir/wasm-obj" "$prefix/include/lzo"
	for c in "$dir"/src/*.c; do
		emcc -O2 -I"$dir/include" -I"$dir/src" -c "$c" -o "$dir/wasm-obj/$(basename "$c" .c).o" ||
			{ echo "build-wasm-deps: lzo2 failed at $c" >&2; exit 2; }
	done
	emar rcs "$prefix/lib/liblzo2.a" "$dir"/wasm-obj/*.o
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
# assembler for wasm) and only the static library.
if [ ! -f "$prefix/lib/libnettle.a" ]; then
	echo "build-wasm-deps: nettle"
	dir=$(fetch nettle)
	(cd "$dir" && emconfigure ./configure --prefix="$prefix" --host=wasm32 --disable-assembler \
		--disable-shared --disable-documentation --disable-openssl --disable-public-key \
		--disable-fat --libdir="$prefix/lib" > wasm-build.log 2>&1 &&
		emmake make -j "$jobs" libnettle.a >> wasm-build.log 2>&1 &&
		emmake make install-headers >> wasm-build.log 2>&1 &&
		cp libnettle.a "$prefix/lib/") || {
		echo "build-wasm-deps: nettle failed ($dir/wasm-build.log)" >&2
		exit 2
	}
fi
echo "build-wasm-deps: $prefix/lib: $(cd "$prefix/lib" && ls ./*.a | tr '\n' ' ')"
