#!/usr/bin/env python3
"""Writes Corpus/urls/urls.jsonl: URL strings (one JSON string a line) on which DeskKit's one URL rule
(`URLSafety`), the web module's `safeURL`, the schemas' `web-url` and a browser's URL parser are compared
(Web/test/url-rule.test.mjs, Web/test/browser.test.mjs, Scripts/check_schemas.py).

Hostile spellings (schemes spelt around, controls, white space, zero-width and bidi characters at every place),
IDNs and punycode, look-alike hosts IDNA maps to others, IPv4 in every spelling a browser reads, IPv6, ports,
credentials, percent-encodings, relative, scheme-relative and backslash forms, and the real og:image, og:url and
twitter:image values of the pages in Corpus/ and ../shared/corpus/pages (when it is there), each also mutated.
Deterministic: the same file every run.

    Scripts/make-url-corpus.py          # writes the file and prints its count
"""
import json
import os
import random
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Corpus", "urls", "urls.jsonl")


def real_values():
    """og:image, og:url and twitter:image values of the pages kept in the repository (and shared/, when present)."""
    values = set()
    for top in [os.path.join(ROOT, "Corpus"), os.path.join(ROOT, "..", "shared", "corpus", "pages")]:
        for folder, _, names in os.walk(top):
            for name in sorted(names):
                try:
                    text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
                except OSError:
                    continue
                for tag in re.findall(r"<meta\b[^>]*>", text, re.I):
                    if re.search(r"(?:property|name)\s*=\s*[\"']?(?:og:image(?::url|:secure_url)?|og:url|twitter:image)\b",
                                 tag, re.I):
                        found = re.search(r"content\s*=\s*\"([^\"]*)\"|content\s*=\s*'([^']*)'", tag, re.I)
                        if found:
                            values.add(found.group(1) or found.group(2) or "")
    return sorted(values)


HOSTS = [
    "example.com", "EXAMPLE.COM", "www.example.co.uk", "sub-domain.example.org", "a_b.example.net", "example.com.",
    "xn--r8jz45g.jp", "例え.jp", "bücher.de", "xn--bcher-kva.de", "пример.рф", "مثال.إختبار", "δοκιμή.gr",
    "ｅｘａｍｐｌｅ.com", "example。com", "example．com", "ⓔxample.com", "ℯxample.com", "𝐞xample.com", "ex\uFB01.com",
    "exa\u2024mple.com", "example\u2215com", "example.com\u2044x", "x\u00B2.com", "xn--.com", "-example.com",
    "localhost", "127.0.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "127.1", "127.0.1", "0x7f.0.0.1",
    "0x7F000001", "2130706433", "0177.0.0.1", "01.2.3.4", "1.2.3.4.", "1.2.3.04", "1.2.3", "1.2.3.4.5", "0x",
    "example.0x1", "example.123", "123.example", "a..b", ".example.com", "example..com", "[::1]", "[::]",
    "[2001:db8::1]", "[2001:DB8:0:0:0:0:0:1]", "[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8:9]", "[1::2::3]",
    "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[1:2:3:4:5:6:1.2.3.4]", "[::1.2.3.256]", "[fe80::1%25eth0]",
    "[12345::]", "[:1]", "[1:]", "[::1", "::1]", "[g::1]", "[2001:db8::1]x", "exa%6Dple.com", "%65xample.com",
    "example.com%2F.evil.com", "ex ample.com", "ex\tample.com", "example.com\\", "exam!ple.com", "exa$mple.com",
    "exa~mple.com", "exa(mple).com", "exa'mple.com", "exa*mple.com", "exa+mple.com", "exa,mple.com",
    "exa;mple.com", "exa=mple.com", "exa{mple}.com", "exa|mple.com", "exa^mple.com", "exa`mple.com",
    "exa<mple>.com", "exa\"mple.com", "user@example.com", "user:pass@example.com", "@example.com",
    "good.com@evil.com", "good.com\\@evil.com", "évil.com", "e\u0301vil.com", "x\u200Bample.com",
]
PORTS = ["", ":", ":80", ":443", ":0", ":8080", ":65535", ":65536", ":99999", ":0080", ":-1", ":+80", ":8o",
         ":80:80", ": 80", ":٣"]
