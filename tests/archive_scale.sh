#!/bin/sh
# Archives at scale (issue 29): archives made here by build/tool_mkarchive -n.
#  - a valid BIG of 16,385 one-byte .ini entries beside a model: w3dlint
#    lints both (status 0 or 1, never 2 "out of memory collecting files"),
#    also with --memory-cap 100G; w3ddump lists every entry, none
#    "(unreadable)";
#  - an archive that cannot be held (--memory-cap 1M) does not stop the
#    run: its out-of-memory finding, then the model beside it;
#  - BIG and PBO of 100,000 one-byte entries and of 100,000 model entries:
#    every entry linted (the summary counts them), peak RSS under 400 MB
#    (GNU time, when present) whatever the count (the report is streamed
#    and the entries are read one by one).
# Usage: tests/archive_scale.sh BUILD_DIR
set -u
name=archive_scale
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
mk="$build/tool_mkarchive"
cd "$tmp" || exit 2
"$build/w3dasm" "$top/corpus/rules/trailing-bytes/fire.w3d.txt" -o m.w3d || exit 2
printf 'x' > one.ini
: > empty.yaml
lint() { "$build/w3dlint" --no-progress --no-xref -c empty.yaml "$@"; }

"$mk" bigf ini.big -n 16385 'Data\INI\e.ini=one.ini' || exit 2
for cap in "" "--memory-cap 100G"; do
	# shellcheck disable=SC2086
	lint $cap ini.big m.w3d > out 2> err
	rc=$?
	if [ $rc -ne 2 ] && has "m.w3d:0x13C: warning" && has "2 files," && [ ! -s err ]; then
		ok "16,385-entry BIG beside a model${cap:+ ($cap)}: both linted, status $rc"
	else
		bad "16,385-entry BIG${cap:+ ($cap)}: status $rc"
	fi
done
"$build/w3ddump" ini.big > out 2> err
rows=$(grep -c '^  0x' out)
if [ "$rows" -eq 16385 ] && ! has "(unreadable)"; then
	ok "w3ddump lists the 16,385 entries, none unreadable"
else
	bad "w3ddump lists $rows entries ($(grep -c unreadable out) unreadable)"
fi

"$mk" bigf big.big -n 100000 'Data\INI\e.ini=one.ini' || exit 2
lint --memory-cap 1M big.big m.w3d > out 2> err
rc=$?
if [ $rc -eq 1 ] && has "big.big:0x0: error: reached the memory cap" && has "m.w3d:0x13C: warning"; then
	ok "an archive over --memory-cap 1M: its out-of-memory finding, then the model beside it"
else
	bad "an archive over the memory cap stops the run (status $rc)"
fi

timed() {
	if /usr/bin/time -f '%e %M' -o time.txt true 2> /dev/null; then
		/usr/bin/time -f '%e %M' -o time.txt "$@"
	else
		"$@"
		echo "- -" > time.txt
	fi
}
for kind in bigf pbo; do
	for what in "ini:Data\\INI\\e.ini=one.ini:1" "w3d:Art\\W3D\\m.w3d=m.w3d:100001"; do
		tag=${what%%:*}
		spec=${what#*:}
		warn=${spec##*:}
		spec=${spec%:*}
		"$mk" "$kind" "a.$kind" -n 100000 "$spec" || exit 2
		timed "$build/w3dlint" --no-progress --no-xref -c empty.yaml -q "a.$kind" m.w3d > out 2> err
		rc=$?
		read -r secs kb < time.txt
		files=$(sed -n 's/^\([0-9]*\) files.*/\1/p' out)
		warnings=$(sed -n 's/.* \([0-9]*\) warnings*,.*/\1/p' out)
		want=$([ "$tag" = w3d ] && echo 100002 || echo 2)
		if [ $rc -ne 2 ] && [ "$files" = "$want" ] && [ "$warnings" = "$warn" ] && { [ "$kb" = - ] || [ "$kb" -lt 409600 ]; }; then
			ok "$kind of 100,000 .$tag entries: $files files, $warnings warnings, ${secs}s, peak RSS ${kb} KB"
		else
			bad "$kind of 100,000 .$tag entries: status $rc, $files files, $warnings warnings, peak RSS $kb KB"
		fi
	done
done
exit $fail
