#!/usr/bin/env python3
"""A stand-in for Sendbird's Platform API and for the pages behind links, on loopback, for load tests
and trying `deskkit serve` by hand.

    Scripts/fake-sendbird.py PORT [ADDRESS]

Listens on ADDRESS (default 127.0.0.1; 0.0.0.0 answers every 127.x.y.z, as many hosts). PUT
/v3/group_channels/{channel}/messages/{id} answers 200 and counts; GET of any other path answers a small
page with OpenGraph tags. GET /stats prints {"puts": N, "pages": N, "connections": N}."""
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
stats = {"puts": 0, "pages": 0, "connections": 0}
PAGE = b"""<html><head><title>Order</title><meta property="og:title" content="Parcel is on its way">
<meta property="og:description" content="Arrives Tuesday"><meta property="og:image" content="/map.png"></head></html>"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        with lock:
            stats["connections"] += 1
        # Headers and body go out in two writes: without this, Nagle's algorithm and the client's delayed
        # ACK hold every keep-alive answer for 40 ms, and the fake, not deskkit, sets the pace.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        json.loads(self.rfile.read(length) or b"{}")
        with lock:
            stats["puts"] += 1
        self.answer(200, b"{}", "application/json")

    def do_GET(self):
        if self.path == "/stats":
            with lock:
                self.answer(200, json.dumps(stats).encode(), "application/json")
            return
        with lock:
            stats["pages"] += 1
        self.answer(200, PAGE, "text/html; charset=utf-8")


if __name__ == "__main__":
    address = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
    ThreadingHTTPServer.request_queue_size = 256
    ThreadingHTTPServer((address, int(sys.argv[1])), Handler).serve_forever()
