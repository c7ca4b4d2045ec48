#!/usr/bin/env bash
# Replays every corpus file through every fuzz target built with ASan; non-zero on any finding.
# (`swift test` replays the same files without sanitizers.)
set -euo pipefail
cd "$(dirname "$0")/.."
Fuzz/build.sh
for t in $(Fuzz/seeds.sh --targets); do
    files=()
    for d in $(Fuzz/seeds.sh "$t"); do
        while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$d" -maxdepth 1 -type f -print0)
    done
    echo "== $t: ${#files[@]} files"
    SWIFT_BACKTRACE=enable=no "$(Fuzz/binary.sh "$t")" -runs=0 "${files[@]}" 2>&1 | tail -1
done
