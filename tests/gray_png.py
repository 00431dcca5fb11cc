"""gray_png.py OUT NX NY LEFT RIGHT: an 8-bit gray PNG of NX x NY pixels,
the left half gray level LEFT, the right half RIGHT: a map of two
materials for the tests, written with the standard library alone."""
import struct
import sys
import zlib


def chunk(tag, data):
    return (struct.pack(">I", len(data)) + tag + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))


def main():
    out, nx, ny, left, right = sys.argv[1:6]
    nx, ny, left, right = int(nx), int(ny), int(left), int(right)
    row = b"\0" + bytes([left] * (nx // 2) + [right] * (nx - nx // 2))
    with open(out, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n"
                + chunk(b"IHDR", struct.pack(">IIBBBBB", nx, ny, 8, 0, 0,
                                             0, 0))
                + chunk(b"IDAT", zlib.compress(row * ny))
                + chunk(b"IEND", b""))


main()
