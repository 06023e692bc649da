#!/bin/sh
# Runs the libFuzzer targets one after the other for SECONDS each (make
# fuzz; .ci/run), under the sanitizers they were built with, from the seeds
# and tests/fuzz/regressions/, with the generated chunk-id dictionaries
# and the P3D one (tests/fuzz/p3d.dict).
# Each target keeps what it finds in BUILD/fuzz/corpus-NAME (reused by the
# next run) and writes a crashing input to BUILD/fuzz/artifacts/.  Prints
# the seconds and executions per target and in all; exits 1 when a target
# crashed (save the input under tests/fuzz/regressions/ so make test
# replays it), 0 otherwise.  Verification problems listed in
# tests/fuzz/known-open.txt are tolerated (and listed).
# Usage: tests/fuzz/run.sh BUILD SECONDS TARGET...
set -u
build=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$build/fuzz/artifacts"
W3DLINT_FUZZ_KNOWN_OPEN=$root/tests/fuzz/known-open.txt
export W3DLINT_FUZZ_KNOWN_OPEN
grep -v -e '^#' -e '^[[:space:]]*$' "$W3DLINT_FUZZ_KNOWN_OPEN" 2>/dev/null |
	sed 's/^/fuzz: known open problem tolerated (tests\/fuzz\/known-open.txt): /'
total_runs=0 total_time=0 failed=""
for t in "$@"; do
	bin=$build/fuzz/fuzz_$t
	case $t in
	textform) gen=$build/fuzz/textform.dict seeds="$build/fuzz/seeds/bin $build/fuzz/seeds/text" ;;
	*) gen=$build/fuzz/w3d.dict seeds=$build/fuzz/seeds/bin ;;
	esac
	# libFuzzer takes one dictionary: the generated one plus the P3D words
	# (tests/fuzz/p3d.dict, by hand: the P3D reader has no chunk ids).
	dict=$build/fuzz/$t-all.dict
	cat "$gen" "$root/tests/fuzz/p3d.dict" > "$dict"
	mkdir -p "$build/fuzz/corpus-$t"
	log=$build/fuzz/fuzz_$t.log
	echo "fuzz: $t for $seconds s (log: $log)"
	start=$(date +%s)
	# -timeout: a hang is a bug too (linting is linear in the file size);
	# -max_len: inputs up to 64 KiB, so several objects fit.
	# FUZZ_RUNS (CI): a fixed number of executions with a fixed seed, so the
	# run is the same on every machine and cannot fail by chance; the time
	# limit still bounds it.
	"$bin" -dict="$dict" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS -seed=1} \
		-timeout=30 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$build/fuzz/artifacts/$t-" \
		"$build/fuzz/corpus-$t" $seeds "$root/tests/fuzz/regressions" > "$log" 2>&1
	rc=$?
	end=$(date +%s)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	runs=${runs:-0}
	total_runs=$((total_runs + runs))
	total_time=$((total_time + end - start))
	size=$(ls "$build/fuzz/corpus-$t" | wc -l)
	if [ "$rc" -ne 0 ]; then
		failed="$failed $t"
		echo "fuzz: $t: CRASH after $runs executions (exit status $rc):"
		grep -E '^fuzz: |^    [^#]|ERROR: |SUMMARY: |runtime error|^ *#[0-9]+ .* in [a-z_]*[a-z0-9_]* /|Test unit written' "$log" |
			grep -v -e 'in fuzzer::' -e ' in main ' -e '__libc_' -e ' in _start ' -e '/nptl/' -e '/stdlib/' -e '/signal/' |
			head -n 60 | sed 's/^/    /'
	else
		echo "fuzz: $t: $((end - start)) s, $runs executions, corpus $size inputs, no crash"
	fi
done
echo "fuzz: total $total_time s, $total_runs executions, crashed:${failed:- none}"
[ -z "$failed" ]
