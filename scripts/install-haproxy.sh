#!/bin/sh
# Installs Debian's haproxy package when the haproxy binary is absent. The
# scale-out test (cmd/ptc-run TestServe_scaleOut) runs haproxy itself in the
# foreground; this script installs the binary only and leaves no haproxy
# service running. Exits non-zero, saying why, when it cannot install.
set -u

# The package installs it in /usr/sbin, which is not on every user's PATH.
found() {
	command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]
}

if found; then
	exit 0
fi

fail() {
	echo "install-haproxy: $*" >&2
	exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "haproxy is not installed and apt-get is not available"

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || fail "haproxy is not installed; installing it needs root or sudo"
	sudo -n true 2>/dev/null || fail "haproxy is not installed; sudo needs a password (install it with: sudo apt-get install haproxy)"
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
install_haproxy() {
	$SUDO apt-get install -y --no-install-recommends haproxy
}
# Update the package lists only when the first attempt fails (they may be
# missing or stale).
if ! install_haproxy; then
	$SUDO apt-get update || fail "apt-get update failed"
	install_haproxy || fail "apt-get install haproxy failed"
fi

# Should a service have started anyway (no policy-rc.d honoured), stop it
# and keep it from starting at boot; each of these may be missing or fail.
if command -v systemctl >/dev/null 2>&1; then
	$SUDO systemctl stop haproxy >/dev/null 2>&1 || true
	$SUDO systemctl disable haproxy >/dev/null 2>&1 || true
fi
if command -v service >/dev/null 2>&1; then
	$SUDO service haproxy stop >/dev/null 2>&1 || true
fi

found || fail "apt-get installed haproxy but its binary is not in PATH or /usr/sbin"
echo "install-haproxy: haproxy installed"
