#!/usr/bin/env bash
# Builds the libFuzzer targets with AddressSanitizer and runs one of them.
#
#   Fuzz/run.sh TARGET SECONDS [libFuzzer flags…]   fuzz TARGET (message-data, envelope, validate, links,
#                                                   extract, address, webhooks) for SECONDS
#   Fuzz/run.sh all SECONDS [libFuzzer flags…]       every target, FUZZ_JOBS at once (default: one a core;
#                                                   each target is one single-threaded libFuzzer process, so
#                                                   each gets as many runs as alone); every target runs, the
#                                                   outputs are printed whole in turn at the end, and the exit
#                                                   status is non-zero if any of them found something
#
# New inputs go to Fuzz/.work/TARGET (not committed); Corpus/TARGET and the target's extra seed folders
# are read as seeds. A crash or a broken invariant is saved as Fuzz/.work/TARGET-crash-* and the run
# exits non-zero: minimise it (`-minimize_crash=1`), add it to Corpus/TARGET as finding-NAME, fix it.
#
# libFuzzer's progress lines (NEW, REDUCE, pulse, the new functions it reached) and its recommended dictionary
# are left out of the output unless FUZZ_VERBOSE=1; start-up, final statistics and every report of a finding
# are printed, and `all` ends by printing each finding's report again with its input (a CI log is often
# shown by its end).
# FUZZ_SEED=N fixes libFuzzer's random seed (Swift's per-process hashing still makes runs differ).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?target}
seconds=${2:-60}
shift 2 || true

Fuzz/build.sh

quiet() {
    if [[ ${FUZZ_VERBOSE:-0} == 1 ]]; then
        cat
    else
        awk '/^###### Recommended dictionary/ { skip = 1 }
             !skip && !/^#[0-9]+\t(NEW|REDUCE|pulse) / && !/^\tNEW_FUNC/ { print; fflush() }
             /^###### End of recommended dictionary/ { skip = 0 }'
    fi
}

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
        -print_final_stats=1 -artifact_prefix="Fuzz/.work/$t-" ${FUZZ_SEED:+-seed=$FUZZ_SEED} "${dict[@]}" "$@" \
        "$work" $(Fuzz/seeds.sh "$t") 2>&1 | tee "Fuzz/.work/$t.log" | quiet
}

# What a finding of TARGET was: the reports in its log and each saved input (base64, first 4 KB).
report() {
    local t=$1
    echo "== finding in $t:"
    grep -E 'ERROR|SUMMARY|Fatal error|fatal error|leak|deadly|out-of-memory|Test unit written|^Base64' \
        "Fuzz/.work/$t.log" | head -40 || true
    for input in Fuzz/.work/"$t"-*; do
        [[ -f $input ]] || continue
        echo "-- $input ($(wc -c < "$input") bytes): $(head -c 4096 "$input" | base64 -w0)"
    done
}

if [[ $target == all ]]; then
    mapfile -t targets < <(Fuzz/seeds.sh --targets)
    at_once=${FUZZ_JOBS:-$(nproc)}
    # Each target in a background job writing its (filtered) output and exit status to Fuzz/.work/TARGET.out
    # and .status; the outputs are printed in the targets' order once all have ended.
    for t in "${targets[@]}"; do
        while (($(jobs -rp | wc -l) >= at_once)); do wait -n || true; done
        mkdir -p Fuzz/.work
        (
            status=0
            run_one "$t" "$@" >"Fuzz/.work/$t.out" 2>&1 || status=$?
            echo "$status" >"Fuzz/.work/$t.status"
        ) &
    done
    wait
    failed=()
    for t in "${targets[@]}"; do
        cat "Fuzz/.work/$t.out"
        status=$(cat "Fuzz/.work/$t.status")
        if ((status != 0)); then failed+=("$t (exit $status)"); fi
    done
    if ((${#failed[@]} > 0)); then
        for f in "${failed[@]}"; do report "${f%% *}"; done
        echo "fuzzing found something in: ${failed[*]}; the inputs are in Fuzz/.work/" >&2
        exit 1
    fi
else
    run_one "$target" "$@"
fi
