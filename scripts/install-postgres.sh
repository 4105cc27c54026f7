#!/bin/sh
# Installs Debian's PostgreSQL (the binaries only, no cluster or service
# running) for the run store's tests (runstore TestStore_postgres, the
# durable-run tests of cmd/ptc-run): each test makes a throwaway cluster
# with initdb in a temporary directory and stops it when done.
set -u
for d in /usr/lib/postgresql/*/bin; do
	if [ -x "$d/initdb" ]; then
		exit 0
	fi
done
exec sh "$(dirname "$0")/install-debian-tool.sh" postgresql /usr/lib/postgresql/15/bin initdb
