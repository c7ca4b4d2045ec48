#!/usr/bin/env bash
# Builds Web/deskkit.wasm: DeskKitJSON, DeskKitURL, DeskKitLinks, DeskKitModel and DeskKitWeb — the same sources
# the package builds — compiled with Embedded Swift for wasm32 as LLVM bitcode, linked with the toolchain's wasm-ld
# (link-time optimization across the modules) against Debian's wasi-libc (malloc, memcpy, strtod) and compiler-rt
# builtins, then shrunk with binaryen's `wasm-opt -Oz`:
#   apt-get install wasi-libc libclang-rt-dev-wasm32 binaryen
# Nothing is downloaded. Prints the module's size and its gzip size. Run from anywhere. -msimd128: WebAssembly's
# 128-bit vectors (every current browser, Node 16.4 on) for the scanners' SIMD types, which are element by element
# without it (the links benchmark: 1.8x). What each step saves is in docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
target=wasm32-unknown-none-wasm
swift_bin="$(dirname "$(readlink -f "$(command -v swiftc)")")"
embedded="$swift_bin/../lib/swift/embedded/$target"
libc=/usr/lib/wasm32-wasi
[ -f "$libc/libc.a" ] || { echo "no wasi-libc at $libc: apt-get install wasi-libc" >&2; exit 2; }
# compiler-rt's builtins (128-bit multiplication: `multipliedFullWidth`): Debian's libclang-rt-dev-wasm32.
builtins=$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null | tail -1)
[ -n "$builtins" ] || { echo "no compiler-rt builtins for wasm32: apt-get install libclang-rt-dev-wasm32" >&2; exit 2; }
command -v wasm-opt >/dev/null || { echo "no wasm-opt: apt-get install binaryen" >&2; exit 2; }
work="${WASM_BUILD_DIR:-.build/wasm}"
mkdir -p "$work"
objects=()
for module in DeskKitJSON DeskKitURL DeskKitLinks DeskKitModel DeskKitWeb; do  # in dependency order
  mapfile -t files < <(find "Sources/$module" -name '*.swift' | sort)
  swiftc -target "$target" -enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo "${WASM_OPT:--Osize}" -Xcc -msimd128 -parse-as-library -disable-stack-protector -lto=llvm-full \
    -module-name "$module" -package-name DeskKit -swift-version 6 -I "$work" \
    -emit-module -emit-module-path "$work/$module.swiftmodule" -c "${files[@]}" -o "$work/$module.o" 2>&1 \
    | { grep -v 'untyped throws is not available in Embedded Swift' || true; } >&2
  objects+=("$work/$module.o")
done
exports=(dk_alloc dk_free dk_find_links dk_decode_message dk_decode_data dk_visibility dk_validate)
strip=(--strip-all)
[ -n "${WASM_NAMES:-}" ] && strip=()  # WASM_NAMES=1: keep function names, for a trap's stack in the console
"$swift_bin/wasm-ld" --no-entry --gc-sections "${strip[@]}" -O2 "${exports[@]/#/--export=}" \
  "${objects[@]}" "$embedded/libswiftUnicodeDataTables.a" "$libc/libc.a" "$builtins" -o "$work/linked.wasm"
# -Oz: binaryen's size passes on the linked module (a ninth of it); the features are those the module uses.
wasm-opt -Oz --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
  --enable-nontrapping-float-to-int ${WASM_NAMES:+--debuginfo} "$work/linked.wasm" -o Web/deskkit.wasm
size=$(stat -c %s Web/deskkit.wasm)
gzipped=$(gzip -9 -c Web/deskkit.wasm | wc -c)
echo "Web/deskkit.wasm: $size bytes ($((size / 1024)) KB), $gzipped gzipped"
