#!/bin/sh
# Lints every file of one format of the real-file corpus
# (../shared/corpus/FORMAT: w3d (default, or $W3DLINT_CORPUS), b3d, p3d, or
# archives: the .big and .pbo files, each linted with its model entries) one
# process per file, then the whole folder in one JSON run.  Fails on a crash,
# a sanitizer report, a missing report or an exit status >= 2; findings
# (status 1) are expected and fine.  Every error finding must be a row of the
# reviewed table (docs/corpus-errors.md for W3D, docs/corpus-errors-FORMAT.md
# for the others); for P3D every ODOL file must be walked to the end of
# every LOD (scripts/p3d-walked.py).  Skips with one line when the corpus
# is absent.
# SWEEP_PER_FILE=0 (make check, the fast tier) skips the one-process-per-
# file pass and keeps the folder run and its checks.
# Usage: tests/sweep.sh W3DLINT [FORMAT]
set -u
w3dlint=$1
format=${2:-w3d}
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "$format" = w3d ]; then
	corpus=${W3DLINT_CORPUS:-$root/../shared/corpus/w3d}
	table=$root/docs/corpus-errors.md
else
	corpus=$root/../shared/corpus/$format
	table=$root/docs/corpus-errors-$format.md
fi
if [ -d "$corpus" ]; then corpus=$(cd "$corpus" && pwd); fi
if [ ! -d "$corpus" ]; then
	echo "sweep: skipped: no corpus at $corpus (see README.md, Corpus)"
	exit 0
fi
# A sanitizer report must not pass for "findings": give it its own status.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86"
export ASAN_OPTIONS UBSAN_OPTIONS

name="sweep $format"
. "$root/tests/lib.sh"
format_files "$format" "$corpus"

sanitizer_report() {
	grep -E -q 'ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error:|SUMMARY: .*Sanitizer' "$1"
}

fail=0
n0=0
n1=0
if [ "${SWEEP_PER_FILE:-1}" = 0 ]; then
	: > "$tmp/each"
else
	cp "$tmp/files" "$tmp/each"
fi
while IFS= read -r f; do
	"$w3dlint" --no-progress "$f" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	why=""
	if [ "$rc" -ge 2 ]; then
		why="exit status $rc"
	elif sanitizer_report "$tmp/err"; then
		why="sanitizer report"
	elif ! tail -n 1 "$tmp/out" | grep -q '^[0-9][0-9]* files*, '; then
		why="no report (summary line missing)"
	fi
	if [ -n "$why" ]; then
		fail=$((fail + 1))
		echo "sweep $format: FAIL $f: $why"
		sed 's/^/    /' "$tmp/err" | head -n 40
	elif [ "$rc" -eq 0 ]; then
		n0=$((n0 + 1))
	else
		n1=$((n1 + 1))
	fi
done < "$tmp/each"

# One run over the whole folder: every file must appear in the JSON report
# (jansson's indented output puts each file's "path" key on its own line).
"$w3dlint" --no-progress --format json -o "$tmp/all.json" "$corpus" 2> "$tmp/err"
rc=$?
reported=$(grep -c '^      "path": ' "$tmp/all.json" 2>/dev/null || true)
if [ "$rc" -ge 2 ] || sanitizer_report "$tmp/err"; then
	fail=$((fail + 1))
	echo "sweep $format: FAIL folder run over $corpus: exit status $rc"
	sed 's/^/    /' "$tmp/err" | head -n 40
elif [ "${reported:-0}" -lt "$total" ] || { [ "$format" != archives ] && [ "${reported:-0}" -ne "$total" ]; }; then
	# an archive is reported with its model entries: more paths than files
	fail=$((fail + 1))
	echo "sweep $format: FAIL folder run: $reported of $total files in the JSON report"
fi

# Every error finding must be in the reviewed table (docs/corpus-errors.md),
# and every row of the table must still be reported.
if [ -s "$tmp/all.json" ] && command -v python3 >/dev/null 2>&1; then
	if ! python3 "$root/scripts/corpus-errors.py" check "$tmp/all.json" "$table"; then
		fail=$((fail + 1))
		echo "sweep $format: FAIL error findings differ from ${table#"$root"/} (review them there)"
	fi
else
	echo "sweep: note: python3 not found, the reviewed error table was not compared"
fi

# P3D: every ODOL file walked to the end of every LOD (issue 10); the
# files that are not are listed with the finding that stops the walk.
if [ "$format" = p3d ] && [ -s "$tmp/all.json" ] && command -v python3 >/dev/null 2>&1; then
	if ! python3 "$root/scripts/p3d-walked.py" "$tmp/all.json"; then
		fail=$((fail + 1))
	fi
fi

[ "${SWEEP_PER_FILE:-1}" = 0 ] && echo "sweep $format: one process per file skipped (SWEEP_PER_FILE=0)"
echo "sweep $format: $total files of $corpus: $n0 clean, $n1 with findings at or above error, $fail failures"
[ "$fail" -eq 0 ]
