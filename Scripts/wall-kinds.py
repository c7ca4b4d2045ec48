#!/usr/bin/env python3
"""How the refusal check does on walls by kind, through `deskkit preview` as users run it.

    Scripts/wall-kinds.py DESKKIT [CORPUS] [--mode alone|site] [--pages FILE...]

Serves CORPUS (default Corpus/refusals/kinds.jsonl: walls of kinds no issue named and real pages about the same
subjects, each with its `kind` and its `split`, design or held_out) from a server on 127.0.0.1 and previews each
page with DESKKIT (no image probe, no oEmbed). `--mode alone` serves each page at its own address and a 404 at
every other; `--mode site` (the default) as its site serves it: a wall at every address, a real page beside its
site's answer to an unknown address (`unknown_address`: 404, soft_404 or front_page). Prints each page's answer,
then walls refused and real pages carded by kind and by split.

`--pages FILE...` instead serves each HTML file at every address of a server of its own (no site does this for an
article) and prints the pages refused: what a server that answers every address with one page costs real pages.
"""
import argparse
import collections
import http.server
import json
import os
import socketserver
import subprocess
import threading

FRONT_PAGE = (b'<!DOCTYPE html><html><head><title>Example Site</title><meta property="og:description" '
              b'content="News, guides and more from Example Site."></head><body><h1>Example Site</h1><p>The latest '
              b'stories, guides and reviews, updated every day.</p></body></html>')
SOFT_404 = (b'<!DOCTYPE html><html><head><title>Page not found | Example Site</title></head><body><h1>Sorry, we '
            b"couldn't find that page</h1><p>Try the search.</p></body></html>")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def serve(answer):
    """A server on 127.0.0.1 whose every GET is answer(path) -> (status, headers, body); its port."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            status, headers, body = answer(self.path)
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def preview(deskkit, url):
    """DESKKIT's answer for url: (refused, what)."""
    run = subprocess.run([deskkit, "preview", "--allow-private", "--no-image-probe", "--no-oembed", url],
                         capture_output=True, text=True)
    try:
        out = json.loads(run.stdout)
    except ValueError:
        return True, "no answer: " + (run.stdout + run.stderr)[:100]
    if "error" in out:
        return True, "%s: %s" % (out["error"]["kind"], out["error"].get("detail", "")[:100])
    return False, "card " + json.loads(out["data"])["body"].get("title", "")[:60]


def corpus(deskkit, path, mode):
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    by_name = {row["name"]: row for row in rows}

    def answer(path):
        parts = path.split("/", 3)  # "", "c", name, rest
        row = by_name.get(parts[2]) if len(parts) > 2 and parts[1] == "c" else None
        if row is None:
            return 404, {}, b""
        html = {"Content-Type": "text/html; charset=utf-8"}
        if path == "/c/%s%s" % (row["name"], row["path"]) or (mode == "site" and row["expect"] != "card"):
            return row["status"], row["headers"], row["html"].encode()
        unknown = row.get("unknown_address", "404") if mode == "site" else "404"
        if unknown == "front_page":
            return (200, html, FRONT_PAGE) if parts[3:] == [""] else (302, {"Location": "/c/%s/" % row["name"]}, b"")
        if unknown == "soft_404":
            return 200, html, SOFT_404
        return 404, html, b"<h1>Not Found</h1>"

    server = serve(answer)
    tally = collections.defaultdict(lambda: [0, 0])
    for row in rows:
        url = "http://127.0.0.1:%d/c/%s%s" % (server.server_address[1], row["name"], row["path"])
        refused, what = preview(deskkit, url)
        wall = row["expect"] != "card"
        right = refused == wall
        tally[(row.get("split", "-"), row.get("kind", "-"), "walls refused" if wall else "real pages carded")][0] += right
        tally[(row.get("split", "-"), row.get("kind", "-"), "walls refused" if wall else "real pages carded")][1] += 1
        print("%s %-34s %s" % ("ok " if right else "BAD", row["name"], what))
    print()
    for (split, kind, what), (right, count) in sorted(tally.items()):
        print("%-9s %-16s %-17s %d of %d" % (split, kind, what, right, count))
    for split in sorted({key[0] for key in tally}):
        for what in ("walls refused", "real pages carded"):
            right = sum(v[0] for k, v in tally.items() if k[0] == split and k[2] == what)
            count = sum(v[1] for k, v in tally.items() if k[0] == split and k[2] == what)
            if count:
                print("%s: %s %d of %d" % (split, what, right, count))


def everywhere(deskkit, files):
    refused = []
    for name in files:
        body = open(name, "rb").read()
        server = serve(lambda path: (200, {"Content-Type": "text/html"}, body))
        yes, what = preview(deskkit, "http://127.0.0.1:%d/articles/%s" % (server.server_address[1],
                                                                          os.path.basename(name)))
        server.shutdown()
        if yes:
            refused.append("  %s %s" % (os.path.basename(name), what))
    print("%d pages served at every address, %d refused" % (len(files), len(refused)))
    print("\n".join(refused))


if __name__ == "__main__":
    arguments = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    arguments.add_argument("deskkit")
    arguments.add_argument("corpus", nargs="?", default="Corpus/refusals/kinds.jsonl")
    arguments.add_argument("--mode", choices=["alone", "site"], default="site")
    arguments.add_argument("--pages", nargs="+")
    options = arguments.parse_args()
    if options.pages:
        everywhere(options.deskkit, options.pages)
    else:
        corpus(options.deskkit, options.corpus, options.mode)
