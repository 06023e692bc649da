#!/bin/sh
# Makes sure the build dependencies are present; installs the missing Debian
# packages when they are not.  Called by `make` before every build.
set -eu
need=""
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
if command -v pkg-config >/dev/null 2>&1; then
	pkg-config --exists yaml-0.1 || need="$need libyaml-dev"
	pkg-config --exists libpcre2-8 || need="$need libpcre2-dev"
	pkg-config --exists jansson || need="$need libjansson-dev"
	pkg-config --exists check || need="$need check"
else
	need="$need libyaml-dev libpcre2-dev libjansson-dev check"
fi
[ -n "$need" ] || exit 0
echo "setup: missing Debian packages:$need"
if [ "$(id -u)" = 0 ]; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need
else
	echo "setup: run this, then make again:"
	echo "    sudo apt-get install -y$need"
	exit 1
fi
