#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer (the flags that work here: see README).
set -euo pipefail
cd "$(dirname "$0")"
# SwiftPM 6.3 reused its cached build plan after files were added to the package this one depends on
# (`..`), and compiled without them: plan afresh each time.
rm -f .build/release/description.json
swift build -c release --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address >&2
