#!/usr/bin/env python3
"""Lists the public declarations of Sources/ that have no `///` comment, from the public symbol graphs in
SYMBOLGRAPH_DIR (Scripts/symbol-graphs.py writes them), and exits 1 if there is any.

Usage: Scripts/undocumented.py SYMBOLGRAPH_DIR
Declarations a module only inherits (a protocol's default implementations) have no location in Sources/
and are not counted; enum cases, members and extensions' members are. An extension block of another module's type
(a `swift.extension` symbol) is a grouping, not a declaration: its members are counted, it is not."""
import glob
import json
import os
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else ".build/docs-symbolgraph"
sources = "file://" + os.path.abspath("Sources") + "/"
total, missing = 0, []
for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if not uri.startswith(sources) or symbol["kind"]["identifier"] == "swift.extension":
            continue
        total += 1
        lines = (symbol.get("docComment") or {}).get("lines", [])
        if not "".join(line["text"] for line in lines).strip():
            where = uri[len(sources):] + ":" + str(symbol["location"]["position"]["line"] + 1)
            missing.append(f"{where}: {'.'.join(symbol['pathComponents'])}")
for line in sorted(set(missing)):
    print(line)
documented = total - len(set(missing))
print(f"{documented} of {total} public declarations documented", file=sys.stderr)
sys.exit(1 if missing or total == 0 else 0)
