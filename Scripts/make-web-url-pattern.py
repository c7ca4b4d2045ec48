#!/usr/bin/env python3
"""Writes the pattern of `web-url` in Sources/DeskKitSchemas/Schemas/common.json (and its copy in Web/schemas/)
from DeskKit's one URL rule, so that the schema states the rule the code applies. The character sets are read out
of `URLSafety` itself: the characters refused anywhere from the `case` ranges of `isInvisible`
(Sources/DeskKitModel/Payloads/URLSafety.swift), and those a host may hold, and may begin a label with, from the
answers of `deskkit card --urls` on every code point in a host (the rule reads Unicode's general categories from
the Swift standard library, whose version this script cannot know otherwise). The grammar around them — the host's
ASCII bytes, IPv4 without other spellings, IPv6, the port — is the one `URLSafety.problem(with:)` walks.

What a pattern cannot state is left to DeskKit's validation, and the schema's description says so: an `xn--`
label's decoded form (punycode) and the bidi rule across the labels of a host with a right-to-left one.
Scripts/check_schemas.py compares the two on Corpus/urls and on generated and mutated payloads.

    Scripts/make-web-url-pattern.py        (DESKKIT names the binary; default .build/debug/deskkit)
"""
import json
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.path.join(ROOT, "Sources", "DeskKitModel", "Payloads", "URLSafety.swift")
SCHEMAS = [os.path.join(ROOT, "Sources", "DeskKitSchemas", "Schemas", "common.json"),
           os.path.join(ROOT, "Web", "schemas", "common.json")]
# Bytes of ASCII a host name may not hold: all but letters, digits, '-' and '_' ('.' separates labels).
ASCII_NOT_HOST = [(0, 0x2C), (0x2E, 0x2F), (0x3A, 0x40), (0x5B, 0x5E), (0x60, 0x60), (0x7B, 0x7F)]
DESKKIT = os.environ.get("DESKKIT", os.path.join(ROOT, ".build", "debug", "deskkit"))
# A right-to-left letter (ARABIC LETTER BEH): beside it, a character of a right-to-left script passes the bidi rule.
BEH = "\u0628"


def swift_ranges(function):
    """The scalar ranges of the `case` that answers true in `URLSafety.<function>(_:)`."""
    source = open(SWIFT, encoding="utf-8").read()
    body = re.search(r"static func " + function + r"\(.*?switch s\.value \{\s*case (.*?):\s*return true", source, re.S)
    ranges = []
    for part in body.group(1).split(","):
        bounds = [int(b, 16) for b in part.strip().split("...")]
        ranges.append((bounds[0], bounds[-1]))
    return ranges


def safe(urls):
    """`deskkit card --urls`' verdict on each URL."""
    lines = "".join(json.dumps(u) + "\n" for u in urls).encode()
    out = subprocess.run([DESKKIT, "card", "--urls", "-"], input=lines, capture_output=True, check=True).stdout
    return [json.loads(line)["safe"] for line in out.splitlines()]


def ranges_of(codes):
    ranges = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1] = (ranges[-1][0], c)
        else:
            ranges.append((c, c))
    return ranges


def host_characters():
    """The non-ASCII characters refused anywhere in a host, and the allowed ones no label may begin with: each
    code point tried inside a label between two letters of each direction (one of them passes the bidi rule for a
    character a host may hold) and then first, before a letter of each direction."""
    codes = [c for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF]
    inside = [f"http://{a}{chr(c)}{a}.com/" for c in codes for a in ("a", BEH)]
    verdicts = safe(inside)
    allowed = [c for i, c in enumerate(codes) if verdicts[2 * i] or verdicts[2 * i + 1]]
    verdicts = safe([f"http://{chr(c)}{a}.com/" for c in allowed for a in ("a", BEH)])
    not_first = [c for i, c in enumerate(allowed) if not (verdicts[2 * i] or verdicts[2 * i + 1])]
    allowed_set = set(allowed)
    return ranges_of([c for c in range(0x80, 0x110000) if c not in allowed_set]), ranges_of(not_first)


def char(c):
    return "\\u%04X" % c if c < 0x10000 else chr(c)


def char_class(ranges):
    return "".join(char(a) if a == b else char(a) + "-" + char(b) for a, b in ranges)


def ipv6():
    """RFC 4291's text forms: eight groups, or fewer around one '::', the last two possibly an IPv4 address."""
    h = "[0-9A-Fa-f]{1,4}"

    def groups(n):
        return "" if n == 0 else h if n == 1 else f"{h}(?::{h}){{{n - 1}}}"

    alternatives = [f"(?:{h}:){{6}}(?:{h}:{h}|{IPV4})"]
    for head in range(8):
        tails = [groups(t) for t in range(1, 8 - head)]
        tails += [(groups(t) + ":" if t else "") + IPV4 for t in range(6 - head)]  # an IPv4 address is two groups
        alternatives.append(f"{groups(head)}::(?:{'|'.join(tails)})?")
    return "(?:" + "|".join(alternatives) + ")"


OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
IPV4 = f"(?:{OCTET}\\.){{3}}{OCTET}"


def pattern(refused, not_first):
    invisible = char_class(swift_ranges("isInvisible"))
    host_char = "[^" + char_class(ASCII_NOT_HOST) + char_class(refused) + "]"
    combining = "[" + char_class(not_first) + "]"
    numeric = "(?:[0-9]+|0[xX][0-9A-Fa-f]*)"
    # A name whose last label is a number is an IPv4 address to a browser: only the four-number form passes.
    name = (f"(?!(?:{host_char}+\\.)*{numeric}\\.?(?:[:/?#]|(?![\\s\\S])))"
            f"(?!{combining}){host_char}+(?:\\.(?!{combining}){host_char}+)*\\.?")
    port = "(?::0*(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?)?"
    return (f"^[hH][tT][tT][pP][sS]?://(?:\\[{ipv6()}\\]|{IPV4}|{name}){port}"
            f"(?:[/?#][^{invisible}]*)?(?![\\s\\S])")


def main():
    refused, not_first = host_characters()
    text = pattern(refused, not_first)
    for path in SCHEMAS:
        doc = json.load(open(path, encoding="utf-8"))
        doc["$defs"]["web-url"]["pattern"] = text
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(f"web-url: a pattern of {len(text)} characters ({len(refused)} ranges refused in a host, "
          f"{len(not_first)} no label begins with) in {', '.join(os.path.relpath(p, ROOT) for p in SCHEMAS)}")


if __name__ == "__main__":
    main()
