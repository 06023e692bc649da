#!/bin/sh
# Writes that respect what is there (issue 17, core/safe_write.h): every
# tool that writes a file (w3dfix -o / --in-place / --backup, w3dasm -o,
# w3ddump -o, w3dlint -o) goes through one atomic path.  Each case is a
# defect of the issue's "Writes that do not respect what is there":
#   - a device or FIFO target is refused (never replaced), a symbolic link
#     target is followed and stays a link;
#   - --in-place keeps owner, group, mode, xattrs and ACLs; leaves a file with
#     other hard links alone unless --break-links; refuses a 0444 file unless
#     --force (which keeps 0444);
#   - a write past the file size limit (SIGXFSZ ignored: EFBIG) or to a full
#     standard output is a message and status 2, the target keeps its bytes;
#   - SIGTERM / SIGHUP / SIGKILL during a write leave no temporary file and
#     the target untouched;
#   - two runs on one file serialise (flock), the second edits what the
#     first wrote;
#   - w3dfix -o DIR a/m.w3d b/m.w3d is refused before anything is written.
# Every run is bounded by `timeout`: a tool that blocks on a FIFO fails.
# Usage: tests/cli_writes.sh BUILD_DIR
set -u
name=cli_writes
. "$(dirname "$0")/lib.sh"
build=$(abspath "$1")
top=$(pwd)
fix="timeout 60 $build/w3dfix"
asm="timeout 60 $build/w3dasm"
dump="timeout 60 $build/w3ddump"
lint="timeout 60 $build/w3dlint"
mk() { "$build/w3dasm" "$top/corpus/$1.w3d.txt" -o "$2" || exit 2; }
# st RC WHAT CONDITION...: ok when the status is RC and the condition holds
st() {
	want=$1
	what=$2
	shift 2
	if [ "$rc" -eq "$want" ] && "$@"; then ok "$what"; else bad "$what (status $rc, want $want)"; fi
}
# runq CMD...: CMD's stdout in $tmp/out, stderr in $tmp/err, status in $rc
runq() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
mode_of() { stat -c %a "$1"; }
# limited CMD: CMD (a string) under a file size limit of 0 blocks; stderr
# and the status go through a pipe (a pipe has no size limit)
limited() {
	sh -c "ulimit -f 0; $1 2>&1 >/dev/null; echo \"status=\$?\"" | cat >"$tmp/err"
	rc=$(sed -n 's/^status=//p' "$tmp/err")
}

mk rules/trailing-bytes/fire "$tmp/orig.w3d" # safe fix: trailing-bytes
mk valid/mesh "$tmp/clean.w3d"
"$build/w3ddump" --text "$tmp/clean.w3d" >"$tmp/clean.txt" || exit 2
w="$tmp/w"
fresh() { rm -rf "$w" && mkdir -p "$w" && cp "$tmp/orig.w3d" "$w/m.w3d"; }

# --- targets that are not regular files: refused, left as they are
fresh
mkfifo "$w/fifo" || exit 2
for t in fix asm dump lint; do
	case $t in
	fix) runq $fix -o "$w/fifo" "$w/m.w3d" ;;
	asm) runq $asm "$tmp/clean.txt" -o "$w/fifo" ;;
	dump) runq $dump -o "$w/fifo" "$w/m.w3d" ;;
	lint) runq $lint -o "$w/fifo" "$w/m.w3d" ;;
	esac
	st 2 "$t -o FIFO: refused, the FIFO stays" errhas "$w/fifo: not a regular file (a FIFO); not written" test -p "$w/fifo"
done
if [ "$(id -u)" -eq 0 ] && mknod "$w/null" c 1 3 2>/dev/null; then
	runq $fix -o "$w/null" "$w/m.w3d"
	st 2 "w3dfix -o DEVICE: refused, the device node stays" errhas "not a regular file (a character device); not written" test -c "$w/null"
else
	echo "$name: skipped: cannot make a device node (not root), device target not checked"
