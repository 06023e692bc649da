#!/bin/sh
# Makes sure the build dependencies are present; installs the missing Debian
# packages when they are not.  Called by `make` before every build.
#
#   sh scripts/setup-deps.sh         libyaml, PCRE2, jansson, Check, LZO 2, pkg-config,
#                                    a C compiler, make; for the tests python3,
#                                    python3-jsonschema, git and pre-commit, and
#                                    for make oracle g++, Irrlicht 1.8
#                                    (libirrlicht-dev) and Assimp (libassimp-dev)
#   sh scripts/setup-deps.sh asan    also a compiler that links ASan + UBSan
#                                    (clang when present, else gcc; installs
#                                    clang when neither works)
#   sh scripts/setup-deps.sh fuzz    also clang with libFuzzer, ASan and UBSan
#                                    (make fuzz: clang and its runtime
#                                    libraries, libclang-rt-dev on Debian 12)
#   sh scripts/setup-deps.sh coverage  also gcc and gcov (make coverage)
#   sh scripts/setup-deps.sh bench  also assimp-utils (make bench compares
#                                    w3dlint with `assimp info` on B3D files)
#   sh scripts/setup-deps.sh web    also Emscripten, CMake, Node.js (with
#                                    Debian's node-acorn, which emcc's
#                                    optimiser needs) and dpkg-dev, and the
#                                    deb-src lines that `apt-get source` needs,
#                                    npm (the page's three.js and esbuild) and
#                                    chromium (make test-web-browser)
#                                    (make web: scripts/build-wasm-deps.sh
#                                    builds the libraries for WebAssembly from
#                                    Debian's source packages)
#   sh scripts/setup-deps.sh node   also Node.js and npm (make html-viewer:
#                                    the HTML report's viewer)
#   sh scripts/setup-deps.sh browser  also chromium (make test-html)
#   sh scripts/setup-deps.sh windows  also MinGW-w64 (gcc and g++ for
#                                    x86_64-w64-mingw32), Wine, zip, CMake and
#                                    dpkg-dev with the deb-src lines
#                                    (scripts/build-deps.sh windows builds the
#                                    libraries for Windows; issue 27)
#
# Installs with apt-get when run as root, with `sudo -n` when that works
# without a password; otherwise prints the exact command and exits 1.
set -eu
mode=${1:-build}
need=""
add() { case " $need " in *" $1 "*) ;; *) need="$need $1" ;; esac; }

command -v pkg-config >/dev/null 2>&1 || add pkg-config
command -v cc >/dev/null 2>&1 || add gcc
command -v make >/dev/null 2>&1 || add make
# python3: tests/sweep.sh compares the corpus errors with the reviewed table
command -v python3 >/dev/null 2>&1 || add python3
# python3-jsonschema: tests/sarif_validate.sh checks the SARIF report against
# the OASIS schema; pre-commit: tests/precommit.sh runs the hooks
if ! { python3 -c 'import jsonschema' || /usr/bin/python3 -c 'import jsonschema'; } >/dev/null 2>&1; then
	add python3-jsonschema
fi
command -v pre-commit >/dev/null 2>&1 || add pre-commit
# git: tests/precommit.sh commits into throw-away repositories
command -v git >/dev/null 2>&1 || add git
# make oracle (tests/oracle/): the engines' own B3D loaders, Irrlicht 1.8 (the
# one Luanti's is forked from; C++, hence g++) and Assimp
command -v g++ >/dev/null 2>&1 || add g++
[ -f /usr/include/irrlicht/irrlicht.h ] || add libirrlicht-dev
if command -v pkg-config >/dev/null 2>&1; then
	pkg-config --exists yaml-0.1 || add libyaml-dev
	pkg-config --exists libpcre2-8 || add libpcre2-dev
	pkg-config --exists jansson || add libjansson-dev
	pkg-config --exists check || add check
	# liblzo2: LZO1X blocks of binarised (ODOL v44+) P3D models
	pkg-config --exists lzo2 || add liblzo2-dev
	# nettle: the SHA-1 trailer of PBO archives (core/archive/pbo.c)
	pkg-config --exists nettle || add nettle-dev
	# libqhull_r: convex hulls for the MLOD fixer component-convex-hull
	pkg-config --exists qhull_r || add libqhull-dev
	pkg-config --exists assimp || add libassimp-dev
else
	add libyaml-dev; add libpcre2-dev; add libjansson-dev; add check; add liblzo2-dev; add nettle-dev
	add libqhull-dev; add libassimp-dev
