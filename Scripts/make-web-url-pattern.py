#!/usr/bin/env python3
"""Writes the pattern of `web-url` in Sources/DeskKitSchemas/Schemas/common.json from the character sets of
DeskKit's one URL rule (`URLSafety` in DeskKitModel: `isInvisible`, `isMappedInHost`, `isCombining`, the host's
ASCII bytes, IPv4, IPv6 and ports), so that the schema states the rule the code applies. Change both together,
run this, copy common.json to Web/schemas/, and Scripts/check_schemas.py compares the two on Corpus/urls and on
generated and mutated payloads.

    Scripts/make-web-url-pattern.py
"""
import json
import os
def u(c): return '\\u%04X' % c if c < 0x10000 else chr(c)
def rng(a,b=None):
    if b is None or a==b: return u(a)
    return u(a)+'-'+u(b)
INV=[(0,0x20),(0x7F,0xA0),(0xAD,),(0x34F,),(0x61C,),(0x115F,0x1160),(0x1680,),(0x17B4,0x17B5),(0x180B,0x180F),(0x2000,0x200F),(0x2028,0x202F),(0x205F,0x206F),(0x3000,),(0x3164,),(0xFE00,0xFE0F),(0xFEFF,),(0xFFA0,),(0xFFF0,0xFFFB),(0xE0000,0xE0FFF)]
MAP=[(0x2B0,0x2FF),(0x2024,0x2026),(0x2044,),(0x2070,0x209F),(0x2100,0x218F),(0x2215,),(0x2236,),(0x2460,0x24FF),(0x2E2E,),(0x3002,),(0x3200,0x33FF),(0xFB00,0xFB4F),(0xFE10,0xFE19),(0xFE30,0xFE6F),(0xFF00,0xFFEF),(0x1D400,0x1D7FF),(0x1F100,0x1F1FF)]
ASCII_NOT_HOST=[(0,0x2C),(0x2E,0x2F),(0x3A,0x40),(0x5B,0x5E),(0x60,),(0x7B,0x7F)]
inv=''.join(rng(*r) for r in INV)
hc='[^'+''.join(rng(*r) for r in ASCII_NOT_HOST)+inv+''.join(rng(*r) for r in MAP)+']'
H='[0-9A-Fa-f]{1,4}'
O='(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])'
V4=f'(?:{O}\\.){{3}}{O}'
def groups(n):  # n plain groups joined by ':'
    if n==0: return ''
    if n==1: return H
    return f'{H}(?::{H}){{{n-1}}}'
alts=[f'(?:{H}:){{6}}(?:{H}:{H}|{V4})']
# gap forms: head groups h (0..7), tail: t plain groups (+ optional v4 counting 2), total <= 7
for h in range(0,8):
    tails=[]
    for t in range(0,8-h):
        tails.append(groups(t))
    for t in range(0,6-h):  # v4 counts 2: h + t + 2 <= 7
        tails.append((groups(t)+':' if t else '')+V4)
    tail='(?:'+'|'.join(x for x in tails if x)+')?'
    alts.append(f'{groups(h)}::{tail}')
IPV6='(?:'+'|'.join(alts)+')'
NUM='(?:[0-9]+|0[xX][0-9A-Fa-f]*)'
COMB='[\\u0300-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F]'
name=f'(?!(?:{hc}+\\.)*{NUM}\\.?(?:[:/?#]|(?![\\s\\S])))(?!{COMB}){hc}+(?:\\.(?!{COMB}){hc}+)*\\.?'
port='(?::0*(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?)?'
pattern=f'^[hH][tT][tT][pP][sS]?://(?:\\[{IPV6}\\]|{V4}|{name}){port}(?:[/?#][^{inv}]*)?(?![\\s\\S])'
p=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'Sources', 'DeskKitSchemas', 'Schemas', 'common.json')
doc=json.load(open(p))
doc['$defs']['web-url']={
 "description": "A URL a client may open or load — DeskKit's one rule (URLSafety): http:// or https:// (the scheme in any case) and at most 8,192 characters; a host every reader sees the same: letters, digits, '-' and '_' in dot-separated labels (no credentials, no '%', no backslash, no character IDNA maps to another, such as full-width forms or the ideographic full stop; no label begins with a combining mark), an IPv4 address only as four numbers 0-255 without leading zeros, or an IPv6 address in brackets; a port of at most 65535; and no control, white-space, zero-width or bidirectional character anywhere.",
 "type":"string","maxLength":8192,"pattern":pattern,
 "examples":["https://example.com/orders/1138"]}
s=json.dumps(doc,indent=2,ensure_ascii=False)
open(p,'w').write(s+'\n')
