#!/bin/sh
# Usage: install-debian-tool.sh NAME DIR [BINARY]
# Installs Debian's package NAME when its binary BINARY (default NAME) is
# absent (neither on PATH nor in DIR, where the package puts it). The tests that need it run
# it themselves in the foreground; this script installs the binary only and
# leaves no service of it running. Exits non-zero, saying why, when it
# cannot install. install-haproxy.sh and install-prometheus.sh call it.
set -u

[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: install-debian-tool.sh NAME DIR [BINARY]" >&2; exit 2; }
NAME=$1
DIR=$2
BINARY=${3:-$1}

found() {
	command -v "$BINARY" >/dev/null 2>&1 || [ -x "$DIR/$BINARY" ]
}

if found; then
	exit 0
fi

fail() {
	echo "install-$NAME: $*" >&2
	exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "$NAME is not installed and apt-get is not available"

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || fail "$NAME is not installed; installing it needs root or sudo"
	sudo -n true 2>/dev/null || fail "$NAME is not installed; sudo needs a password (install it with: sudo apt-get install $NAME)"
	SUDO="sudo -n"
fi

# Keep the package's maintainer scripts from starting the service: a
# policy-rc.d that refuses every action, removed afterwards unless one was
# there already.
POLICY=/usr/sbin/policy-rc.d
OWN_POLICY=
if [ ! -e "$POLICY" ]; then
	if printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null; then
		OWN_POLICY=1
		$SUDO chmod 755 "$POLICY" || true
	fi
fi
cleanup() {
	if [ -n "$OWN_POLICY" ]; then
		$SUDO rm -f "$POLICY"
	fi
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

export DEBIAN_FRONTEND=noninteractive
install_tool() {
	$SUDO apt-get install -y --no-install-recommends $NAME
}
# Update the package lists only when the first attempt fails (they may be
# missing or stale).
if ! install_tool; then
	$SUDO apt-get update || fail "apt-get update failed"
	install_tool || fail "apt-get install $NAME failed"
fi

# Should a service have started anyway (no policy-rc.d honoured), stop it
# and keep it from starting at boot; each of these may be missing or fail.
if command -v systemctl >/dev/null 2>&1; then
	$SUDO systemctl stop $NAME >/dev/null 2>&1 || true
	$SUDO systemctl disable $NAME >/dev/null 2>&1 || true
fi
if command -v service >/dev/null 2>&1; then
	$SUDO service $NAME stop >/dev/null 2>&1 || true
fi

found || fail "apt-get installed $NAME but its binary $BINARY is not in PATH or $DIR"
echo "install-$NAME: $NAME installed"