fi

# True when compiler $1 can build and link a program with the sanitizers
# $2 (default address,undefined; with fuzzer, a libFuzzer target).
sanitizer_ok() {
	command -v "$1" >/dev/null 2>&1 || return 1
	dir=$(mktemp -d)
	case ${2:-} in
	*fuzzer*) printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$dir/t.c" ;;
	*) printf 'int main(void) { return 0; }\n' > "$dir/t.c" ;;
	esac
	if "$1" -fsanitize="${2:-address,undefined}" -o "$dir/t" "$dir/t.c" >/dev/null 2>&1; then
		rm -rf "$dir"
		return 0
	fi
	rm -rf "$dir"
	return 1
}
if [ "$mode" = asan ]; then
	sanitizer_ok clang || sanitizer_ok gcc || add clang
fi
if [ "$mode" = fuzz ] && ! sanitizer_ok clang fuzzer,address,undefined; then
	add clang
	# Debian 12 ships libFuzzer in libclang-rt-N-dev (libclang-rt-dev
	# depends on the default one); older releases in libclang-common-N-dev.
	if apt-cache show libclang-rt-dev >/dev/null 2>&1; then add libclang-rt-dev; fi
fi
if [ "$mode" = coverage ]; then
	{ command -v gcc && command -v gcov; } >/dev/null 2>&1 || add gcc
fi

if [ "$mode" = bench ]; then
	command -v assimp >/dev/null 2>&1 || add assimp-utils
fi

# as_root CMD...: runs CMD as root (directly or by `sudo -n`), else fails.
as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo "$@"
	else
		return 1
	fi
}
if [ "$mode" = windows ]; then
	command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || add gcc-mingw-w64-x86-64
	command -v x86_64-w64-mingw32-g++ >/dev/null 2>&1 || add g++-mingw-w64-x86-64
	# wine: the command the tests run (package wine), with the 64-bit
	# loader (wine64); zip: make dist-windows
	command -v wine >/dev/null 2>&1 || { add wine; add wine64; }
	command -v zip >/dev/null 2>&1 || add zip
fi
if [ "$mode" = node ] || [ "$mode" = browser ]; then
	# make html-viewer (the HTML report's viewer: three.js and esbuild from
	# npm, web/package-lock.json); browser: make test-html (chromium)
	command -v node >/dev/null 2>&1 || add nodejs
	command -v npm >/dev/null 2>&1 || add npm
	[ "$mode" = node ] || command -v chromium >/dev/null 2>&1 || add chromium
fi
if [ "$mode" = web ] || [ "$mode" = windows ]; then
	[ "$mode" = windows ] || command -v emcc >/dev/null 2>&1 || add emscripten
	command -v cmake >/dev/null 2>&1 || add cmake
	[ "$mode" = windows ] || command -v node >/dev/null 2>&1 || add nodejs
	[ "$mode" = windows ] || [ -f /usr/share/nodejs/acorn/package.json ] || add node-acorn
	# npm: the page's three.js and esbuild (web/package-lock.json); chromium:
	# the browser make test-web-browser drives with puppeteer-core
	[ "$mode" = windows ] || command -v npm >/dev/null 2>&1 || add npm
	[ "$mode" = windows ] || command -v chromium >/dev/null 2>&1 || add chromium
	command -v dpkg-source >/dev/null 2>&1 || add dpkg-dev
	# apt-get source needs deb-src lines; Debian's images ship only deb.
	if ! grep -rqs '^[^#]*deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-bookworm}")
		echo "setup: adding deb-src lines for $codename (/etc/apt/sources.list.d/w3dlint-deb-src.sources)"
		printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
			"$codename" "$codename" > /tmp/w3dlint-deb-src.sources
		if ! as_root cp /tmp/w3dlint-deb-src.sources /etc/apt/sources.list.d/w3dlint-deb-src.sources ||
			! as_root apt-get update -qq; then
			echo "setup: run as root: cp /tmp/w3dlint-deb-src.sources /etc/apt/sources.list.d/ && apt-get update"
			exit 1
		fi
	fi
fi

[ -n "$need" ] || exit 0
echo "setup: missing Debian packages:$need"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "setup: apt-get not found; install the equivalent of these packages, then make again:"
	echo "   $need"
	exit 1
fi
if [ "$(id -u)" = 0 ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
else
	echo "setup: run this, then make again:"
	echo "    sudo apt-get update && sudo apt-get install -y$need"
	exit 1
fi
