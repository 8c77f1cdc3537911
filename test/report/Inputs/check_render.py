"""Checks a headless-Chromium screenshot of the memory viewer.

Usage: check_render.py SHOT.png
The page rendered (not blank) and the chart is there: enough pixels in the
padded curve's red (#d62728) and the unpadded curve's blue (#1f77b4).
Decodes the PNG with zlib only (8-bit RGB/RGBA, no interlace).
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        sys.exit(f"{path}: unsupported PNG (depth {depth}, color {color})")
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for r in range(height):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def near(px, rgb, tol=40):
    return all(abs(px[i] - rgb[i]) <= tol for i in range(3))


width, height, bpp, rows = read_png(sys.argv[1])
colors, red, blue = set(), 0, 0
for line in rows:
    for x in range(0, width * bpp, bpp):
        px = line[x:x + 3]
        colors.add(bytes(px))
        red += near(px, (0xd6, 0x27, 0x28))
        blue += near(px, (0x1f, 0x77, 0xb4))
print(f"{width}x{height}: {len(colors)} colors, {red} padded-red pixels, "
      f"{blue} unpadded-blue pixels")
if len(colors) < 16:
    sys.exit("the page looks blank")
if red < 100 or blue < 100:
    sys.exit("the chart's curves are missing")
print("rendered")
