#!/usr/bin/env python3
"""Times the Python libraries a user would pick instead of `deskkit extract`, in-process, on the same pages.

    python3 Scripts/peers/extract_peers.py FILE...

Each peer parses every page and reads what a preview card needs from its head: the <meta> tags (property or
name, and content) and the <title>. Prints `NAME: N pages/s, M MB/s` for the best of three passes.
Run through Scripts/compare-extract.sh, which installs the peers into a virtualenv of its own.
"""
import sys
import time


def bench(name, parse, datas, reps=3):
    total = sum(map(len, datas))
    best = float('inf')
    for _ in range(reps):
        start = time.perf_counter()
        for data in datas:
            parse(data)
        best = min(best, time.perf_counter() - start)
    print(f"{name}: {len(datas) / best:.0f} pages/s, {total / best / 1e6:.1f} MB/s", flush=True)


def selectolax_card(data):
    from selectolax.lexbor import LexborHTMLParser
    tree = LexborHTMLParser(data)
    metas = [(m.attributes.get('property') or m.attributes.get('name'), m.attributes.get('content'))
             for m in tree.css('meta')]
    title = tree.css_first('title')
    return metas, title.text() if title else None


def lxml_card(data):
    import lxml.html
    try:
        tree = lxml.html.fromstring(data)
    except Exception:
        return None
    metas = [(m.get('property') or m.get('name'), m.get('content')) for m in tree.iter('meta')]
    return metas, tree.findtext('.//title')


def main():
    files = sys.argv[1:]
    if not files:
        sys.exit('usage: extract_peers.py FILE...')
    datas = [open(f, 'rb').read() for f in files]
    bench('selectolax (lexbor)', selectolax_card, datas)
    bench('lxml', lxml_card, datas)


if __name__ == '__main__':
    main()
