#!/usr/bin/env bash
# Prints the seed folders of TARGET, from Fuzz/seeds.txt (relative to the repository root);
# with --targets, the names of all targets.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $1 == --targets ]]; then grep -v '^#' Fuzz/seeds.txt | awk 'NF { print $1 }'; exit; fi
line=$(grep -E "^$1 " Fuzz/seeds.txt) || { echo "unknown fuzz target: $1" >&2; exit 2; }
echo ${line#* }
