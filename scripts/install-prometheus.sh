#!/bin/sh
# Installs Debian's prometheus (the binary only, no service running) for the
# metrics test (cmd/ptc-run TestObservability_prometheus, make test-integration).
exec sh "$(dirname "$0")/install-debian-tool.sh" prometheus /usr/bin
