"""png_file.py OUT WIDTH HEIGHT [LEVELS]: an 8-bit gray PNG of WIDTH x
HEIGHT pixels, written with the standard library alone.  LEVELS, comma
separated, are the gray levels row by row from the top; without them
the IDAT holds WIDTH x HEIGHT / 1000 zero bytes, as many as deflate
would need for the pixels but no deflate stream: an image whose size a
reader must refuse from its header, before decoding it."""
import struct
import sys
import zlib


def chunk(tag, data):
    return (struct.pack(">I", len(data)) + tag + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xffffffff))


def main():
    out, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if len(sys.argv) > 4:
        levels = [int(v) for v in sys.argv[4].split(",")]
        rows = b"".join(b"\0" + bytes(levels[r * width:(r + 1) * width])
                        for r in range(height))
        idat = zlib.compress(rows)
    else:
        idat = bytes(width * height // 1000)
    with open(out, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n"
                + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                             0, 0, 0))
                + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


main()
