#!/usr/bin/env python3
"""Writes the public symbol graph of every Swift library of Sources/ into OUTPUT, from the modules the debug build
(`swift build --build-tests`, or `swift test`) already compiled: `swift-symbolgraph-extract` reads each module with the
search paths and C module maps its own compile command used (read from SwiftPM's build manifest, .build/debug.yaml).

    Scripts/symbol-graphs.py OUTPUT

Why not `swift package dump-symbol-graph`: SwiftPM 6.3 plans that command's build afresh and passes a package's trait
defines (-DPreviews -DCommand …) in the order of an unordered set, so every run recompiles most of the package
(about 400 files, one to one and a half minutes on 2 cores), and the documentation plugin does it again for each
catalogue (swiftlang/swift-package-manager#10525, fixed after 6.3). Reading the build the tests made takes seconds.
Extension blocks are emitted (`swift.extension` symbols), as the documentation plugin asks."""
import json
import os
import re
import subprocess
import sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
output = sys.argv[1]
describe = subprocess.run(["swift", "package", "describe", "--type", "json"], capture_output=True, text=True)
if describe.returncode != 0:
    sys.exit(f"swift package describe failed: {describe.stderr.strip()}")
libraries = [target["name"] for target in json.loads(describe.stdout)["targets"]
             if target["type"] == "library" and target.get("module_type") == "SwiftTarget"
             and target["path"].startswith("Sources/")]

manifest_path = ".build/debug.yaml"
if not os.path.exists(manifest_path):
    sys.exit(f"no {manifest_path}: build first (swift build --build-tests)")
manifest = open(manifest_path).read()
# The flags that find a module's dependencies: import paths, C module maps and headers, the target, the module cache.
WITH_VALUE = {"-I", "-target", "-module-cache-path", "-Xcc"}
os.makedirs(output, exist_ok=True)
failed = []
for name in libraries:
    command = re.search(r'^\s*args: (\["[^"]*swiftc","-module-name","%s",.*\])$' % re.escape(name), manifest, re.M)
    if command is None:
        sys.exit(f"{manifest_path} has no compile command for {name}: build first (swift build --build-tests)")
    args = json.loads(command.group(1))
    extractor = os.path.join(os.path.dirname(args[0]), "swift-symbolgraph-extract")
    flags, index = [], 1
    while index < len(args):
        if args[index] in WITH_VALUE and index + 1 < len(args):
            flags += args[index:index + 2]
            index += 2
            continue
        if args[index].startswith("-I"):
            flags.append(args[index])
        index += 1
    run = subprocess.run([extractor, "-module-name", name, "-minimum-access-level", "public",
                          "-emit-extension-block-symbols", "-output-dir", output] + flags,
                         capture_output=True, text=True)
    if run.returncode != 0:
        failed.append(f"{name}: {run.stderr.strip()}")
if failed:
    sys.exit("swift-symbolgraph-extract failed:\n" + "\n".join(failed))
print(f"symbol graphs of {len(libraries)} modules in {output}", file=sys.stderr)
