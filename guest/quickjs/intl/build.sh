#!/bin/sh
# Builds the guest's Intl script (see bundle.go): installs the pinned
# FormatJS packages (package-lock.json, integrity-checked) into
# node_modules here, then bundles entry.js with esbuild's Go API.
#
#	guest/quickjs/intl/build.sh [OUT]	# default guest/quickjs/build/intl.js
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/guest/quickjs/build/intl.js}
case $out in
/*) ;;
*) out=$(pwd)/$out ;;
esac

command -v npm >/dev/null || { echo "intl: npm is required (Node 20)" >&2; exit 1; }
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
mkdir -p "$(dirname "$out")"
(cd "$root" && go run ./guest/quickjs/intl/bundle.go ./guest/quickjs/intl/pack.go ./guest/quickjs/intl/calendars.go ./guest/quickjs/intl/ids.go "$out")
echo "intl: wrote $out ($(wc -c <"$out") bytes)"
