#!/usr/bin/env bash
# The public products' API against the last release (issue 96; CONTRIBUTING.md, "The public API"). Two checks, and a
# break either finds must be allowed in .ci/api/allowed-breaks.txt — the reviewed list of the next version's breaks —
# and named in CHANGELOG.md's newest section:
#   1. `swift package diagnose-api-breaking-changes RELEASE` for the public products: what changed in a declaration
#      that stays (a parameter, a default argument, a conformance, a protocol's requirement); its verdicts on what was
#      `package` in the release are left out (it dumps those declarations as API too).
#   2. Scripts/api_surface.py: which public declarations of the release are gone. The digester dumps `package`
#      declarations as if they were API, so a declaration made `package` or internal is a break only this sees.
# The release's API comes with the repository (.ci/api/RELEASE.tar.gz, the digester's dumps; RELEASE.symbols.txt,
# the list): the check builds nothing but this tree's debug build, which `swift test` has made (about 1.5 minutes).
# After a release: `Scripts/check-api.sh --record VERSION` (tag VERSION first) writes both from the tag's tree,
# which it builds once (about 8 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a products <<<"$(python3 Scripts/api_surface.py products)"
dumps=.build/api-baseline

if [ "${1:-}" = "--record" ]; then
  release=${2:?usage: Scripts/check-api.sh --record VERSION}
  commit=$(git rev-parse --verify "refs/tags/$release^{commit}")
  rm -rf "$dumps"
  swift package diagnose-api-breaking-changes "$release" --baseline-dir "$dumps" --products "${products[@]}" \
    --regenerate-baseline >/dev/null || true
  tar -C "$dumps/$commit" -cf - . | gzip -9 >".ci/api/$release.tar.gz"
  echo "$commit" >".ci/api/$release.commit"
  checkout=.build/$(uname -m)-unknown-linux-gnu/apidiff/$commit-checkout
  ln -sf ../debug.yaml "$checkout/.build/debug.yaml"
  (cd "$checkout" && python3 "$OLDPWD/Scripts/symbol-graphs.py" "$OLDPWD/.build/api-release-symbolgraph")
  Scripts/api_surface.py list .build/api-release-symbolgraph >".ci/api/$release.symbols.txt"
  echo "recorded $release ($commit): .ci/api/$release.tar.gz, .ci/api/$release.symbols.txt"
  exit 0
fi

release=$(ls .ci/api/*.commit | sed 's|.*/||; s|\.commit$||' | sort -V | tail -1)
commit=$(cat ".ci/api/$release.commit")
# The digester names its baseline by the commit it resolves the tree-ish to. A clone without the tag (a shallow
# one) compares HEAD's directory, which holds the same dumps: the release's.
if [ "$(git rev-parse -q --verify "refs/tags/$release^{commit}" || true)" = "$commit" ]; then
  treeish=$release
else
  echo "note: no tag $release at $commit in this clone; comparing with the recorded dumps of $release"
  treeish=HEAD
  commit=$(git rev-parse HEAD)
fi
rm -rf "${dumps:?}/$commit" && mkdir -p "$dumps/$commit"
tar -C "$dumps/$commit" -xzf ".ci/api/$release.tar.gz"
echo "== the API against $release: declarations (swift package diagnose-api-breaking-changes)"
# It exits 1 on any break, `package` declarations' too (it dumps them as API): the verdicts are judged below.
swift package diagnose-api-breaking-changes "$treeish" --baseline-dir "$dumps" --products "${products[@]}" \
  >"$dumps/digester.log" 2>&1 || true
grep -q -e 'breaking change' -e 'No breaking changes' "$dumps/digester.log" || {
  cat "$dumps/digester.log"
  exit 1
}
grep -e 'API breakage' "$dumps/digester.log" || true
echo "== the verdicts on what was public, and the public declarations gone (Scripts/api_surface.py)"
python3 Scripts/symbol-graphs.py "$dumps/symbolgraph"
Scripts/api_surface.py check "$dumps/symbolgraph" ".ci/api/$release.symbols.txt" .ci/api/allowed-breaks.txt \
  CHANGELOG.md "$dumps/digester.log"
