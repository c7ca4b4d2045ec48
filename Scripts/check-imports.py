#!/usr/bin/env python3
"""Every module a target's Swift files import is one its target declares (issue 77): a target of this package it
depends on, or a module of a product it names — not one that only happens to be built because another dependency
brings it. Reads `swift package describe --type json` for this package and for each package it resolved
(`.build/checkouts/*`, for which modules each product holds), and the sources. The toolchain's own modules
(Foundation, Synchronization, Testing…) need no declaration. Exits 1 naming each undeclared import and its file.

    Scripts/check-imports.py [PACKAGE_DIR …]   (default: this package; CI names Benchmarks, Fuzz, Examples/ChatClient too)
"""
import glob
import json
import os
import re
import subprocess
import sys

TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "Glibc", "Musl",
    "FoundationXML", "Darwin", "Dispatch", "Synchronization", "Testing", "XCTest", "_Concurrency", "os", "WinSDK", "Android",
    "CoreFoundation", "RegexBuilder", "Observation", "_StringProcessing", "WASILibc", "Swift",
}
IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def describe(directory):
    out = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=directory, capture_output=True,
                         text=True)
    if out.returncode != 0:
        sys.exit(f"swift package describe failed in {directory}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def product_modules(root, top):
    """Each product of the resolved packages (and this one's, and DeskKit's for a nested package) → the modules its
    targets are."""
    modules = {}
    for checkout in [root, top] + sorted(glob.glob(os.path.join(root, ".build/checkouts/*"))):
        if not os.path.exists(os.path.join(checkout, "Package.swift")):
            continue
        package = describe(checkout)
        c99 = {t["name"]: t.get("c99name", t["name"]) for t in package["targets"]}
        for product in package.get("products", []):
            modules.setdefault(product["name"], set()).update(c99.get(t, t) for t in product.get("targets", []))
    return modules


def check(root, top):
    package = describe(root)
    products = product_modules(root, top)
    c99 = {t["name"]: t.get("c99name", t["name"]) for t in package["targets"]}
    problems = []
    for target in package["targets"]:
        declared = {c99.get(target["name"], target["name"])}
        declared.update(c99.get(t, t) for t in target.get("target_dependencies") or [])
        for product in target.get("product_dependencies") or []:
            declared.update(products.get(product, {product}))
        for source in target.get("sources", []):
            if not source.endswith(".swift"):
                continue
            path = os.path.join(root, target["path"], source)
            text = open(path, encoding="utf-8").read()
            for match in IMPORT.finditer(text):
                module = match.group(1)
                if module in TOOLCHAIN or module in declared:
                    continue
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{os.path.relpath(path)}:{line}: {target['name']} imports {module}, which its "
                                f"target does not declare")
    return problems


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(here)
    roots = sys.argv[1:] or [top]
    problems = [p for root in roots for p in check(os.path.abspath(root), top)]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"imports: every module imported is declared ({', '.join(os.path.relpath(r, top) or '.' for r in roots)})")
