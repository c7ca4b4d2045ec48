#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer (the flags that work here: see README).
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address >&2