PATHS = ["", "/", "/a", "/a/b?c=d#e", "?q=1", "#frag", "/%20space", "/%E2%80%AE", "/%00", "/ü/路径", "/a\\b",
         "/a b", "/a\u200Bb", "/a\u202Eb", "/:@!$&'()*+,;=", "/%zz", "/%", "/?" + "x" * 300]
SCHEMES = ["https://", "http://", "HTTPS://", "HtTp://", "ftp://", "javascript://", "data://", "ws://", "//",
           "https:", "https:/", "https:\\\\", "https:/\\", "https:\\/", "\\\\", "/\\", "http//", "https;//",
           "%68ttps://", "h\u200Bttps://", "https\u0000://", " https://", "1http://", "http+s://", "https://https://"]
HOSTILE = [
    "javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "java\nscript:alert(1)",
    " \u0001javascript:alert(1)", "java\u0000script:alert(1)", "\u200Bjavascript:alert(1)",
    "java\u00ADscript:alert(1)", "%6Aavascript:alert(1)", "javascript%3Aalert(1)", "%256Aavascript%253A",
    "jav&#x09;ascript:alert(1)", "javascript&colon;alert(1)", "&#106;avascript:alert(1)",
    "data:text/html,<script>alert(1)</script>", "DATA:text/html;base64,PHNjcmlwdD4=", "data:image/png;base64,AA",
    "vbscript:msgbox(1)", "file:///etc/passwd", "blob:https://example.com/1", "about:blank", "mailto:a@b.c",
    "tel:+1", "/account/settings", "account/settings", "./a", "../a", "?q", "#f", "", " ", "//evil.com",
    "///evil.com", "\\\\evil.com", "/\\evil.com", "\\/evil.com", "https:evil.com", "https:/evil.com",
    "https:\\\\evil.com", "https:///evil.com", "https://", "https://:80", "https://?", "https://#",
    "\u202Ehttps://example.com", "https://example.com/\u202E", "https://example.com\u3000", "\uFEFFhttps://example.com",
    "https://example.com/\u2028", "https://example.com/\u0085", "https://example.com/\u00A0",
]
INSERTED = ["\u0000", "\t", "\n", "\r", " ", "\u007F", "\u0085", "\u00A0", "\u00AD", "\u061C", "\u115F", "\u1680",
            "\u180E", "\u2000", "\u200B", "\u200C", "\u200D", "\u200E", "\u200F", "\u2028", "\u202A", "\u202E",
            "\u2060", "\u2066", "\u2069", "\u3000", "\u3164", "\uFE0F", "\uFEFF", "\uFFA0", "\uFFF9", "\U000E0041",
            "%", "%20", "%2F", "%40", "@", "\\", "/", ":", "#", "?", ".", "..", "-", "_", "é", "ß", "ı", "\u0301"]


def main():
    rng = random.Random(1138)
    urls = []
    seen = set()

    def add(u):
        if u not in seen:
            seen.add(u)
            urls.append(u)

    for h in HOSTILE:
        add(h)
    for s in SCHEMES:
        for h in HOSTS:
            add(s + h + "/p")
    for h in HOSTS:
        for p in PORTS:
            add("https://" + h + p + "/")
        for p in PATHS:
            add("https://" + h + p)
    real = real_values()
    for v in real:
        add(v)
    bases = ["https://example.com/a/b?c=d#e", "http://[2001:db8::1]:8080/x", "https://例え.jp/パス"] + \
        [v for v in real if v.lower().startswith(("http://", "https://"))][:24]
    # Every inserted character at several places of each base: the scheme, the host, the port, the path.
    for base in bases:
        for c in INSERTED:
            for at in sorted({0, 1, 4, 5, 7, 8, 10, base.find("/", 8) if base.find("/", 8) > 0 else len(base),
                              len(base) - 1, len(base)}):
                add(base[:at] + c + base[at:])
    # Random splices of the parts above, for what no list names.
    parts = SCHEMES + HOSTS + PORTS + PATHS + INSERTED
    while len(urls) < 12000:
        add("".join(rng.choice(parts) for _ in range(rng.randint(2, 5))))
    add("https://example.com/" + "a" * 8172)  # 8,192 characters: the longest safe URL
    add("https://example.com/" + "a" * 8173)
    add("https://example.com/" + "é" * 8172)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        for u in urls:
            f.write(json.dumps(u, ensure_ascii=False) + "\n")
    print(f"{OUT}: {len(urls)} URLs")


if __name__ == "__main__":
    main()
