#!/usr/bin/env python3
"""Writes Web/strings.mjs: the interface strings a widget shows (renderMessage's), exported from DeskKitCards'
tables (Sources/DeskKitCards/Strings/<tag>.json) so that the browser and ConversationPage say the same words in
the same eight languages. The tables stay the one source: Scripts/check-web.sh runs this with --check and fails
when the module is not what the tables make; a Swift test checks the directions against ICU's.

    Scripts/export-strings.py          # write Web/strings.mjs
    Scripts/export-strings.py --check  # exit 1 when Web/strings.mjs is out of date
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLES = ROOT / "Sources/DeskKitCards/Strings"
OUT = ROOT / "Web/strings.mjs"
# The keys renderMessage shows (InterfaceString's of the same names).
KEYS = [
    "inquiry.close", "inquiry.keepOpen", "inquiry.waiting", "inquiry.confirmed", "inquiry.declined",
    "rating.stars", "csat.rating", "csat.comment", "csat.submit", "csat.waiting", "facts.ticket", "facts.agent",
    "note.otherPayload", "note.noType", "note.malformed", "card.image",
]
# Scripts written right to left, by the language subtags of the tables (ICU's answer for each is checked by
# InterfaceStringsExportTests).
RIGHT_TO_LEFT = {"ar", "he", "fa", "ur", "yi", "dv", "ps", "ckb", "sd", "ug"}


def render():
    tables = {}
    for path in sorted(TABLES.glob("*.json")):
        tag = path.stem
        table = json.loads(path.read_text(encoding="utf-8"))
        missing = [k for k in KEYS if k not in table]
        if missing:
            sys.exit(f"{path}: no {', '.join(missing)}")
        tables[tag] = {"dir": "rtl" if tag.split("-")[0] in RIGHT_TO_LEFT else "ltr",
                       "strings": {k: table[k] for k in KEYS}}
    ordered = {"en": tables.pop("en"), **tables}
    body = json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))
    return ("// renderMessage's strings by language: made by Scripts/export-strings.py from DeskKitCards' tables.\n"
            f"export const TABLES = {body};\n")


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv[1:]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            sys.exit("Web/strings.mjs is not what the strings tables make: run Scripts/export-strings.py")
    else:
        OUT.write_text(text, encoding="utf-8")
