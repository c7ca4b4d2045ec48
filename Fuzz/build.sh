#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer (the flags that work here: see README).
set -euo pipefail
cd "$(dirname "$0")"
# SwiftPM reuses its build plan while this package's own files are unchanged, and then misses files added
# to or removed from the package it depends on (`..`): plan afresh each time.
rm -f .build/release/description.json
swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address >&2
