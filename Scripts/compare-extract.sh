#!/usr/bin/env bash
# Whole-process `deskkit extract --jsonl` against selectolax and lxml (in-process, which favours them), in one
# run, on the same pages. Prints each figure and the ratios, then the floor under extraction's time: libxml2
# alone on what deskkit gives it.
#
#   Scripts/compare-extract.sh [DIR] [ROUNDS]     (default: ../shared/corpus/pages/readability, 4 rounds)
#
# DESKKIT=path picks the binary (default: swift build -c release, then .build/release/deskkit). The peers are
# installed from PyPI into a virtualenv at $PEERS (default .build/peers-venv) on first use. The machine is
# noisy: run it twice and compare the ratios.
#
# The floor: for each page, deskkit tells how far it read (bytes_parsed); that prefix, without the text of
# scripts and styles (which deskkit skips before libxml2, JSON-LD kept; cut here with a regular expression,
# close to what its skipper does), is push-parsed by libxml2 with SAX callbacks that do nothing and the
# options deskkit uses (Scripts/libxml2-floor.c, built with gcc against the system's libxml2; skipped
# without gcc). No work around the mandated parser can make extraction faster than that, on one core.
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
command -v gcc > /dev/null || { echo "no gcc: the libxml2 floor is not measured"; exit 0; }
gcc -O2 Scripts/libxml2-floor.c -o "$work/floor" $(pkg-config --cflags --libs libxml-2.0)
"$DESKKIT" extract --jsonl --threads 1 "$work/pages.jsonl" > "$work/read.jsonl"
mkdir "$work/given"
python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
files = [l.strip() for l in open(f"{work}/files")]
given = read = 0
for n, (path, line) in enumerate(zip(files, open(f"{work}/read.jsonl"))):
    page = open(path, "rb").read()[: json.loads(line).get("bytes_parsed", 0)]
    read += len(page)
    keep = lambda m: m.group(0) if b"ld+json" in m.group(1).lower() else m.group(1) + b"</" + m.group(2)
    page = re.sub(rb"(<(script|style)\b[^>]*>).*?</\2", keep, page, flags=re.S | re.I)
    given += len(page)
    open(f"{work}/given/{n:05d}.html", "wb").write(page)
print(f"deskkit reads {read // len(files) // 1024} KiB a page on average; libxml2 gets {given // len(files) // 1024} KiB of it")
PY
floor=$("$work/floor" "$work"/given/*.html)
echo "$floor"
a=$(sed -n 's/.* \([0-9]*\) pages\/s.*/\1/p' <<< "$floor")
b=$(sed -n 's/^selectolax[^:]*: \([0-9]*\) pages.*/\1/p' "$work/peers")
echo "ratio libxml2 alone (one core) / selectolax: $(python3 -c "print(round($a / $b, 2))")x"
