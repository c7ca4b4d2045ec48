#!/usr/bin/env bash
# Checks that the client products build for the floor Package.swift declares on Apple's systems, as far as
# Linux can tell: their sources are type-checked for macOS 10.15 and iOS 13 against the standard library's
# own availability. Linux's toolchain has no Apple SDK, but its standard library's textual interface carries
# every declaration's Apple availability (`@available(macOS 11.0, iOS 14.0, …)`), so it is compiled here into
# a module for each Apple target, and the compiler then refuses any use of an API newer than the floor
# (`String(unsafeUninitializedCapacity:)` is macOS 11, `Array.span` macOS 26, _StringProcessing macOS 13…).
#
# What it does not check: anything that needs Apple's SDK (Foundation, Darwin; the client products import
# neither) or a C library. About 50 s, the two targets at once; run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(DeskKitJSON DeskKitURL DeskKitModel DeskKitLinks)  # in dependency order
targets=(x86_64-apple-macos10.15 x86_64-apple-ios13.0-simulator)
swift_lib="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift"
interface="$swift_lib"_static/linux/Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface
[ -f "$interface" ] || { echo "no standard library interface at $interface" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# One target's check: its standard library compiled from the interface, then each module type-checked against it.
check() {
  local target=$1 status=0
  local dir="$work/$target"
  mkdir -p "$dir/Swift.swiftmodule" "$dir/out"
  # The interface as Linux's standard library was built, retargeted. `@backDeployed` needs bodies the
  # interface leaves out; the one in Swift's interface is on an internal function.
  sed -e "3s/-target x86_64-unknown-linux-gnu/-target $target/" -e '/^ *@backDeployed/d' "$interface" \
    > "$dir/Swift.swiftmodule/$target.swiftinterface"
  swiftc -frontend -compile-module-from-interface "$dir/Swift.swiftmodule/$target.swiftinterface" \
    -module-name Swift -parse-stdlib -disable-objc-interop -target "$target" -I "$swift_lib/shims" \
    -o "$dir/Swift.swiftmodule.built"
  mkdir -p "$dir/sdk" && mv "$dir/Swift.swiftmodule.built" "$dir/sdk/Swift.swiftmodule"
  for module in "${modules[@]}"; do
    mapfile -t files < <(find "Sources/$module" -name '*.swift' | sort)
    # Type-checked first (the check), then written out for the modules that import it (bodies skipped). -O: no
    # SwiftOnoneSupport to import. _Concurrency and _StringProcessing are not built here: what needs the latter
    # is refused, which is what the floor wants (it is macOS 13 and iOS 16 on).
    flags=(-module-name "$module" -package-name DeskKit -swift-version 6 -O -target "$target" -disable-objc-interop
      -I "$dir/sdk" -I "$dir/out" -I "$swift_lib/shims" -resource-dir "$dir/no-resources")
    if swiftc -frontend -typecheck "${files[@]}" "${flags[@]}" 2> "$dir/$module.log" \
      && swiftc -frontend -emit-module -experimental-skip-non-inlinable-function-bodies "${files[@]}" "${flags[@]}" \
        -o "$dir/out/$module.swiftmodule" 2>> "$dir/$module.log"; then
      echo "$module: type-checks for $target"
    else
      echo "$module does not type-check for $target:" >&2
      grep -E "error:" "$dir/$module.log" | grep -v '^ *|' | head -20 >&2
      status=1
    fi
  done
  return $status
}
# The targets are independent, and each is one compiler process at a time: both at once, one a core.
pids=()
for target in "${targets[@]}"; do
  check "$target" > "$work/$target.out" 2>&1 &
  pids+=($!)
done
status=0
for k in "${!targets[@]}"; do
  wait "${pids[$k]}" || status=1
  cat "$work/${targets[$k]}.out"
done
exit $status
