#!/usr/bin/env bash
# Builds one static documentation site of every library's DocC catalogue: the archives Scripts/check-docs.sh
# builds and checks (every catalogue under Sources/, from the modules the debug build compiled), merged by the
# toolchain's `docc merge` into one archive whose start page lists every module.
#
#   Scripts/build-docs.sh [OUTPUT]      (default .build/docs-site)
#
# Open it through any static web server (`python3 -m http.server --directory OUTPUT`, then /documentation/):
# browsers do not run DocC's JavaScript from file:// URLs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs-site}
archives=$(mktemp -d)
trap 'rm -rf "$archives"' EXIT
Scripts/check-docs.sh "$archives"
rm -rf "$out"
docc=$(dirname "$(command -v swift)")/docc
"$docc" merge "$archives"/*.doccarchive --synthesized-landing-page-name DeskKit --output-path "$out" > "$archives/merge.log" 2>&1 \
  || { cat "$archives/merge.log" >&2; exit 1; }
echo "documentation: one site of $(ls -d "$archives"/*.doccarchive | wc -l) modules in $out (index: $out/documentation/)"