fi

# --- a symbolic link target is followed and stays a link
fresh
cp "$tmp/clean.w3d" "$w/real.w3d"
ln -s real.w3d "$w/link.w3d"
runq $fix -o "$w/link.w3d" "$w/m.w3d"
st 0 "w3dfix -o LINK writes the file it points to, the link stays" test -L "$w/link.w3d" -a "$(wc -c <"$w/real.w3d")" -eq 316
ln -s real.w3d "$w/alink.w3d"
runq $asm "$tmp/clean.txt" -o "$w/alink.w3d"
st 0 "w3dasm -o LINK: the link stays" test -L "$w/alink.w3d"
ln -s nowhere.w3d "$w/dangling.w3d"
runq $asm "$tmp/clean.txt" -o "$w/dangling.w3d"
st 2 "w3dasm -o to a dangling link: refused" errhas "dangling.w3d: a dangling symbolic link; not written"

# --- --in-place keeps owner, group, mode, xattrs and ACLs
fresh
chmod 0640 "$w/m.w3d"
owner=
if [ "$(id -u)" -eq 0 ] && chown 65534:65534 "$w/m.w3d" 2>/dev/null; then owner=65534:65534; fi
# user.* attribute and an ACL (system.posix_acl_access: version 2, then
# tag/perm/id entries: user::rw- user:65534:r-- group::r-- mask::r-- other::---)
xattrs=$(python3 - "$w/m.w3d" <<'EOF'
import os, struct, sys
p = sys.argv[1]
try:
    os.setxattr(p, "user.w3dlint.test", b"kept")
except OSError:
    sys.exit(0)
got = "user"
acl = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", t, perm, i) for t, perm, i in
      [(1, 6, 0xFFFFFFFF), (2, 4, 65534), (4, 4, 0xFFFFFFFF), (0x10, 4, 0xFFFFFFFF), (0x20, 0, 0xFFFFFFFF)])
try:
    os.setxattr(p, "system.posix_acl_access", acl)
    got += " acl"
except OSError:
    pass
print(got)
EOF
)
before=$(python3 -c 'import os,sys; p=sys.argv[1]; print(sorted((n, os.getxattr(p, n)) for n in os.listxattr(p)))' "$w/m.w3d")
mode_before=$(mode_of "$w/m.w3d")
runq $fix --in-place "$w/m.w3d"
after=$(python3 -c 'import os,sys; p=sys.argv[1]; print(sorted((n, os.getxattr(p, n)) for n in os.listxattr(p)))' "$w/m.w3d")
st 0 "--in-place: repaired" test "$(wc -c <"$w/m.w3d")" -eq 316
if [ "$(mode_of "$w/m.w3d")" = "$mode_before" ]; then ok "--in-place keeps the mode ($mode_before)"; else bad "--in-place: mode $(mode_of "$w/m.w3d"), was $mode_before"; fi
if [ -n "$owner" ]; then
	if [ "$(stat -c %u:%g "$w/m.w3d")" = "$owner" ]; then ok "--in-place keeps another user's owner and group"; else bad "--in-place: owner $(stat -c %u:%g "$w/m.w3d"), was $owner"; fi
else
	echo "$name: skipped: not root, owner not checked"
fi
case $xattrs in
*user*)
	if [ "$after" = "$before" ]; then ok "--in-place keeps the extended attributes ($xattrs)"; else bad "--in-place: attributes $after, were $before"; fi ;;
*) echo "$name: skipped: no extended attributes on this file system" ;;
esac

# --- hard links: left alone unless --break-links
fresh
ln "$w/m.w3d" "$w/other.w3d"
runq $fix --in-place "$w/m.w3d"
st 2 "--in-place on a file with 2 hard links: reported, left alone" errhas "m.w3d: has 2 hard links; not written (--break-links" \
	cmp -s "$w/m.w3d" "$tmp/orig.w3d"
