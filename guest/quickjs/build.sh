#!/usr/bin/env bash
# Builds the QuickJS-ng guest for wasm32-wasi from pinned inputs:
# QuickJS-ng sources from a pinned Go module (checksum-verified), our
# patches and glue.c, and a table generated from a pinned npm package
# (unicode/). Output: $OUT (default build/ptc-quickjs.wasm).
# QuickJS sources and the .wasm are build outputs and are never committed.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-$HERE/build/ptc-quickjs.wasm}"
WORK="${WORK:-$HERE/build/src}"
QJS_MODULE="github.com/buke/quickjs-go"
QJS_VERSION="v0.7.7"          # ships QuickJS-ng v0.15.1 under deps/quickjs
QJS_SUM="h1:kuG3d0Vnn7LBvO64vgW+fwSZ5E3XK5pcYDttiIYmatw="
CC="${CC_WASM:-clang-16}"
SYSROOT_INC=/usr/include/wasm32-wasi

need_toolchain() {
	command -v "$CC" >/dev/null 2>&1 || return 0
	command -v wasm-ld-16 >/dev/null 2>&1 || command -v wasm-ld >/dev/null 2>&1 || return 0
	[ -d "$SYSROOT_INC" ] || return 0
	[ -f /usr/lib/wasm32-wasi/libc.a ] || return 0
	ls /usr/lib/llvm-16/lib/clang/16/lib/wasi/libclang_rt.builtins-wasm32.a >/dev/null 2>&1 || return 0
	return 1
}

if need_toolchain; then
	echo "guest: installing clang-16, lld-16, wasi-libc from Debian" >&2
	SUDO=""
	[ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		clang-16 lld-16 libclang-rt-16-dev-wasm32 wasi-libc >&2
fi

# Fetch the pinned module into the module cache and verify its checksum.
TMPMOD="$(mktemp -d)"
trap 'rm -rf "$TMPMOD"' EXIT
(cd "$TMPMOD" && go mod init ptc-guest-fetch >/dev/null 2>&1 &&
	GOFLAGS=-mod=mod go mod download -json "$QJS_MODULE@$QJS_VERSION") >"$TMPMOD/dl.json"
SUM="$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p' "$TMPMOD/dl.json")"
DIR="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' "$TMPMOD/dl.json")"
if [ "$SUM" != "$QJS_SUM" ]; then
	echo "guest: checksum mismatch for $QJS_MODULE@$QJS_VERSION: got '$SUM', want '$QJS_SUM'; refusing to build" >&2
	exit 1
fi

rm -rf "$WORK"
mkdir -p "$WORK" "$(dirname "$OUT")"
cp "$DIR"/deps/quickjs/*.c "$DIR"/deps/quickjs/*.h "$WORK"/
chmod -R u+w "$WORK"
for p in "$HERE"/csrc/*.patch; do
	patch -s -d "$WORK" -p1 <"$p"
done
cp "$HERE/csrc/glue.c" "$WORK/"

# The RegExp v flag's properties of strings (regexp-v.patch): a table
# generated from the pinned Unicode data package (unicode/package-lock.json,
# integrity-checked by npm ci), never committed.
command -v npm >/dev/null || { echo "guest: npm is required (Node 20) for the Unicode data" >&2; exit 1; }
(cd "$HERE/unicode" && npm ci --no-audit --no-fund --loglevel=error >&2)
node "$HERE/unicode/gen.mjs" >"$WORK/libregexp-seqprop.h.tmp"
mv "$WORK/libregexp-seqprop.h.tmp" "$WORK/libregexp-seqprop.h"

# -mbulk-memory: memcpy, memmove and memset become single memory.copy and
# memory.fill instructions (glue.c overrides wasi-libc's loops), which
# wazero runs natively and which need no fuel checks.
CFLAGS=(--target=wasm32-wasi -O2 -mbulk-memory -D_GNU_SOURCE -nostdlibinc -isystem "$SYSROOT_INC"
	-fno-strict-aliasing -ffile-prefix-map="$WORK"=. -Wno-everything)
OBJS=()
PIDS=()
for f in quickjs libregexp libunicode dtoa glue; do
	"$CC" "${CFLAGS[@]}" -c "$WORK/$f.c" -o "$WORK/$f.o" &
	PIDS+=($!)
	OBJS+=("$WORK/$f.o")
done
for pid in "${PIDS[@]}"; do
	wait "$pid"
done
# No -O on the link line: clang would run whatever wasm-opt is on PATH.
# The name section stays: the host reads it when it instruments the guest
# with fuel checks (host/internal/fuel), and wazero names functions in
# traces with it.
"$CC" --target=wasm32-wasi -mbulk-memory -mexec-model=reactor -fuse-ld=lld \
	-Wl,-z,stack-size=1048576 -Wl,--stack-first -Wl,--strip-debug \
	"${OBJS[@]}" -lm -o "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "guest: built $OUT ($(wc -c <"$OUT") bytes)" >&2
