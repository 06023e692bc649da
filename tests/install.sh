#!/bin/sh
# make install and make uninstall into a DESTDIR (Makefile _install,
# uninstall): the four tools, their man pages (rendered with `man -l` when
# man is installed), README.md, docs/ and rules/ under share/doc/w3dlint;
# the installed tools run; uninstall removes every file and the doc folder.
# Usage: tests/install.sh MAKE BUILD_DIR
set -u
name=install
. "$(dirname "$0")/lib.sh"
make=$1
build=$2
dest=$tmp/root
prefix=/usr/local

if ! $make --no-print-directory -s BUILD="$build" DESTDIR="$dest" _install >"$tmp/out" 2>"$tmp/err"; then
	bad "make install DESTDIR=$dest failed"
	exit 1
fi
missing=""
for t in w3dlint w3dfix w3ddump w3dasm; do
	[ -x "$dest$prefix/bin/$t" ] || missing="$missing bin/$t"
	[ -s "$dest$prefix/share/man/man1/$t.1" ] || missing="$missing man1/$t.1"
done
for f in README.md docs/configuration.md docs/w3dfix.md docs/textform.md docs/report-json.md \
	docs/report-sarif.md rules/chunk.yaml rules/w3d/reference.yaml; do
	[ -s "$dest$prefix/share/doc/w3dlint/$f" ] || missing="$missing doc/$f"
done
if [ -z "$missing" ]; then ok "make install: tools, man pages and docs"; else bad "make install misses:$missing"; fi

if "$dest$prefix/bin/w3dfix" --version | grep -q '^w3dfix '; then ok "the installed w3dfix runs"; else bad "installed w3dfix --version"; fi
if grep -q "$prefix/share/doc/w3dlint" "$dest$prefix/share/man/man1/w3dlint.1"; then
	ok "the man page points to the installed docs"
else
	bad "w3dlint.1 does not name $prefix/share/doc/w3dlint"
fi

if command -v man >/dev/null 2>&1; then
	for t in w3dlint w3dfix w3ddump w3dasm; do
		if MANWIDTH=80 man -l "$dest$prefix/share/man/man1/$t.1" >"$tmp/out" 2>"$tmp/err" </dev/null &&
			grep -q "EXIT STATUS" "$tmp/out" && grep -q -- "--version" "$tmp/out" && [ ! -s "$tmp/err" ]; then
			ok "man -l $t.1 renders (NAME ... EXIT STATUS, no warning)"
		else
			bad "man -l $t.1"
		fi
	done
else
	echo "$name: skipped: man is not installed, the man pages are not rendered"
fi

if ! $make --no-print-directory -s BUILD="$build" DESTDIR="$dest" uninstall >"$tmp/out" 2>"$tmp/err"; then
	bad "make uninstall failed"
fi
left=$(find "$dest" -type f | sed "s|^$dest||")
if [ -z "$left" ] && [ ! -d "$dest$prefix/share/doc/w3dlint" ]; then
	ok "make uninstall removes every installed file and the doc folder"
else
	bad "make uninstall leaves: $left"
fi
[ -f README.md ] || bad "README.md of the source tree is gone"
exit $fail
