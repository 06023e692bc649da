#!/bin/sh
# dist-windows.sh WINBUILD NATIVEBUILD DEPS OUTDIR - the Windows release zip
# (issue 27; `make dist-windows`, docs/windows.md): the four static .exe of
# WINBUILD, the README and the man pages as text (groff, from NATIVEBUILD's
# pages, which --help writes), docs/windows.md, and the licenses of what the
# .exe files link: the libraries built from Debian's source packages under
# DEPS/src (their debian/copyright) and MinGW-w64's runtime, winpthreads and
# GCC's runtime (Debian's copyright files of those packages), and three.js
# (the HTML report's viewer in w3dlint.exe).  Writes
# OUTDIR/w3dlint-VERSION-windows-x86_64.zip and prints its name and size.
set -eu
win=$1 nat=$2 deps=$3 out=$4
version=$("$nat/w3dlint" --version | sed -n '1s/^w3dlint //p')
name=w3dlint-$version-windows-x86_64
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
stage=$tmp/$name
mkdir -p "$stage/doc" "$stage/licenses"
for t in w3dlint w3dfix w3ddump w3dasm; do
	[ -f "$win/$t.exe" ] || { echo "dist-windows: no $win/$t.exe (make windows)" >&2; exit 2; }
	# without the debugging sections (build-windows/ keeps them)
	x86_64-w64-mingw32-strip -o "$stage/$t.exe" "$win/$t.exe"
	# the man page as plain UTF-8 text, no overstrike
	groff -man -Tutf8 -P-c -P-b -P-u "$nat/man/$t.1" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' > "$stage/doc/$t.txt"
	[ -s "$stage/doc/$t.txt" ] || { echo "dist-windows: no text of $nat/man/$t.1" >&2; exit 2; }
done
cp README.md "$stage/README.md"
cp docs/windows.md "$stage/doc/windows.md"
for pkg in libyaml pcre2 jansson lzo2 nettle qhull; do
	dir=$(find "$deps/src" -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
	[ -n "$dir" ] && [ -f "$dir/debian/copyright" ] || { echo "dist-windows: no debian/copyright of $pkg under $deps/src" >&2; exit 2; }
	cp "$dir/debian/copyright" "$stage/licenses/$pkg.txt"
done
for pkg in mingw-w64-common gcc-mingw-w64-x86-64-posix-runtime; do
	f=/usr/share/doc/$pkg/copyright
	[ -f "$f" ] || { echo "dist-windows: no $f" >&2; exit 2; }
	cp "$f" "$stage/licenses/$pkg.txt"
done
# three.js, which the HTML report's viewer in w3dlint.exe bundles (make
# html-viewer, docs/web.md): a release without the viewer is refused
three=build-wasm/web-npm/node_modules/three/LICENSE
if ! grep -q "Three.js Authors" "$stage/w3dlint.exe" || [ ! -f "$three" ]; then
	echo "dist-windows: $win/w3dlint.exe holds no HTML report viewer, or $three is missing (make html-viewer)" >&2
	exit 2
fi
cp "$three" "$stage/licenses/three.js.txt"
mkdir -p "$out"
rm -f "$out/$name.zip"
(cd "$tmp" && zip -q -r -X "$name.zip" "$name")
mv "$tmp/$name.zip" "$out/"
echo "dist-windows: $out/$name.zip, $(wc -c < "$out/$name.zip") bytes"
