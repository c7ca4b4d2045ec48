#!/usr/bin/env bash
# Prints the path of the built fuzz binary of TARGET (message-data → FuzzMessageData).
set -euo pipefail
cd "$(dirname "$0")"
name=$(echo "$1" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2) }')
echo "Fuzz/.build/release/Fuzz$name"
