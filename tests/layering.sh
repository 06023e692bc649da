#!/bin/sh
# The layering of ARCHITECTURE.md "Layers and folders": the engines (the
# .c and .h files at the roots of core/, lint/ (and its engine's groups
# config/, report/, run/), fix/, textform/ and cli/)
# name no format and include no format folder; only the registries do
# (core/registry.c, lint/registry.c, fix/registry.c).  And dependencies go
# one way: core/ includes nothing of lint/, fix/, textform/ or cli/; lint/
# nothing of fix/, textform/ or cli/; fix/ nothing of textform/ or cli/.
# Usage: tests/layering.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
fail=0
registries="core/registry.c lint/registry.c fix/registry.c textform/registry.c"
for f in core/*.c core/*.h lint/*.c lint/*.h lint/config/*.[ch] lint/report/*.[ch] lint/run/*.[ch] fix/*.c fix/*.h textform/*.c textform/*.h cli/*.c cli/*.h; do
	[ -f "$f" ] || continue
	case " $registries " in *" $f "*) continue ;; esac
	# code only: comments (which may cite a format's files) are left out
	hits=$(awk '{ line = $0; gsub(/\/\*.*\*\//, "", line); sub(/\/\*.*/, "", line);
		if (line ~ /^[ \t]*\*/) next;
		if (line ~ /(w3d|b3d|p3d|W3D|B3D|P3D)_|#include "([.\/]*|(core|lint|fix|textform)\/)(w3d|b3d|p3d)\//) print FILENAME ":" NR ": " $0 }' "$f" | head -n 3)
	if [ -n "$hits" ]; then
		echo "layering: FAIL $f names a format:"
		echo "$hits" | sed 's/^/    /'
		fail=1
	fi
done
# The engines of core/, lint/ and fix/ hold no format's name in a string
# either ("w3d", "B3D mesh", "P3D_..."): that makes an engine
# format-specific just as an identifier does.  A word that merely starts
# with one (w3dlint, W3DLINT_...) is the tool's name, not a format.
for f in core/*.c core/*.h lint/*.c lint/*.h lint/config/*.[ch] lint/report/*.[ch] lint/run/*.[ch] fix/*.c fix/*.h; do
	[ -f "$f" ] || continue
	case " $registries " in *" $f "*) continue ;; esac
	hits=$(awk '{ line = $0; gsub(/\/\*.*\*\//, "", line); sub(/\/\*.*/, "", line);
		if (line ~ /^[ \t]*\*/) next;
		rest = line
		while (match(rest, /"([^"\\]|\\.)*"/)) {
			lit = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
			if (lit ~ /(^|[^A-Za-z0-9_])[wbpWBP]3[dD]([^A-Za-z0-9]|$)/) { print FILENAME ":" NR ": " $0; break }
		} }' "$f" | head -n 3)
	if [ -n "$hits" ]; then
		echo "layering: FAIL $f names a format in a string:"
		echo "$hits" | sed 's/^/    /'
		fail=1
	fi
done
# layer: the folders whose files it must not include
check_up() {
	layer=$1
	shift
	for f in $(find "$layer" -name '*.[ch]'); do
		for up in "$@"; do
			if grep -q "#include \"\(\.\./\)*$up/" "$f"; then
				echo "layering: FAIL $f ($layer) includes $up/"
				fail=1
			fi
		done
	done
}
check_up core lint fix textform cli
check_up lint fix textform cli
check_up fix textform cli
if [ "$fail" -eq 0 ]; then
	echo "layering: ok: the engines name no format; core <- lint <- fix <- textform <- cli"
fi
exit "$fail"
