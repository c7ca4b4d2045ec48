#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer and runs one of them.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags…]   fuzz TARGET (message-data, envelope, validate, links,
#                                                   extract, address, webhooks) for SECONDS
#   Fuzz/run.sh all SECONDS                          each target in turn
#
# FUZZ_SEED=N fixes libFuzzer's random seed (CI uses 1, so a run repeats what was tried here).
# New inputs go to Fuzz/.work/TARGET (not committed); Corpus/TARGET and the target's extra seed folders
# are read as seeds. A crash or a broken invariant is saved as Fuzz/.work/TARGET-crash-* and the run
# exits non-zero: minimise it (`-minimize_crash=1`), add it to Corpus/TARGET as finding-NAME, fix it.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target}
seconds=${2:-60}
shift 2 || true

Fuzz/build.sh

run_one() {
    local t=$1
    shift
    local binary work
    binary=$(Fuzz/binary.sh "$t")
    work=Fuzz/.work/$t
    mkdir -p "$work"

    local dict=()
    case $t in
        extract) dict=(-dict=Fuzz/dicts/html.dict) ;;
        links | address) dict=(-dict=Fuzz/dicts/urls.dict) ;;
        *) dict=(-dict=Fuzz/dicts/json.dict) ;;
    esac
    echo "== $t: ${seconds}s"
    SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="Fuzz/.work/$t-" ${FUZZ_SEED:+-seed=$FUZZ_SEED} "${dict[@]}" "$@" "$work" $(Fuzz/seeds.sh "$t")
}

if [[ $target == all ]]; then
    for t in $(Fuzz/seeds.sh --targets); do run_one "$t" "$@"; done
else
    run_one "$target" "$@"
fi
