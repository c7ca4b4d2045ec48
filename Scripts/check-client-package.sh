#!/usr/bin/env bash
# Builds Examples/ChatClient from clean — an app's package that depends on DeskKit as README's "Use it" says
# (`traits: []`) and uses DeskKitModel and DeskKitLinks — runs it, and fails when the build resolved any other
# package (Package.resolved lists one, or anything was checked out) or the app's output is not what it should be.
# Prints the clean build's time. Run from anywhere; CI runs it.
set -euo pipefail
cd "$(dirname "$0")/../Examples/ChatClient"
rm -rf .build Package.resolved
start=$(date +%s%N)
swift build --quiet
end=$(date +%s%N)
if [ -f Package.resolved ] && grep -q '"identity"' Package.resolved; then
  echo "the client products resolved other packages:" >&2
  grep '"identity"' Package.resolved >&2
  exit 1
fi
if [ -n "$(ls -A .build/checkouts 2>/dev/null)" ]; then
  echo "the client products checked out other packages: $(ls .build/checkouts)" >&2
  exit 1
fi
diff -u expected-output.txt <(swift run --quiet ChatClient)
ms=$(((end - start) / 1000000))
printf 'client package: no other package resolved; clean debug build in %d.%d s\n' $((ms / 1000)) $((ms % 1000 / 100))
