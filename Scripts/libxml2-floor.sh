#!/usr/bin/env bash
# How fast libxml2 alone reads what `deskkit extract` gives it, against selectolax on the whole pages, in one
# run: the floor under extraction's time (the mandated parser's own work), to read beside DeskKit's figures.
#
#   Scripts/libxml2-floor.sh [DIR]      (default: ../shared/corpus/pages/readability)
#
# For each page, deskkit extract tells how far it read (bytes_parsed); that prefix, without the text of
# scripts and styles (which DeskKit skips before libxml2, JSON-LD kept; cut here with a regular expression,
# close to what the skipper does), is what libxml2 is timed on: push-parsed with SAX callbacks that do
# nothing (Scripts/libxml2-floor.c, built with gcc against the system's libxml2). DESKKIT=path picks the
# binary; the peers come from the virtualenv of Scripts/compare-extract.sh. Noisy machine: run it twice.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/pages/readability}
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
gcc -O2 Scripts/libxml2-floor.c -o "$work/floor" $(pkg-config --cflags --libs libxml-2.0)
find "$dir" -maxdepth 1 -name '*.html' | sort > "$work/files"
python3 -c '
import json, sys
for line in open(sys.argv[1]): print(json.dumps({"file": line.strip()}))' "$work/files" > "$work/pages.jsonl"
"$DESKKIT" extract --jsonl --threads 1 "$work/pages.jsonl" > "$work/read.jsonl"
mkdir "$work/given"
python3 - "$work" <<'PY'
import json, os, re, sys
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
peer=$(xargs -a "$work/files" -d '\n' "$PEERS/bin/python" Scripts/peers/extract_peers.py | grep '^selectolax')
echo "$peer (the whole pages)"
a=$(sed -n 's/.* \([0-9]*\) pages\/s.*/\1/p' <<< "$floor")
b=$(sed -n 's/^[^:]*: \([0-9]*\) pages.*/\1/p' <<< "$peer")
echo "libxml2 alone / selectolax: $(python3 -c "print(round($a / $b, 2))")x (one core each)"
