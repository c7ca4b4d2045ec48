#!/usr/bin/env bash
# Renders the page of `deskkit demo --html` with headless Chromium: docs/demo-customer.png and
# docs/demo-agent.png, the pictures at the top of the README. Needs `apt-get install -y chromium fonts-noto-cjk`
# (the second for the Japanese card).
# DESKKIT names the binary (default: the release build, built when missing); HEIGHT the pictures' height.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "screenshot-demo.sh needs Chromium: apt-get install -y chromium fonts-noto-cjk" >&2; exit 69; }
DESKKIT=${DESKKIT:-.build/release/deskkit}
[ -x "$DESKKIT" ] || swift build -c release --product deskkit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$DESKKIT" demo --html "$work/demo.html"
mkdir -p docs
for view in customer agent; do
    # The page shows one view alone when its address names it (#customer, #agent).
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --user-data-dir="$work/profile" --window-size="520,${HEIGHT:-1800}" \
        --screenshot="docs/demo-$view.png" "file://$work/demo.html#$view" 2>/dev/null
    echo "docs/demo-$view.png"
done
