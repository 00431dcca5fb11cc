#!/usr/bin/python3
"""Test helper: read heatsim's PNG snapshots with nothing but zlib, and
check their legend and scaling independently of heatsim's writer.

  png_legend.py text FILE FONT_C   the legend's text lines, decoded with
                                   the glyph table of src/font.c
  png_legend.py scale PLAIN SCALED K  every K x K block of SCALED's field
                                   is the pixel of PLAIN (K = 1) it shows
  png_legend.py legend FILE        the legend's pixels: background, text
                                   and one colour bar whose ramp rises from
                                   the low end to the high end of the map

The grid and scale come from the heatsim:grid and heatsim:scale text
chunks; the field is the image's top left nx K x ny K pixels, the legend
is under it.  Exit status 0 when the check holds, 1 with a message when
not.
"""
import re
import struct
import sys
import zlib


def fail(msg):
    print("png_legend: " + msg, file=sys.stderr)
    sys.exit(1)


def read_png(path):
    """(width, height, samples per pixel, rows of pixel tuples, text)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + ": not a PNG")
    pos, idat, text = 8, b"", {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB",
                                                                 body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            text[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"iTXt":
            key, _, rest = body.partition(b"\0")
            rest = rest[2:]                       # compression flag, method
            _, _, rest = rest.partition(b"\0")    # language
            _, _, value = rest.partition(b"\0")   # translated keyword
            text[key.decode("latin-1")] = value.decode("utf-8")
    if interlace != 0 or ctype not in (0, 2) or depth not in (8, 16):
        fail(path + ": not a heatsim snapshot (type %d depth %d)"
             % (ctype, depth))
    channels = 3 if ctype == 2 else 1
    step = depth // 8
    bpp = channels * step
    stride = w * bpp
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xff
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xff
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xff
        prev = line
        samples = ([int.from_bytes(line[k:k + 2], "big")
                    for k in range(0, stride, 2)] if step == 2 else list(line))
        rows.append([tuple(samples[x * channels:(x + 1) * channels])
                     for x in range(w)])
    top = 65535 if depth == 16 else 255
    return w, h, channels, rows, text, top


def geometry(text):
    """(nx, ny, K, m): the grid, the scale and the legend's magnification."""
    nx, ny = (int(v) for v in text["heatsim:grid"].split("x"))
    k = int(text["heatsim:scale"])
    return nx, ny, k, min(max(k // 2, 1), 4)


def read_font(path):
    """{char: [7 row bitmasks]} from the glyph table of src/font.c."""
    font = {}
    with open(path) as f:
        for line in f:
            hit = re.match(r"\s*\{ '(.)', \{([^}]*)\} \},", line)
            if hit:
                font[hit.group(1)] = [int(v, 16)
                                      for v in hit.group(2).split(",")]
    if len(font) < 20:
        fail(path + ": no glyph table found")
    return font


def trimmed(rows):
    """The glyph without its blank columns: (leading blanks, columns)."""
    cols = [tuple((r >> (4 - c)) & 1 for r in rows) for c in range(5)]
    ink = [c for c in range(5) if any(cols[c])]
    if not ink:
        return None
    return ink[0], tuple(cols[ink[0]:ink[-1] + 1])


def read_line(rows, top, m, font, is_ink):
    """Decode the text whose glyphs start at row top, each font pixel an
    m x m block; runs of blanks become one space."""
    shapes = {}
    for ch, g in font.items():
        t = trimmed(g)
        if t is not None:
            if t[1] in shapes:
                fail("glyphs %r and %r look alike" % (ch, shapes[t[1]][0]))
            shapes[t[1]] = (ch, t[0])
    width = len(rows[0])
    band = rows[top:top + 7 * m]
    inked = [any(is_ink(r[x]) for r in band) for x in range(width)]
    out, x, last_cell = "", 0, None
    while x < width:
        if not inked[x]:
            x += 1
            continue
        x1 = x
        while x1 < width and inked[x1]:
            x1 += 1
        if (x1 - x) % m:
            fail("text at column %d is not in blocks of %d" % (x, m))
        cols = []
        for c in range(x, x1, m):
            col = []
            for r in range(7):
                block = {is_ink(band[r * m + dy][c + dx])
                         for dy in range(m) for dx in range(m)}
                if len(block) != 1:
                    fail("font pixel (%d, %d) is not one %dx%d block"
                         % (c, top + r * m, m, m))
                col.append(int(block.pop()))
            cols.append(tuple(col))
        hit = shapes.get(tuple(cols))
        if hit is None:
            fail("unknown glyph at column %d, row %d" % (x, top))
        cell = x - hit[1] * m
        if last_cell is not None and cell - last_cell > 6 * m:
            out += " "
        out += hit[0]
        last_cell, x = cell, x1
    return out


def text_lines(path, font_c):
    w, h, _, rows, text, top = read_png(path)
    nx, ny, k, m = geometry(text)
    font = read_font(font_c)
    is_ink = lambda px: set(px) == {0}
    is_paper = lambda px: set(px) == {top}
    # Text starts under the colour bar: past its last ramp row and frame.
    y = max(y for y in range(ny * k, h)
            if any(not is_ink(p) and not is_paper(p) for p in rows[y]))
    lines, y = [], y + m + 1
    while y < h:
        row = rows[y]
        if all(is_ink(p) or is_paper(p) for p in row) \
                and any(is_ink(p) for p in row):
            lines.append(read_line(rows, y, m, font, is_ink))
            y += 7 * m
        else:
            y += 1
    for line in lines:
        print(line)


def check_scale(plain, scaled, k):
    _, _, _, a, ta, _ = read_png(plain)
    _, _, _, b, tb, _ = read_png(scaled)
    nx, ny, _, _ = geometry(ta)
    if geometry(tb)[2] != k:
        fail("%s: heatsim:scale is not %d" % (scaled, k))
    for y in range(ny * k):
        for x in range(nx * k):
            if b[y][x] != a[y // k][x // k]:
                fail("pixel (%d, %d) is %s, cell (%d, %d) of the plain "
                     "image is %s" % (x, y, b[y][x], x // k, y // k,
                                      a[y // k][x // k]))
    print("%dx%d cells, each %dx%d equal pixels" % (nx, ny, k, k))


def check_legend(path):
    """Under the field: background, text, and the colour bar, whose ramp
    rows are all alike and rise from one end of the map to the other.
    Beside the field (where the legend is wider): background only."""
    w, h, channels, rows, text, top = read_png(path)
    nx, ny, k, m = geometry(text)
    special = {(0,) * channels, (top,) * channels}
    for y in range(ny * k):
        if any(p != (top,) * channels for p in rows[y][nx * k:]):
            fail("row %d: right of the field is not background" % y)
    ramps = []
    for y in range(ny * k, h):
        ramp = [p for p in rows[y] if p not in special]
        if ramp:
            ramps.append(ramp)
    if not ramps:
        fail("no colour bar under the field")
    if any(r != ramps[0] for r in ramps):
        fail("the rows of the colour bar differ")
    if len(ramps) != 8 * m:
        fail("colour bar %d rows high, not %d" % (len(ramps), 8 * m))
    ramp = ramps[0]
    # A gray ramp's ends are black and white, the colours of text and
    # background: what is left of it must rise from near one to the other.
    levels = [p[0] for p in ramp]
    if all(len(set(p)) == 1 for p in ramp) \
            and (levels != sorted(levels) or levels[0] > top // 8
                 or levels[-1] < top - top // 8):
        fail("gray ramp does not rise from 0 to %d: %d .. %d"
             % (top, levels[0], levels[-1]))
    if len(set(ramp)) < min(len(ramp), 256) // 2:
        fail("colour bar of %d pixels has only %d colours"
             % (len(ramp), len(set(ramp))))
    print("legend %dx%d, colour bar %d pixels" % (w, h - ny * k, len(ramp)))


def main():
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "text":
        text_lines(args[1], args[2])
    elif len(args) == 4 and args[0] == "scale":
        check_scale(args[1], args[2], int(args[3]))
    elif len(args) == 2 and args[0] == "legend":
        check_legend(args[1])
    else:
        fail("usage: png_legend.py text FILE FONT_C | scale PLAIN SCALED K"
             " | legend FILE")


main()