test "$(stat -c %h "$w/m.w3d")" -eq 2 || bad "the hard link was broken without --break-links"
runq $fix --in-place --break-links "$w/m.w3d"
st 0 "--break-links: this name repaired, the other keeps the original" test "$(wc -c <"$w/m.w3d")" -eq 316 -a "$(stat -c %h "$w/other.w3d")" -eq 1
cmp -s "$w/other.w3d" "$tmp/orig.w3d" || bad "--break-links changed the other name"

# --- a read-only (0444) file: refused unless --force, which keeps 0444
fresh
chmod 0444 "$w/m.w3d"
runq $fix --in-place "$w/m.w3d"
st 2 "--in-place on a 0444 file: refused, left alone" errhas "m.w3d: read-only (mode 0444); not written (--force" cmp -s "$w/m.w3d" "$tmp/orig.w3d"
runq $fix --in-place --force "$w/m.w3d"
st 0 "--force: written, mode still 0444" test "$(wc -c <"$w/m.w3d")" -eq 316 -a "$(mode_of "$w/m.w3d")" = 444

# --- the file size limit (SIGXFSZ): a message and status 2, the target kept
fresh
cp "$tmp/orig.w3d" "$w/keep.w3d"
limited "$asm '$tmp/clean.txt' -o '$w/m.w3d'"
st 2 "w3dasm -o past the file size limit: status 2, the old file kept" errhas "w3dasm: $w/m.w3d: cannot write: File too large" \
	cmp -s "$w/m.w3d" "$tmp/orig.w3d"
limited "$fix --in-place '$w/m.w3d'"
st 2 "w3dfix --in-place past the file size limit: status 2, the original kept" errhas "w3dfix: $w/m.w3d: cannot write: File too large" \
	cmp -s "$w/m.w3d" "$tmp/orig.w3d"
echo "old report" >"$w/report.txt"
limited "$lint -o '$w/report.txt' '$w/m.w3d'"
st 2 "w3dlint -o past the file size limit: status 2, the old report kept" errhas "report.txt: cannot write the report: File too large" \
	grep -q "old report" "$w/report.txt"
leftovers=$(find "$w" -name '*.wltmp-*' -o -name '*.w3dfix-*' | wc -l)
test "$leftovers" -eq 0 || bad "temporary files left after failed writes: $leftovers"

# --- write errors on standard output: status 2 with a message
if [ -w /dev/full ]; then
	cp "$tmp/orig.w3d" "$w/f.w3d"
	runq sh -c "$fix -n '$w/f.w3d' >/dev/full"
	st 2 "w3dfix -n > /dev/full: status 2" errhas "w3dfix: standard output: cannot write: No space left on device"
	runq sh -c "$lint '$w/f.w3d' >/dev/full"
	st 2 "w3dlint (findings) > /dev/full: status 2" errhas "standard output"
	runq sh -c "$dump '$w/f.w3d' >/dev/full"
	st 2 "w3ddump > /dev/full: status 2" errhas "w3ddump: standard output: cannot write"
	runq sh -c "$asm '$tmp/clean.txt' -o - >/dev/full"
	st 2 "w3dasm -o - > /dev/full: status 2" errhas "w3dasm: standard output: cannot write"
	for t in w3dlint w3dfix w3ddump w3dasm; do
		runq sh -c "'$build/$t' --help >/dev/full"
		st 2 "$t --help > /dev/full: status 2" errhas "$t: standard output: cannot write"
	done
	runq sh -c "'$build/w3dfix' --list-fixes >/dev/full"
	st 2 "w3dfix --list-fixes > /dev/full: status 2" errhas "w3dfix: standard output: cannot write"
else
	echo "$name: skipped: no /dev/full"
fi

