#!/usr/bin/env bash
# Whole-process `deskkit extract --jsonl` against selectolax and lxml (in-process, which favours them), in one
# run, on the same pages. Prints each figure and the ratios.
#
#   Scripts/compare-extract.sh [DIR] [ROUNDS]     (default: ../shared/corpus/pages/readability, 4 rounds)
#
# DESKKIT=path picks the binary (default: swift build -c release, then .build/release/deskkit). The peers are
# installed from PyPI into a virtualenv at $PEERS (default .build/peers-venv) on first use. The machine is
# noisy: run it twice and compare the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/pages/readability}
rounds=${2:-4}
if [ -z "${DESKKIT:-}" ]; then
  swift build -c release --product deskkit >&2
  DESKKIT=$(swift build -c release --show-bin-path)/deskkit
fi
PEERS=${PEERS:-.build/peers-venv}
if [ ! -x "$PEERS/bin/python" ]; then
  python3 -m venv "$PEERS"
  "$PEERS/bin/pip" install -q selectolax lxml >&2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$dir" -maxdepth 1 -name '*.html' | sort > "$work/files"
count=$(wc -l < "$work/files")
[ "$count" -gt 0 ] || { echo "no .html files in $dir" >&2; exit 66; }
python3 -c '
import json, sys
for line in open(sys.argv[1]): print(json.dumps({"file": line.strip()}))' "$work/files" > "$work/pages.jsonl"
for _ in $(seq "$rounds"); do cat "$work/pages.jsonl"; done > "$work/rounds.jsonl"
"$DESKKIT" extract --jsonl "$work/pages.jsonl" > /dev/null   # warm the page cache
start=$(date +%s.%N)
"$DESKKIT" extract --jsonl "$work/rounds.jsonl" > /dev/null
end=$(date +%s.%N)
ours=$(python3 -c "print(round($count * $rounds / ($end - $start)))")
echo "deskkit extract --jsonl (whole process): $ours pages/s ($count files x $rounds)"
xargs -a "$work/files" -d '\n' "$PEERS/bin/python" Scripts/peers/extract_peers.py | tee "$work/peers"
while IFS= read -r line; do
  name=${line%%:*}
  rate=$(sed -n 's/^[^:]*: \([0-9]*\) pages.*/\1/p' <<< "$line")
  [ -n "$rate" ] && echo "ratio deskkit / $name: $(python3 -c "print(round($ours / $rate, 2))")x"
done < "$work/peers"
