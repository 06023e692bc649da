#!/bin/sh
# docs/sources.md's evidence table (issue 32) is the catalogue's: every rule of
# the default set, its severity per target and the engine or reader source
# lines its explanation cites (else its sources: entries).  Regenerated from
# `w3dlint --list-rules` and `--explain` of every rule by
# scripts/gen-evidence.py and compared with the file; a rule of the default
# set with no evidence fails.  Two checks that the test can fail come first:
# a rule without any citation must be refused, and a table with one changed
# row must be called stale.
# Usage: tests/evidence.sh W3DLINT   (`make evidence` rewrites the table)
set -u
w3dlint=$1
name=evidence
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
gen="$root/scripts/gen-evidence.py"
doc="$root/docs/sources.md"
if ! command -v python3 >/dev/null 2>&1; then
	echo "$name: skipped: python3 not found"
	exit 0
fi
"$w3dlint" --list-rules | while IFS= read -r line; do
	printf '%s\n' "$line"
	"$w3dlint" --explain "${line%% *}"
	echo "@@end"
done > "$tmp/dump.txt"

# Can fail (1): a default-set rule whose text cites nothing and has no sources.
cp "$tmp/dump.txt" "$tmp/bad.txt"
cat >> "$tmp/bad.txt" <<'DUMP'
zz-evidence-probe                      warning  chunk      none    a probe rule
zz-evidence-probe
  category:  chunk
  severity:  warning (default)
  fixable:   none
  summary:   a probe rule
  catalogue: rules/chunk.yaml
  format:    w3d
  targets:   renegade warning, generals warning, bfme warning, w3dhub warning

  The game is said to fail on this, with nothing cited.

parameters: none
@@end
DUMP
if python3 "$gen" "$tmp/bad.txt" "$root" --print > /dev/null 2> "$tmp/bad.err" || ! grep -q "zz-evidence-probe" "$tmp/bad.err"; then
	bad "a rule with no evidence is not refused: $(cat "$tmp/bad.err")"
else
	ok "a default-set rule that cites no source is refused"
fi

# Can fail (2): a table with one severity changed is stale.
sed '/^| `chunk-truncated` /s/| error (all 12) |/| info (all 12) |/' "$doc" > "$tmp/stale.md"
if cmp -s "$doc" "$tmp/stale.md"; then
	bad "no chunk-truncated row to change in $doc"
elif python3 "$gen" "$tmp/dump.txt" "$root" --check "$tmp/stale.md" 2> "$tmp/stale.err"; then
	bad "a changed row is not called stale"
else
	ok "a table with a changed row is called stale"
fi

if python3 "$gen" "$tmp/dump.txt" "$root" --check "$doc" 2> "$tmp/check.err"; then
	n=$(python3 "$gen" "$tmp/dump.txt" "$root" --print | grep -c '^| `')
	ok "docs/sources.md: the evidence table is the catalogue's; each of its $n default-set rules has evidence"
else
	bad "$(cat "$tmp/check.err")"
fi
[ "$fail" -eq 0 ] && echo "$name: all passed"
exit "$fail"
