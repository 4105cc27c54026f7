#!/usr/bin/env bash
# Regenerates every NAME.expected of the corpus from Node 20: what Node
# prints for the program under harness.mjs (TZ=UTC, en-US) is the content
# ptc must produce. Usage: testdata/corpus/gen.sh [NAME.js|NAME.ts ...]
set -euo pipefail
cd "$(dirname "$0")"
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" != 20 ]; then
  echo "gen.sh: Node 20 is the reference; this is Node $(node --version)" >&2
  exit 2
fi
npm ci --silent --no-fund --no-audit >/dev/null
if [ $# -eq 0 ]; then
  set -- *.js *.ts
fi
status=0
for p in "$@"; do
  rc=0
  tmp="${p%.*}.expected.$$"
  TZ=UTC LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 node harness.mjs "$p" >"$tmp" || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "gen.sh: $p: harness exit $rc" >&2
    rm -f "$tmp"
    status=1
    continue
  fi
  mv "$tmp" "${p%.*}.expected"
done
exit $status
