#!/usr/bin/env bash
# Shoots the operator's console (`deskkit serve`'s GET /console) in headless Chromium, against a running server on
# loopback with some traffic (Web/test/support/console-scene.mjs: webhooks, a Platform API that refuses one update,
# a good page, a login wall): docs/console-queue.png, docs/console-refusals.png, docs/console-inspect.png (1200 px
# wide, light) and docs/console-inspect-wall-dark.png (360 px, dark). Needs `apt-get install -y chromium` and Node.
#
#   Scripts/screenshot-console.sh
#
# DESKKIT names the binary (default .build/debug/deskkit, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "screenshot-console.sh needs Chromium: apt-get install -y chromium" >&2; exit 69; }
export DESKKIT=${DESKKIT:-$PWD/.build/debug/deskkit}
[ -x "$DESKKIT" ] || swift build --product deskkit
mkdir -p docs
node Scripts/screenshot-console.mjs docs
