#!/usr/bin/env python3
"""Whether a table page's cells run into the next column, read from the page's PNG as gnuplot drew it.

    png_columns.py PAGE.png "X1 X2 ..."

X1 ... are table.gp's column positions (table_x: shares of its plot, which spans the page from 0.04 to 0.98). The
table's rows are the bands of dark pixels whose text starts at the first column; in each, the GAP pixels before
every later column (but the OVERHANG pixel next to it, which a glyph's edge may reach) must be blank, or a cell ran
into the next one. Prints each collision (row band, column) and
exits 1 when there is one, 0 when none, 2 when the PNG cannot be read. The standard library only (zlib)."""
import struct
import sys
import zlib

GAP = 3  # pixels that must be blank before a column
OVERHANG = 1  # pixels just before a column that a glyph may reach: "t" starts a pixel left of its anchor
DARK = 600  # red + green + blue below this: ink (the page is white, the text dark or coloured)


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    if depth != 8 or colour not in (2, 6):
        raise ValueError("a PNG of depth %d, colour type %d: gnuplot's pngcairo writes 8-bit RGB(A)" % (depth, colour))
    step = 3 if colour == 2 else 4
    return width, height, step, unfilter(zlib.decompress(idat), width, height, step)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, width, height, step):
    stride, rows, prior, pos = width * step, [], bytearray(width * step), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for x in range(stride):
            a = line[x - step] if x >= step else 0
            b = prior[x]
            c = prior[x - step] if x >= step else 0
            line[x] = (line[x] + (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 255
        rows.append(line)
        prior = line
    return rows


def ink(row, x, step):
    return sum(row[x * step:x * step + 3]) < DARK


def bands(width, height, step, rows):
    """(first y, last y, leftmost ink x) of each run of rows with ink."""
    out, start = [], None
    for y in range(height):
        xs = [x for x in range(width) if ink(rows[y], x, step)]
        if xs and start is None:
            start, left = y, xs[0]
        elif xs:
            left = min(left, xs[0])
        elif start is not None:
            out.append((start, y - 1, left))
            start = None
    return out


def main():
    try:
        width, height, step, rows = read_png(sys.argv[1])
    except (OSError, ValueError, IndexError, zlib.error) as e:
        print("png_columns: %s" % e)
        return 2
    columns = [round((0.04 + 0.94 * float(x)) * width) for x in sys.argv[2].split()]
    collisions = 0
    for top, bottom, left in bands(width, height, step, rows):
        if abs(left - columns[0]) > GAP:
            continue  # not a row of the table: the title, the caption
        for number, x in enumerate(columns[1:], start=2):
            if any(ink(rows[y], c, step) for y in range(top, bottom + 1) for c in range(x - OVERHANG - GAP, x - OVERHANG)):
                print("rows %d-%d: a cell runs into column %d at x = %d" % (top, bottom, number, x))
                collisions += 1
    return 1 if collisions else 0


if __name__ == "__main__":
    sys.exit(main())
