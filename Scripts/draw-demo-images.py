#!/usr/bin/env python3
"""Draws the two pictures of `deskkit demo` (PNG, standard library only) into Sources/deskkit/Demo/.

parcel-map.png: a street map with a delivery route ending at a pin (the tracking page's og:image and the
direct image link). lost-parcel.png: a parcel with a question mark (the help page's twitter:image).
Run from the repository root; the output is deterministic.
"""
import math
import struct
import sys
import zlib

W, H = 600, 315


def canvas(color):
    return [[color] * W for _ in range(H)]


def rect(img, x0, y0, x1, y1, color):
    for y in range(max(0, y0), min(H, y1)):
        row = img[y]
        for x in range(max(0, x0), min(W, x1)):
            row[x] = color


def disc(img, cx, cy, r, color):
    for y in range(max(0, cy - r), min(H, cy + r + 1)):
        for x in range(max(0, cx - r), min(W, cx + r + 1)):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                img[y][x] = color


def line(img, points, width, color):
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        steps = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for i in range(steps + 1):
            t = i / steps
            disc(img, round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t), width // 2, color)


def png(img, path):
    raw = b"".join(b"\x00" + bytes(c for px in row for c in px) for row in img)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def parcel_map(path):
    img = canvas((236, 240, 232))
    rect(img, 380, 170, 600, 315, (200, 228, 196))  # a park
    rect(img, 0, 0, 140, 90, (190, 216, 240))  # the river
    for x in range(0, W, 75):
        rect(img, x, 0, x + 9, H, (255, 255, 255))
    for y in range(20, H, 60):
        rect(img, 0, y, W, y + 9, (255, 255, 255))
    route = [(40, 265), (40, 204), (229, 204), (229, 84), (454, 84), (454, 144)]
    line(img, route, 10, (37, 99, 235))
    disc(img, 40, 265, 12, (37, 99, 235))
    disc(img, 454, 126, 26, (220, 38, 38))  # the pin
    disc(img, 454, 126, 10, (255, 255, 255))
    for dy in range(0, 34):
        half = max(0, 18 - dy * 18 // 34)
        rect(img, 454 - half, 144 + dy, 454 + half + 1, 145 + dy, (220, 38, 38))
    png(img, path)


def lost_parcel(path):
    img = canvas((243, 238, 228))
    rect(img, 190, 110, 410, 270, (196, 148, 94))  # the box
    rect(img, 175, 90, 425, 125, (176, 128, 76))  # its lid
    rect(img, 290, 90, 310, 270, (236, 222, 180))  # tape
    cx, cy = 470, 80  # a question mark
    for a in range(-200, 30):
        t = math.radians(a)
        disc(img, round(cx + 32 * math.cos(t)), round(cy + 32 * math.sin(t)), 7, (37, 99, 235))
    line(img, [(cx + 27, cy + 17), (cx, cy + 40), (cx, cy + 60)], 14, (37, 99, 235))
    disc(img, cx, cy + 85, 9, (37, 99, 235))
    png(img, path)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "Sources/deskkit/Demo"
    parcel_map(f"{out}/parcel-map.png")
    lost_parcel(f"{out}/lost-parcel.png")
