#!/usr/bin/env bash
# Renders the page of `deskkit demo --html` with headless Chromium, one pair of pictures for each interface
# language named (default: en ru zh-Hans): docs/demo-customer.png and docs/demo-agent.png for English, the
# pictures at the top of the README, and docs/demo-customer-<tag>.png, docs/demo-agent-<tag>.png for the
# others. Needs `apt-get install -y chromium fonts-noto-cjk` (real CJK fonts for the Chinese interface and
# the Japanese card).
#
#   Scripts/screenshot-demo.sh [TAG…]
#
# DESKKIT names the binary (default: the release build, built when missing); HEIGHT the pictures' height.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "screenshot-demo.sh needs Chromium: apt-get install -y chromium fonts-noto-cjk" >&2; exit 69; }
DESKKIT=${DESKKIT:-.build/release/deskkit}
[ -x "$DESKKIT" ] || swift build -c release --product deskkit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p docs
for tag in "${@:-en ru zh-Hans}"; do
  for lang in $tag; do
    "$DESKKIT" demo --lang "$lang" --html "$work/demo-$lang.html" 2>/dev/null
    suffix=$([ "$lang" = en ] && echo "" || echo "-$lang")
    for view in customer agent; do
        # The page shows one view alone when its address names it (#customer, #agent).
        chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
            --user-data-dir="$work/profile" --window-size="520,${HEIGHT:-1800}" \
            --screenshot="docs/demo-$view$suffix.png" "file://$work/demo-$lang.html#$view" >/dev/null 2>&1
        echo "docs/demo-$view$suffix.png"
    done
  done
done