# --- signals during a write: no temporary file left, the target untouched.
# w3dlint -o makes its temporary file, then waits on standard input (a FIFO
# with a silent writer); the signal comes while it waits.
# W3DLINT_NO_TMPFILE: a named temporary file, the one signals must remove.
# A run started with SIGHUP ignored (nohup) hands that on to the tools,
# which keep ignoring it as nohup asks: that case is skipped then.
sigs="TERM HUP KILL"
if python3 -c 'import signal, sys; sys.exit(0 if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN else 1)' 2>/dev/null; then
	echo "$name: SIGHUP case skipped: this run ignores SIGHUP (started under nohup)"
	sigs="TERM KILL"
fi
for sig in $sigs; do
	fresh
	echo "old report" >"$w/report.txt"
	mkfifo "$w/in"
	if [ $sig = KILL ]; then
		"$build/w3dlint" -o "$w/report.txt" - <"$w/in" >/dev/null 2>&1 &
	else
		W3DLINT_NO_TMPFILE=1 "$build/w3dlint" -o "$w/report.txt" - <"$w/in" >/dev/null 2>&1 &
	fi
	pid=$!
	exec 3>"$w/in"
	# wait for the named temporary file (O_TMPFILE, under KILL: a moment)
	n=0
	while [ $n -lt 50 ] && [ -z "$(find "$w" -name 'report.txt.wltmp-*')" ]; do
		[ $sig = KILL ] && [ $n -ge 10 ] && break
		sleep 0.1
		n=$((n + 1))
	done
	[ $sig != KILL ] && [ $n -ge 50 ] && bad "SIG$sig: w3dlint -o made no named temporary file to remove"
	kill -$sig $pid
	exec 3>&- # a tool that survived the signal reads the end and finishes: a failure below
	wait $pid 2>/dev/null
	if [ -z "$(find "$w" -name '*.wltmp-*')" ] && grep -q "old report" "$w/report.txt"; then
		ok "SIG$sig during w3dlint -o: no temporary file left, the old report kept"
	else
		bad "SIG$sig during w3dlint -o: $(ls "$w" | tr '\n' ' ')"
	fi
done

# --- two runs on one file serialise: the second edits what the first wrote.
# The first "run" holds the lock (flock(1)) and replaces the file with a
# version that has one fix; w3dfix, started meanwhile, waits for the lock,
# then reads the new file and adds the other fix: both are kept.
if command -v flock >/dev/null 2>&1; then
	fresh
	mk rules/container-bit-on-leaf/fire "$w/x.w3d"
	printf 'abc' >>"$w/x.w3d" # + trailing-bytes
	"$build/w3dfix" --select container-bits -o "$w/y.w3d" "$w/x.w3d" >/dev/null
	(flock "$w/x.w3d" sh -c "touch '$w/ready'; sleep 2; cp '$w/y.w3d' '$w/x.new'; mv '$w/x.new' '$w/x.w3d'") &
	n=0
	while [ ! -e "$w/ready" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	runq $fix --select trailing-bytes --in-place "$w/x.w3d"
	wait
	runq $lint "$w/x.w3d"
	if ! has container-bit-on-leaf && ! has trailing-bytes && has "1 file, 0 errors, 0 warnings, 0 infos"; then
		ok "concurrent runs: the second waits for the lock and keeps the first one's edits"
	else
		bad "concurrent runs: an edit was lost"
	fi
else
	echo "$name: skipped: no flock(1), concurrent runs not checked"
fi

# --- -o DIR with two inputs mapped to one name: refused, nothing written
fresh
mkdir -p "$w/a" "$w/b" "$w/out"
cp "$tmp/orig.w3d" "$w/a/m.w3d"
cp "$tmp/orig.w3d" "$w/b/m.w3d"
runq $fix -o "$w/out" "$w/a/m.w3d" "$w/b/m.w3d"
st 2 "-o DIR a/m.w3d b/m.w3d: refused before anything is written" \
	errhas "$w/a/m.w3d and $w/b/m.w3d would both be written to $w/out/m.w3d; nothing written" test -z "$(ls "$w/out")"
exit $fail
