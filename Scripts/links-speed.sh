#!/usr/bin/env bash
# Link detection in-process, DeskKit beside the Rust `linkify` crate, on the same chat lines in one run.
#
#   Scripts/links-speed.sh [LINES] [ROUNDS]     (defaults: 100000 lines, 3 rounds, alternated)
#
# The lines come from the team's corpus maker (../shared/tools/peers/make_chat_corpus.py); the Rust peer is
# Debian's librust-linkify-dev built offline by ../shared/tools/peers/rust/build.sh (it installs the crate's
# Debian packages). DeskKit: `deskkit-bench links --file F` (release build of Benchmarks/), then the same
# with --require-scheme. Each prints MB/s of text, one thread, warm.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-100000}
rounds=${2:-3}
shared=../shared/tools/peers
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$shared/make_chat_corpus.py" "$lines" > "$work/chat.jsonl"
speed=$(BUILD=.build/rust-linkify-peer bash "$shared/rust/build.sh" | tail -1)
swift build -c release --package-path Benchmarks --product deskkit-bench >&2
for _ in $(seq "$rounds"); do
    Benchmarks/.build/release/deskkit-bench links --file "$work/chat.jsonl"
    "$speed" < "$work/chat.jsonl" 2>&1  # it prints its figure on standard error
done
Benchmarks/.build/release/deskkit-bench links --file "$work/chat.jsonl" --require-scheme
