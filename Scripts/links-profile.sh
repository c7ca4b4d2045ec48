#!/usr/bin/env bash
# Where link detection spends its instructions: callgrind counts them repeatably on a noisy machine.
#
#   Scripts/links-profile.sh [LINES] [BENCH] [-- deskkit-bench flags…]
#
# Makes LINES chat lines (default 20000, ../shared/tools/peers/make_chat_corpus.py) and runs
# `deskkit-bench links --file F` under callgrind twice, counting only inside LinkDetector.links(in:): with one
# pass and with four. The difference over three is one warm pass — start-up, the first pass's one-time work
# (the TLD table) and reading the file are left out. Prints the total a pass and the functions that take
# most of it (self cost). BENCH is a deskkit-bench binary (default: the release build of Benchmarks/, built
# first), so that two builds can be compared. Needs valgrind (apt-get install valgrind).
#
# valgrind 3.19 cannot read the DWARF 5 debug information Swift writes: the binary is profiled from a copy
# without it (function names stay; for lines, build with -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4).
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-20000}
bench=${2:-}
shift $(($# > 2 ? 2 : $#))
[[ ${1:-} == -- ]] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z $bench ]]; then
    swift build -c release --package-path Benchmarks --product deskkit-bench >&2
    bench=Benchmarks/.build/release/deskkit-bench
fi
python3 ../shared/tools/peers/make_chat_corpus.py "$lines" > "$work/chat.jsonl"
objcopy --strip-debug "$bench" "$work/bench"
for passes in 1 4; do
    valgrind --tool=callgrind --toggle-collect='$s12DeskKitLinks12LinkDetectorV5links2inSayAA0D0VGSS_tF' \
        --callgrind-out-file="$work/cg.$passes" "$work/bench" links --file "$work/chat.jsonl" --passes "$passes" "$@" \
        > /dev/null 2>&1
    callgrind_annotate "$work/cg.$passes" > "$work/self.$passes" 2> /dev/null
done
python3 - "$work" "$lines" << 'EOF'
import re, subprocess, sys
work, lines = sys.argv[1], int(sys.argv[2])
def costs(path):
    out = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(\S.*?)(?: \[.*\])?$", line)
        if m and ":" in m.group(2):
            name = m.group(2).split(":", 1)[1]
            out[name] = out.get(name, 0) + int(m.group(1).replace(",", ""))
    return out
one, four = costs(f"{work}/self.1"), costs(f"{work}/self.4")
rows = sorted(((four.get(k, 0) - one.get(k, 0)) / 3, k) for k in set(one) | set(four))[::-1]
total = sum(r for r, _ in rows)
top = [(r, k) for r, k in rows[:20] if r > 0]
names = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(k for _, k in top),
                       capture_output=True, text=True).stdout.splitlines()
print(f"{total / 1e6:.2f} M instructions a pass over {lines} lines ({total / lines:.0f} a line); by function:")
for (r, _), name in zip(top, names):
    name = name.replace("DeskKitLinks.", "")[:120]
    print(f"{r / 1e6:8.3f} M {100 * r / total:5.1f} %  {name}")
EOF
