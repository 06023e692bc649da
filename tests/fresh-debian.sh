#!/bin/sh
# Runs the README's Quick start in a fresh Debian: a minimal bookworm chroot
# made with debootstrap, the repository's committed tree (git archive HEAD)
# copied in, then exactly what README.md tells a new user to type:
#
#     apt-get install make
#     make demo
#     make test
#
# (make installs the other packages itself, scripts/setup-deps.sh).  Run by
# hand as root - it is NOT part of `make test`: it downloads a base system
# (about 100 MB) and takes several minutes.  ../shared/corpus is not copied,
# as a new user does not have it: the corpus steps print "skipped".
#
# Usage: sudo sh tests/fresh-debian.sh [DIR]
#   DIR     where to build the chroot (default: a new folder under /var/tmp);
#           kept afterwards when given, removed otherwise
#   MIRROR  environment: the Debian mirror (default: the first deb.debian.org
#           style URI of /etc/apt/sources.list*, else http://deb.debian.org/debian)
#   SUITE   environment: the release (default bookworm)
# Exit status: that of `make test` in the chroot (0 = the Quick start works),
# 2 when the chroot cannot be made.
set -u
suite=${SUITE:-bookworm}
repo=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" != 0 ]; then
	echo "fresh-debian: needs root (debootstrap and chroot): sudo sh $0 $*" >&2
	exit 2
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	echo "fresh-debian: debootstrap is not installed: apt-get install debootstrap" >&2
	exit 2
fi
if [ -z "${MIRROR:-}" ]; then
	MIRROR=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -v '^ *#' | grep -o 'https\{0,1\}://[^ ]*/debian/\{0,1\}\( \|$\)' | head -n 1 | tr -d ' ')
	MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi

if [ $# -ge 1 ]; then
	root=$1
	keep=1
	mkdir -p "$root"
else
	root=$(mktemp -d /var/tmp/w3dlint-fresh.XXXXXX)
	keep=0
fi
cleanup() {
	umount "$root/dev/pts" 2>/dev/null
	umount "$root/dev" 2>/dev/null
	umount "$root/proc" 2>/dev/null
	umount "$root/sys" 2>/dev/null
	[ "$keep" = 1 ] || rm -rf "$root"
}
trap cleanup EXIT INT TERM

echo "== debootstrap --variant=minbase $suite $root $MIRROR"
if [ ! -x "$root/bin/sh" ]; then
	if ! debootstrap --variant=minbase "$suite" "$root" "$MIRROR" > "$root.debootstrap.log" 2>&1; then
		tail -n 20 "$root.debootstrap.log"
		echo "fresh-debian: debootstrap failed (log: $root.debootstrap.log)" >&2
		exit 2
	fi
	rm -f "$root.debootstrap.log"
fi
mount -t proc proc "$root/proc" && mount --bind /dev "$root/dev" && mount --bind /dev/pts "$root/dev/pts" &&
	mount -t sysfs sysfs "$root/sys" || { echo "fresh-debian: cannot mount /proc, /dev or /sys in the chroot" >&2; exit 2; }
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null

echo "== copying the committed tree ($(cd "$repo" && git rev-parse --short HEAD)) to /home/user/w3dlint"
rm -rf "$root/home/user/w3dlint"
mkdir -p "$root/home/user/w3dlint"
(cd "$repo" && git archive HEAD) | tar -x -C "$root/home/user/w3dlint" || exit 2

# The README's commands, as root in the chroot (a fresh system has no sudo).
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin /bin/sh -c '
	set -e
	cd /home/user/w3dlint
	echo "== apt-get update && apt-get install make"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make > /dev/null
	echo "== make demo"
	make demo
	echo "== make test"
	make test
'
rc=$?
echo "== fresh-debian: exit status $rc (0: the Quick start works on a fresh $suite)"
exit $rc
