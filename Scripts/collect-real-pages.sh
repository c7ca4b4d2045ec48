#!/usr/bin/env bash
# Copies the real-world pages of Corpus/html/real/ from Debian documentation packages and writes
# SOURCES.md with each page's origin and licence. Needs: apt-get install python3.11-doc git-doc
# postgresql-doc-15 apache2-doc. Run from the repository root.
set -euo pipefail
out=Corpus/html/real
mkdir -p "$out"
sources="$out/SOURCES.md"
{
  echo "# Real-world pages for the extraction benchmark"
  echo
  echo "Copied unchanged by \`Scripts/collect-real-pages.sh\` from Debian documentation packages (and one page"
  echo "from the extruct test suite). Each line: file, source, licence."
  echo
  echo "| file | source | licence |"
  echo "|---|---|---|"
} > "$sources"
copy() { # src name package licence
  cp "$1" "$out/$2"
  echo "| $2 | Debian \`$3\`: ${1#/usr/share/doc/} | $4 |" >> "$sources"
}
py=/usr/share/doc/python3.11/html/library
for p in functions stdtypes asyncio-task re datetime typing argparse unittest.mock os subprocess logging collections sqlite3 socket ssl; do
  copy "$py/$p.html" "python-$p.html" python3.11-doc "PSF-2.0"
done
git=/usr/share/doc/git-doc
for p in git-config user-manual git-log git-rev-list git-diff-tree git-show git git-diff git-fast-import gitcore-tutorial git-rebase MyFirstContribution; do
  copy "$git/$p.html" "git-$p.html" git-doc "GPL-2.0"
done
pg=/usr/share/doc/postgresql-doc-15/html
for p in app-psql monitoring-stats functions-info functions-admin pgbench release-15 glossary functions-matching sql-select sql-keywords-appendix functions-json libpq-connect; do
  copy "$pg/$p.html" "postgresql-$p.html" postgresql-doc-15 "PostgreSQL"
done
ap=/usr/share/doc/apache2-doc/manual
for p in en/mod/core ja/mod/core ko/mod/core fr/mod/core de/mod/core en/mod/mod_rewrite fr/mod/mod_rewrite en/mod/mod_ssl en/mod/directives en/mod/quickreference; do
  copy "$(readlink -f "$ap/$p.html")" "apache-${p//\//-}.html" apache2-doc "Apache-2.0"
done
cp Tests/DeskKitMetadataTests/Fixtures/og/files/extruct__tests__samples__misc__opengraph_ns_product_test.html "$out/fye-product.html"
echo "| fye-product.html | scrapinghub/extruct tests/samples/misc/opengraph_ns_product_test.html (a saved fye.com product page) | BSD-3-Clause (test suite) |" >> "$sources"
ls "$out"/*.html | wc -l
