#!/usr/bin/env bash
# ratio.sh: micro.js natively (qjs built with gcc -O2 from the guest's own
# QuickJS-ng sources, as make guest fetched and patched them) and in ptc
# (ptc-run run), side by side. Not part of make test; needs make guest.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SRC=$ROOT/guest/quickjs/build/src
[ -f "$SRC/qjs.c" ] || { echo "ratio.sh: no QuickJS sources in $SRC: run make guest" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The guest's patches call into the glue; natively they abort or do nothing.
cat >"$TMP/stubs.c" <<'C'
#include <stdint.h>
#include <stdlib.h>
void JS_PtcOutOfMemory(void) { abort(); }
const char *JS_PtcBodyEnd;
const uint8_t qjsc_standalone[1], qjsc_repl[1];
const uint32_t qjsc_standalone_size, qjsc_repl_size;
C
(cd "$SRC" && gcc -O2 -D_GNU_SOURCE -fno-strict-aliasing -w -o "$TMP/qjs" \
	qjs.c quickjs.c libregexp.c libunicode.c dtoa.c quickjs-libc.c "$TMP/stubs.c" -lm -lpthread -ldl)
(cd "$ROOT" && go build -o "$TMP/ptc-run" ./cmd/ptc-run)
"$TMP/qjs" "$HERE/micro.js" >"$TMP/native.txt"
"$TMP/ptc-run" run "$HERE/micro.js" >"$TMP/ptc.txt"
printf '%-16s %12s %12s %7s\n' operation "native us" "ptc us" ratio
join <(sort "$TMP/native.txt") <(sort "$TMP/ptc.txt") |
	awk '{printf "%-16s %12s %12s %6.1fx\n", $1, $2, $4, $4 / $2}'
