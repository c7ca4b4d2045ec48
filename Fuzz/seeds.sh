#!/usr/bin/env bash
# Prints the seed folders of TARGET, from Fuzz/seeds.txt (relative to the repository root).
set -euo pipefail
cd "$(dirname "$0")/.."
line=$(grep -E "^$1 " Fuzz/seeds.txt) || { echo "unknown fuzz target: $1" >&2; exit 2; }
echo ${line#* }
