#!/usr/bin/env bash
# Builds one static documentation site for every library's DocC catalogue, viewable from a local folder.
#
#   Scripts/build-docs.sh [OUTPUT]      (default .build/docs-site)
#
# With DocC's combined documentation (swift-docc-plugin 1.4+ with Swift 6's docc) the site is one archive
# whose start page lists every module; where the toolchain lacks it, each module's archive is built into a
# folder of its own and OUTPUT/index.html links them. The pages are transformed for static hosting; open them
# through any static web server (`python3 -m http.server --directory OUTPUT`), since browsers do not run
# DocC's JavaScript from file:// URLs. CI checks the catalogues with Scripts/check-docs.sh.
set -euo pipefail
# The manifest adds swift-docc-plugin only when asked: no app that depends on DeskKit resolves it.
export DESKKIT_DOCS=1
cd "$(dirname "$0")/.."
out=${1:-.build/docs-site}
libraries=(DeskKitJSON DeskKitModel DeskKitURL DeskKitLinks DeskKitMetadata DeskKitPreview DeskKitCards DeskKitPageServer
  DeskKitJobStore DeskKitJobs DeskKitSharedPreviews DeskKitServer DeskKitInvariants)
targets=()
for library in "${libraries[@]}"; do targets+=(--target "$library"); done
rm -rf "$out"
mkdir -p "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if swift package --disable-sandbox --allow-writing-to-directory "$out" generate-documentation "${targets[@]}" \
  --enable-experimental-combined-documentation --transform-for-static-hosting --output-path "$out" > "$log" 2>&1
then
  echo "documentation: one combined site of ${#libraries[@]} modules in $out (index: $out/documentation/)"
  exit 0
fi
echo "combined documentation unavailable here; building each module" >&2
rm -rf "$out"
mkdir -p "$out"
links=""
for library in "${libraries[@]}"; do
  lower=$(echo "$library" | tr '[:upper:]' '[:lower:]')
  swift package --disable-sandbox --allow-writing-to-directory "$out/$library" generate-documentation \
    --target "$library" --transform-for-static-hosting --hosting-base-path "$library" \
    --output-path "$out/$library" > "$log" 2>&1 || { grep -Ev '^\[[0-9]+/[0-9]+\]' "$log"; exit 1; }
  links+="<li><a href=\"$library/documentation/$lower/\">$library</a></li>"
done
cat > "$out/index.html" <<HTML
<!doctype html><meta charset="utf-8"><title>DeskKit documentation</title>
<h1>DeskKit documentation</h1><ul>$links</ul>
HTML
echo "documentation: ${#libraries[@]} module archives and an index in $out/index.html"
