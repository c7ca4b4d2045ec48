#!/usr/bin/env python3
"""The public API's list and its check against the last release's (issue 96), beside
`swift package diagnose-api-breaking-changes`, which compares declarations but counts `package` ones as API and so
does not see a public declaration made `package` (or internal).

    Scripts/api_surface.py products
    Scripts/api_surface.py list SYMBOLGRAPH_DIR > .ci/api/VERSION.symbols.txt
    Scripts/api_surface.py check SYMBOLGRAPH_DIR .ci/api/VERSION.symbols.txt .ci/api/allowed-breaks.txt CHANGELOG.md \
        [DIGESTER_LOG]

`products` names the public products; `list` writes one line per public declaration of the public products' modules
(`Module Path kind`), from the public symbol graphs Scripts/symbol-graphs.py writes. `check` fails when a
declaration of the release's list is gone and no line `removed: Module Path` of the allow-list names it or a type it
is a member of; and when a declaration the allow-list allows to break (a removed one, or one a line of the digester
names), by its path without arguments (`PageFetcher.init`, `PageSignals`), is not in the CHANGELOG's newest section:
every break is said there, with what to use instead. With the digester's output (DIGESTER_LOG), it fails on a
verdict about a declaration that was public in the release which the allow-list does not hold word for word;
verdicts about `package` declarations (the digester dumps them as API) are left out."""
import glob
import json
import os
import re
import sys

# The public products (each one module of the same name; the others are the package's own: no product, or a
# product named `_…`), and the modules whose API they re-export. `Scripts/check-api.sh` reads the products here.
PRODUCTS = ["DeskKitJSON", "DeskKitModel", "DeskKitSchemas", "DeskKitURL", "DeskKitLinks", "DeskKitCards",
            "DeskKitMetadata", "DeskKitPreview", "DeskKitJobStore", "DeskKitJobs", "DeskKitSharedPreviews",
            "DeskKitServer"]
PUBLIC = PRODUCTS + ["DeskKitFetchPolicy"]  # re-exported by DeskKitPreview and DeskKitMetadata


def declarations(folder):
    found = set()
    for path in glob.glob(os.path.join(folder, "*.symbols.json")):
        graph = json.load(open(path))
        module = graph["module"]["name"]
        if module not in PUBLIC or "@" in os.path.basename(path):
            continue
        for symbol in graph["symbols"]:
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            # Members a type only inherits (a protocol's default implementations, AsyncAlgorithms' on an
            # AsyncSequence) are declared elsewhere and are no promise of DeskKit's.
            uri = symbol.get("location", {}).get("uri", "")
            if kind == "extension" or not re.search(r"/Sources/DeskKit\w*/", uri) or "/checkouts/" in uri:
                continue
            found.add(f"{module} {'.'.join(symbol['pathComponents'])} {kind}")
    return found


def newest_section(changelog):
    text = open(changelog).read()
    sections = re.split(r"^## ", text, flags=re.M)
    return sections[1] if len(sections) > 1 else ""


def main():
    if sys.argv[1:] == ["products"]:
        print(" ".join(PRODUCTS))
        return
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, folder = sys.argv[1], sys.argv[2]
    now = declarations(folder)
    if not now:
        sys.exit(f"no public declarations in {folder}: run Scripts/symbol-graphs.py first")
    if command == "list":
        print("\n".join(sorted(now)))
        return
    release, allowlist, changelog = sys.argv[3:6]
    digester_log = sys.argv[6] if len(sys.argv) > 6 else None
    before = {line.strip() for line in open(release) if line.strip()}
    allowed_lines = [line.strip() for line in open(allowlist) if line.strip() and not line.startswith("#")]
    removals = {line.removeprefix("removed: ") for line in allowed_lines if line.startswith("removed: ")}
    section = newest_section(changelog)
    problems = []
    now_keys = {line.rsplit(" ", 1)[0] for line in now}
    for line in sorted(before):
        module_path = line.rsplit(" ", 1)[0]
        if module_path in now_keys:
            continue
        module, path = module_path.split(" ", 1)
        parts = path.split(".")
        if not any(f"{module} {'.'.join(parts[:n])}" in removals for n in range(1, len(parts) + 1)):
            problems.append(f"public in the release, gone now and not allowed: {module_path} "
                            f"(allow it with a line `removed: {module_path}` and say it in CHANGELOG.md)")
    # The digester's verdicts on declarations that were public in the release: it dumps `package` ones too, and a
    # change to what was never public breaks nobody.
    if digester_log:
        public_paths = {line.split(" ")[1] for line in before}
        for line in open(digester_log):
            match = re.search(r"(API breakage: \w+ ([^ ]+) .*)$", line.rstrip())
            if not match:
                continue
            verdict, path = match.group(1), match.group(2)
            if path not in public_paths:
                continue
            if verdict not in allowed_lines:
                problems.append(f"a break of a public declaration, not allowed: {verdict} (allow it with that line, "
                                f"word for word, and say it in CHANGELOG.md)")
    # The name CHANGELOG.md says: the declaration's path without its arguments (`PageFetcher.init`,
    # `RefusalCheck.isDeepLink`, `PageSignals`).
    names = set()
    for line in allowed_lines:
        if line.startswith("removed: "):
            names.add(line.split(" ")[2].split("(")[0])
        else:
            match = re.search(r"API breakage: \w+ ([A-Za-z_][A-Za-z0-9_.]*)", line)
            if match:
                names.add(match.group(1).rstrip("."))
    for name in sorted(names):
        if name not in section:
            problems.append(f"allowed to break but not named in CHANGELOG.md's newest section: {name}")
    for problem in problems:
        print(problem)
    print(f"{len(now)} public declarations now; {len(before)} in the release; "
          f"{len(before) - len({l.rsplit(' ', 1)[0] for l in before} & now_keys)} gone, all allowed and said"
          if not problems else f"{len(problems)} problem(s)", file=sys.stderr)
    sys.exit(1 if problems else 0)


main()
