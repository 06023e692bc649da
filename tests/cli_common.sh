#!/bin/sh
# What the four tools share (cli/opts.h): one version ("TOOL X.Y.Z",
# the same X.Y.Z everywhere), one help layout (Usage, Options, Examples,
# Exit status, in that order), a man page (--man) with the same options as
# --help, and every short option letter meaning the same long option in
# every tool that has it.
# Usage: tests/cli_common.sh BUILD_DIR
set -u
name=cli_common
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
tools="w3dlint w3dfix w3ddump w3dasm"

versions=""
for t in $tools; do
	"$build/$t" --version >"$tmp/out" 2>"$tmp/err"
	rc=$?
	v=$(sed -n "s/^$t \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\$/\1/p" "$tmp/out")
	if [ $rc -eq 0 ] && [ -n "$v" ] && [ "$(wc -l < "$tmp/out")" -eq 1 ]; then
		ok "$t --version: $t $v"
	else
		bad "$t --version (status $rc): not one line '$t X.Y.Z'"
	fi
	versions="$versions $v"
done
n=$(printf '%s\n' $versions | sort -u | wc -l)
if [ "$n" -eq 1 ]; then ok "one version for all tools"; else bad "versions differ:$versions"; fi

: > "$tmp/letters"
for t in $tools; do
	"$build/$t" --help >"$tmp/out" 2>"$tmp/err"
	rc=$?
	order=$(grep -n -E '^(Usage: |Options:$|Examples:$|Exit status:$)' "$tmp/out" | sed 's/:.*//' | tr '\n' ' ')
	heads=$(grep -E '^(Usage: |Options:$|Examples:$|Exit status:$)' "$tmp/out" | sed 's/^Usage: .*/Usage/' | tr '\n' ' ')
	if [ $rc -eq 0 ] && [ "$heads" = "Usage Options: Examples: Exit status: " ] && head -n 1 "$tmp/out" | grep -q "^Usage: $t "; then
		ok "$t --help: Usage, Options, Examples, Exit status (lines $order)"
	else
		bad "$t --help layout (status $rc): '$heads'"
	fi
	# "  -x, --long" lines: letter and long name.
	sed -n 's/^  -\([A-Za-z]\), --\([a-z-]*\).*/\1 \2/p' "$tmp/out" | sed "s/\$/ $t/" >> "$tmp/letters"
	sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}--\([a-z-]*\).*/\2/p' "$tmp/out" | sort -u > "$tmp/help_opts"
	"$build/$t" --man >"$tmp/man" 2>"$tmp/err"
	sed -n 's/.*\\fB\\-\\-\([a-z\\-]*\)\\fR.*/\1/p' "$tmp/man" | sed 's/\\-/-/g' | sort -u > "$tmp/man_opts"
	if grep -q "^\.TH " "$tmp/man" && grep -q "^\.SH \"EXIT STATUS\"" "$tmp/man" && cmp -s "$tmp/help_opts" "$tmp/man_opts"; then
		ok "$t --man: a man page with the options of --help"
	else
		bad "$t --man differs from --help: $(diff "$tmp/help_opts" "$tmp/man_opts" | tr '\n' ' ')"
	fi
done
# A letter with two long names across the tools.
clash=$(sort -u -k1,2 "$tmp/letters" | awk '{print $1}' | uniq -d | tr '\n' ' ')
if [ -z "$clash" ]; then
	ok "every short option means one long option in every tool ($(awk '{print $1}' "$tmp/letters" | sort -u | tr -d '\n'))"
else
	for l in $clash; do grep "^$l " "$tmp/letters" | sed 's/^/    /'; done
	bad "short options with different meanings: $clash"
fi
exit $fail
