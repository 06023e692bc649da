#!/bin/sh
# `make demo`: lints the example models assembled from corpus/valid and a
# few corpus/rules cases (Makefile DEMO_CASES, corpus/README.md) and shows
# the report.  Findings are the point of the
# demo, so exit status 1 is success here; 2 or a crash fails the make.
# Usage: scripts/demo.sh W3DLINT DEMO_DIR
set -u
w3dlint=$1
dir=$2
echo "== $w3dlint $dir"
echo
"$w3dlint" --no-progress "$dir"
rc=$?
echo
case $rc in
0) echo "== exit status 0: no errors" ;;
1) echo "== exit status 1: findings at or above 'error', as the demo models intend" ;;
*) echo "== exit status $rc: the demo failed" >&2; exit 1 ;;
esac
echo "== try: $w3dlint --format json $dir    $w3dlint --list-rules    $w3dlint --explain RULE-ID"
