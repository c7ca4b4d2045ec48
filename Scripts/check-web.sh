#!/usr/bin/env bash
# The web package: builds Web/deskkit.wasm (Scripts/build-wasm.sh), runs its tests with Node's test runner —
# the API's contract, the same answers as the `deskkit` command (DESKKIT, default .build/debug/deskkit: build it
# first), the example page and the renderers' hostile corpus in headless Chromium — compiles a TypeScript file
# against index.d.ts (`tsc --strict`), and packs it offline (`npm pack`), checking what it holds and that the
# module is within its size budget.
# About a minute. CI runs it after `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
# A machine without the web build's parts is told each one and its package (issue 63), and stops with 2.
status=0
message=$(WASI_LIBC_DIR=/nonexistent WASM_BUILTINS=/nonexistent Scripts/build-wasm.sh 2>&1) || status=$?
[ "$status" = 2 ] && grep -q 'apt-get install wasi-libc' <<<"$message" &&
  grep -q 'apt-get install libclang-rt-dev-wasm32' <<<"$message" ||
  { echo "build-wasm.sh without its parts: exit $status, said: $message" >&2; exit 1; }
Scripts/build-wasm.sh
# Issue 55's budget: the module a widget downloads stays within 400 KB (what each build step saves:
# docs/BENCHMARKS.md).
size=$(stat -c %s Web/deskkit.wasm)
((size <= 400 * 1024)) || { echo "Web/deskkit.wasm is $size bytes, over its budget of 400 KB" >&2; exit 1; }
# Issue 94's budget: the JavaScript a widget downloads (every .mjs the package holds) within 40 KB.
js=$(cat Web/*.mjs | wc -c)
((js <= 40 * 1000)) || { echo "the package's JavaScript is $js bytes, over its budget of 40 KB" >&2; exit 1; }
echo "budgets: Web/deskkit.wasm $size bytes (of $((400 * 1024))), JavaScript $js bytes (of 40000)"
# The widget's words are the strings tables' (Scripts/export-strings.py made Web/strings.mjs from them).
Scripts/export-strings.py --check
export DESKKIT="${DESKKIT:-$PWD/.build/debug/deskkit}"
[ -x "$DESKKIT" ] || { echo "no deskkit at $DESKKIT: swift build --product deskkit" >&2; exit 2; }
(cd Web && node --test test/*.test.mjs)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The TypeScript declarations as a widget imports them (`from 'deskkit'`, through package.json's exports): a
# file that narrows decoded messages by kind compiles strictly (Debian's node-typescript).
mkdir -p "$work/types/node_modules"
ln -s "$PWD/Web" "$work/types/node_modules/deskkit"
cp Web/test/types/narrowing.mts "$work/types/"
tsc --strict --noEmit --target es2022 --lib es2022,dom --module nodenext --moduleResolution nodenext \
  "$work/types/narrowing.mts"
echo "TypeScript: Web/test/types/narrowing.mts compiles with tsc --strict"
(cd Web && npm pack --offline --pack-destination "$work" --json > "$work/pack.json")
files=$(python3 -c 'import json,sys; print(" ".join(sorted(f["path"] for f in json.load(open(sys.argv[1]))[0]["files"])))' "$work/pack.json")
# The schemas are Sources/DeskKitSchemas/Schemas/ as they are (what `deskkit schema` and the server serve).
diff -r Sources/DeskKitSchemas/Schemas Web/schemas
schemas=$(cd Web && ls schemas/*.json | tr '\n' ' ')
expected="README.md card.css conversation.mjs deskkit.wasm index.d.ts index.mjs message.mjs package.json render.mjs ${schemas% } strings.mjs"
[ "$files" = "$expected" ] || { echo "npm pack holds: $files (expected: $expected)" >&2; exit 1; }
echo "web package: $(ls "$work"/*.tgz | xargs -n1 basename), $files"
