#!/usr/bin/env bash
# Checks the API documentation: every public declaration of Sources/ has a `///` comment, and every library's
# DocC catalogue builds without a warning (a symbol link that does not resolve, an article not curated…).
# Run from the repository root; CI runs it after the tests.
set -euo pipefail
# The manifest adds swift-docc-plugin only when asked: no app that depends on DeskKit resolves it.
export DESKKIT_DOCS=1
libraries=(DeskKitJSON DeskKitModel DeskKitSchemas DeskKitURL DeskKitLinks DeskKitMetadata DeskKitPreview DeskKitCards DeskKitPageServer
  DeskKitJobStore DeskKitJobs DeskKitSharedPreviews DeskKitServer DeskKitInvariants)

graphs=.build/docs-symbolgraph
rm -rf "$graphs"
swift package dump-symbol-graph --minimum-access-level public > /dev/null
mkdir -p "$graphs"
cp "$(swift build --show-bin-path)"/../symbolgraph/*.symbols.json "$graphs"/
python3 Scripts/undocumented.py "$graphs"

targets=()
for library in "${libraries[@]}"; do targets+=(--target "$library"); done
log=$(mktemp)
if ! swift package --disable-sandbox generate-documentation "${targets[@]}" --warnings-as-errors > "$log" 2>&1; then
  grep -Ev '^\[[0-9]+/[0-9]+\]' "$log"
  exit 1
fi
rm -f "$log"
echo "documentation: every public declaration documented, ${#libraries[@]} catalogues built without warnings"
