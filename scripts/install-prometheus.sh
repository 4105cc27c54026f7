#!/bin/sh
# Installs Debian's prometheus package when the prometheus binary is absent.
# The metrics test (cmd/ptc-run TestObservability_prometheus, make
# test-integration) runs prometheus itself in the foreground, scraping
# ptc-run serve --metrics; this script installs the binary only and leaves no
# prometheus service running. Exits non-zero, saying why, when it cannot
# install.
set -u

# The package installs it in /usr/bin.
found() {
	command -v prometheus >/dev/null 2>&1 || [ -x /usr/bin/prometheus ]
}

if found; then
	exit 0
fi

fail() {
	echo "install-prometheus: $*" >&2
	exit 1
}

command -v apt-get >/dev/null 2>&1 || fail "prometheus is not installed and apt-get is not available"

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || fail "prometheus is not installed; installing it needs root or sudo"
	sudo -n true 2>/dev/null || fail "prometheus is not installed; sudo needs a password (install it with: sudo apt-get install prometheus)"
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
install_prometheus() {
	$SUDO apt-get install -y --no-install-recommends prometheus
}
# Update the package lists only when the first attempt fails (they may be
# missing or stale).
if ! install_prometheus; then
	$SUDO apt-get update || fail "apt-get update failed"
	install_prometheus || fail "apt-get install prometheus failed"
fi

# Should a service have started anyway (no policy-rc.d honoured), stop it
# and keep it from starting at boot; each of these may be missing or fail.
if command -v systemctl >/dev/null 2>&1; then
	$SUDO systemctl stop prometheus >/dev/null 2>&1 || true
	$SUDO systemctl disable prometheus >/dev/null 2>&1 || true
fi
if command -v service >/dev/null 2>&1; then
	$SUDO service prometheus stop >/dev/null 2>&1 || true
fi

found || fail "apt-get installed prometheus but its binary is not in PATH or /usr/bin"
echo "install-prometheus: prometheus installed"
