# tests/lib.sh - shared by the end-to-end scripts (cli_w3ddump.sh,
# cli_w3dfix.sh, xref_cli.sh, roundtrip_text.sh, sweep.sh).  Source it after
# setting name (the prefix of every line printed):
#
#   name=cli_w3dfix
#   . "$(dirname "$0")/lib.sh"
#
# It makes $tmp (a fresh folder, removed on exit), sets fail=0 and defines
# abspath, ok, bad, has, errhas, run (runs "$tool", which the script sets),
# assemble and w3d_files.

abspath() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
ok() { echo "$name: ok: $1"; }
# bad WHY: a failure, with the head of $tmp/out and $tmp/err when present.
bad() {
	echo "$name: FAIL: $1"
	[ -f "$tmp/out" ] && sed 's/^/    /' "$tmp/out" | head -n 30
	[ -f "$tmp/err" ] && sed 's/^/    err: /' "$tmp/err" | head -n 10
	fail=1
}
has() { grep -F -q -- "$1" "$tmp/out"; }
errhas() { grep -F -q -- "$1" "$tmp/err"; }
# run ARGS...: "$tool" ARGS..., output in $tmp/out, stderr in $tmp/err,
# status in $rc
run() {
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
# assemble MODEL OUT: "$w3dasm" (which the script sets) assembles the text
# model corpus/cli/MODEL.txt of the project (e.g. xref/skel.w3d) into OUT,
# making OUT's folder; exits 2 when it cannot.
cli_models=$(cd "$(dirname "$0")/../corpus/cli" && pwd)
assemble() {
	mkdir -p "$(dirname "$2")" && "$w3dasm" "$cli_models/$1.txt" -o "$2" || exit 2
}
# w3d_files CORPUS: the W3D files under CORPUS (any letter case of .w3d,
# .wlt, .wht, .wha, .wtm), sorted, one a line, into $tmp/files and their
# count into $total; exits 0 with a "skipped" line when there is none.
# format_files FORMAT CORPUS: the same for the files of FORMAT (w3d, b3d, p3d;
# archives: the .big and .pbo files).
format_files() {
	case $1 in
	w3d) w3d_files "$2"; return ;;
	archives) find "$2" -type f \( -iname '*.big' -o -iname '*.pbo' \) | LC_ALL=C sort > "$tmp/files" ;;
	*) find "$2" -type f -iname "*.$1" | LC_ALL=C sort > "$tmp/files" ;;
	esac
	total=$(wc -l < "$tmp/files")
	if [ "$total" -eq 0 ]; then
		echo "$name: skipped: no $1 files under $2"
		exit 0
	fi
}
w3d_files() {
	find "$1" -type f \( -iname '*.w3d' -o -iname '*.wlt' -o -iname '*.wht' -o -iname '*.wha' -o -iname '*.wtm' \) \
		| LC_ALL=C sort > "$tmp/files"
	total=$(wc -l < "$tmp/files")
	if [ "$total" -eq 0 ]; then
		echo "$name: skipped: no W3D files under $1"
		exit 0
	fi
}
