#!/usr/bin/env bash
# The web package: builds Web/deskkit.wasm (Scripts/build-wasm.sh), runs its tests with Node's test runner —
# the API's contract, the same answers as the `deskkit` command (DESKKIT, default .build/debug/deskkit: build it
# first), the example page in headless Chromium — and packs it offline (`npm pack`), checking what it holds and
# that the module is within its size budget.
# About a minute. CI runs it after `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/build-wasm.sh
# Issue 55's budget: the module a widget downloads stays within 400 KB (what each build step saves:
# docs/BENCHMARKS.md).
size=$(stat -c %s Web/deskkit.wasm)
((size <= 400 * 1024)) || { echo "Web/deskkit.wasm is $size bytes, over its budget of 400 KB" >&2; exit 1; }
export DESKKIT="${DESKKIT:-$PWD/.build/debug/deskkit}"
[ -x "$DESKKIT" ] || { echo "no deskkit at $DESKKIT: swift build --product deskkit" >&2; exit 2; }
(cd Web && node --test test/*.test.mjs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd Web && npm pack --offline --pack-destination "$work" --json > "$work/pack.json")
files=$(python3 -c 'import json,sys; print(" ".join(sorted(f["path"] for f in json.load(open(sys.argv[1]))[0]["files"])))' "$work/pack.json")
expected="README.md deskkit.wasm index.d.ts index.mjs package.json"
[ "$files" = "$expected" ] || { echo "npm pack holds: $files (expected: $expected)" >&2; exit 1; }
echo "web package: $(ls "$work"/*.tgz | xargs -n1 basename), $files"
