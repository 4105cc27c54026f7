#!/bin/sh
# Installs Debian's haproxy (the binary only, no service running) for the
# scale-out tests (cmd/ptc-run TestServe_scaleOut, TestServe_sessionsScaleOut).
exec sh "$(dirname "$0")/install-debian-tool.sh" haproxy /usr/sbin
