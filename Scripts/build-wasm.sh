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
# Every part the build needs is looked for first, and each missing one is named with what brings it.
# WASI_LIBC_DIR and WASM_BUILTINS point elsewhere (the check in Scripts/check-web.sh points them nowhere).
missing=()
swiftc_path=$(command -v swiftc || true)
if [ -z "$swiftc_path" ]; then
  missing+=("swiftc: the Swift toolchain (6.3 or later, which has Embedded Swift and wasm-ld), on PATH")
else
  swift_bin="$(dirname "$(readlink -f "$swiftc_path")")"
  embedded="$swift_bin/../lib/swift/embedded/$target"
  [ -d "$embedded" ] || missing+=("Embedded Swift's standard library for $target: a Swift toolchain of 6.3 or later")
  [ -x "$swift_bin/wasm-ld" ] || missing+=("wasm-ld beside swiftc: a Swift toolchain of 6.3 or later")
fi
libc="${WASI_LIBC_DIR:-/usr/lib/wasm32-wasi}"
[ -f "$libc/libc.a" ] || missing+=("wasi-libc (malloc, memcpy, strtod) at $libc: apt-get install wasi-libc")
# compiler-rt's builtins (128-bit multiplication: `multipliedFullWidth`): Debian's libclang-rt-dev-wasm32.
builtins="${WASM_BUILTINS:-}"
if [ -z "$builtins" ]; then
  for found in /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a; do
    [ -f "$found" ] && builtins="$found"
  done
fi
[ -f "$builtins" ] || missing+=("compiler-rt's builtins for wasm32: apt-get install libclang-rt-dev-wasm32")
command -v wasm-opt >/dev/null || missing+=("wasm-opt: apt-get install binaryen")
if ((${#missing[@]})); then
  echo "Scripts/build-wasm.sh: Web/deskkit.wasm cannot be built here; missing:" >&2
  printf '  - %s\n' "${missing[@]}" >&2
  echo "Debian's parts at once: apt-get install -y wasi-libc libclang-rt-dev-wasm32 binaryen" >&2
  exit 2
fi
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
exports=(dk_alloc dk_free dk_find_links dk_decode_message dk_decode_data dk_visibility dk_validate dk_safe_url dk_link_card)
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
