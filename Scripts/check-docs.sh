#!/usr/bin/env bash
# Checks the API documentation: every public declaration of Sources/ has a `///` comment, and every library's
# DocC catalogue builds without a warning (a symbol link that does not resolve, an article not curated…).
# Run from the repository root; CI runs it after the tests.
#
# It reads the modules the debug build compiled (by `swift test` or `swift build --build-tests`; it builds only when a
# source is newer than that build, since each of those commands plans afresh and recompiles most of the package,
# swiftlang/swift-package-manager#10525): their symbol graphs come from `swift-symbolgraph-extract`
# (Scripts/symbol-graphs.py) and each catalogue is converted by the toolchain's `docc` with `--warnings-as-errors`,
# as the documentation plugin would.
#
#   Scripts/check-docs.sh [ARCHIVES]    keeps each catalogue's archive in ARCHIVES (Scripts/build-docs.sh merges them)
set -euo pipefail
# Every library with a catalogue: Sources/NAME/Documentation.docc.
libraries=()
for catalogue in Sources/*/Documentation.docc; do libraries+=("$(basename "$(dirname "$catalogue")")"); done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
archives=${1:-$work}
mkdir -p "$archives"
if [ ! -f .build/debug.yaml ] || [ -n "$(find Sources -name '*.swift' -newer .build/debug.yaml -print -quit)" ]; then
  swift build --build-tests > "$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
fi
graphs=.build/docs-symbolgraph
rm -rf "$graphs"
python3 Scripts/symbol-graphs.py "$graphs"
python3 Scripts/undocumented.py "$graphs"

docc=$(dirname "$(command -v swift)")/docc
for library in "${libraries[@]}"; do
  # A catalogue's own module only: its graph and those of its extensions to other modules' types.
  mkdir -p "$work/$library"
  cp "$graphs/$library.symbols.json" "$work/$library/"
  find "$graphs" -name "$library@*.symbols.json" -exec cp {} "$work/$library/" \;
  if ! "$docc" convert "Sources/$library/Documentation.docc" --additional-symbol-graph-dir "$work/$library" \
    --fallback-display-name "$library" --fallback-bundle-identifier "$library" --warnings-as-errors \
    --enable-experimental-external-link-support --output-path "$archives/$library.doccarchive" \
    > "$work/$library.log" 2>&1; then
    echo "$library: the catalogue does not build without warnings" >&2
    cat "$work/$library.log" >&2
    exit 1
  fi
done
echo "documentation: every public declaration documented, ${#libraries[@]} catalogues built without warnings"
