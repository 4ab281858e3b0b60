"""Generate firmware/scoreboard/render/font5.py, the matrix fonts, from readable glyph art.

    .venv/bin/python tools/gen_font.py            # rewrite the module
    .venv/bin/python tools/gen_font.py --show     # print every glyph for a visual check

Three fonts, all column bytes (bit 0 = top row), the layout MONO_VLSB and framebuf's own text
font use, so a glyph column is one byte:
  F3X5 / W3X5  small 3x5 font (letters M, N, W, and a few symbols are 5 wide), ASCII 32..95,
               5 bytes a glyph (unused columns 0) and one width byte per glyph;
  F5X7         the classic 5x7 LCD font (HD44780 / glcdfont shapes), ASCII 32..95, 5 bytes a glyph;
  D4X7         4x7 digits 0..9 for scores on 8-pixel-high panels, 4 bytes a digit.
Lower case is folded to upper case by the reader (scoreboard.render.matrix); other characters
show as '?'.
"""
import os
import sys

FIRST = 32
LAST = 95

# 3x5: five rows per glyph, '#' = lit; the row length is the glyph width.
SMALL = {
    ' ': ['..', '..', '..', '..', '..'],
    '!': ['#', '#', '#', '.', '#'],
    '"': ['#.#', '#.#', '...', '...', '...'],
    '#': ['#.#', '###', '#.#', '###', '#.#'],
    '$': ['.##', '##.', '.#.', '.##', '##.'],
    '%': ['#.#', '..#', '.#.', '#..', '#.#'],
    '&': ['.#.', '#.#', '.#.', '#.#', '.##'],
    "'": ['#', '#', '.', '.', '.'],
    '(': ['.#', '#.', '#.', '#.', '.#'],
    ')': ['#.', '.#', '.#', '.#', '#.'],
    '*': ['#.#', '.#.', '#.#', '...', '...'],
    '+': ['...', '.#.', '###', '.#.', '...'],
    ',': ['..', '..', '..', '.#', '#.'],
    '-': ['...', '...', '###', '...', '...'],
    '.': ['.', '.', '.', '.', '#'],
    '/': ['..#', '..#', '.#.', '#..', '#..'],
    '0': ['###', '#.#', '#.#', '#.#', '###'],
    '1': ['.#.', '##.', '.#.', '.#.', '###'],
    '2': ['##.', '..#', '.#.', '#..', '###'],
    '3': ['##.', '..#', '.#.', '..#', '##.'],
    '4': ['#.#', '#.#', '###', '..#', '..#'],
    '5': ['###', '#..', '##.', '..#', '##.'],
    '6': ['.##', '#..', '###', '#.#', '###'],
    '7': ['###', '..#', '.#.', '.#.', '.#.'],
    '8': ['###', '#.#', '###', '#.#', '###'],
    '9': ['###', '#.#', '###', '..#', '##.'],
    ':': ['.', '#', '.', '#', '.'],
    ';': ['..', '.#', '..', '.#', '#.'],
    '<': ['..#', '.#.', '#..', '.#.', '..#'],
    '=': ['...', '###', '...', '###', '...'],
    '>': ['#..', '.#.', '..#', '.#.', '#..'],
    '?': ['##.', '..#', '.#.', '...', '.#.'],
    '@': ['.#.', '#.#', '###', '#..', '.##'],
    'A': ['.#.', '#.#', '###', '#.#', '#.#'],
    'B': ['##.', '#.#', '##.', '#.#', '##.'],
    'C': ['.##', '#..', '#..', '#..', '.##'],
    'D': ['##.', '#.#', '#.#', '#.#', '##.'],
    'E': ['###', '#..', '##.', '#..', '###'],
    'F': ['###', '#..', '##.', '#..', '#..'],
    'G': ['.##', '#..', '#.#', '#.#', '.##'],
    'H': ['#.#', '#.#', '###', '#.#', '#.#'],
    'I': ['###', '.#.', '.#.', '.#.', '###'],
    'J': ['..#', '..#', '..#', '#.#', '.#.'],
    'K': ['#.#', '#.#', '##.', '#.#', '#.#'],
    'L': ['#..', '#..', '#..', '#..', '###'],
    'M': ['#...#', '##.##', '#.#.#', '#...#', '#...#'],
    'N': ['#..#', '##.#', '#.##', '#..#', '#..#'],
    'O': ['.#.', '#.#', '#.#', '#.#', '.#.'],
    'P': ['##.', '#.#', '##.', '#..', '#..'],
    'Q': ['.#.', '#.#', '#.#', '##.', '.##'],
    'R': ['##.', '#.#', '##.', '#.#', '#.#'],
    'S': ['.##', '#..', '.#.', '..#', '##.'],
    'T': ['###', '.#.', '.#.', '.#.', '.#.'],
    'U': ['#.#', '#.#', '#.#', '#.#', '###'],
    'V': ['#.#', '#.#', '#.#', '#.#', '.#.'],
    'W': ['#...#', '#...#', '#.#.#', '##.##', '#...#'],
    'X': ['#.#', '#.#', '.#.', '#.#', '#.#'],
    'Y': ['#.#', '#.#', '.#.', '.#.', '.#.'],
    'Z': ['###', '..#', '.#.', '#..', '###'],
    '[': ['##', '#.', '#.', '#.', '##'],
    '\\': ['#..', '#..', '.#.', '..#', '..#'],
    ']': ['##', '.#', '.#', '.#', '##'],
    '^': ['.#.', '#.#', '...', '...', '...'],
    '_': ['...', '...', '...', '...', '###'],
}

# 4x7 digits for scores on 8-pixel-high panels.
DIGITS4 = {
    '0': ['.##.', '#..#', '#..#', '#..#', '#..#', '#..#', '.##.'],
    '1': ['..#.', '.##.', '..#.', '..#.', '..#.', '..#.', '.###'],
    '2': ['.##.', '#..#', '...#', '..#.', '.#..', '#...', '####'],
    '3': ['####', '...#', '..#.', '.##.', '...#', '#..#', '.##.'],
    '4': ['..#.', '.##.', '#.#.', '#.#.', '####', '..#.', '..#.'],
    '5': ['####', '#...', '###.', '...#', '...#', '#..#', '.##.'],
    '6': ['.##.', '#...', '#...', '###.', '#..#', '#..#', '.##.'],
    '7': ['####', '...#', '...#', '..#.', '..#.', '.#..', '.#..'],
    '8': ['.##.', '#..#', '#..#', '.##.', '#..#', '#..#', '.##.'],
    '9': ['.##.', '#..#', '#..#', '.###', '...#', '...#', '.##.'],
}

# The classic 5x7 font: five column bytes per glyph, bit 0 = top row (ASCII 32..95).
CLASSIC5X7 = [
    0x00, 0x00, 0x00, 0x00, 0x00,  # ' '
    0x00, 0x00, 0x5F, 0x00, 0x00,  # !
    0x00, 0x07, 0x00, 0x07, 0x00,  # "
    0x14, 0x7F, 0x14, 0x7F, 0x14,  # #
    0x24, 0x2A, 0x7F, 0x2A, 0x12,  # $
    0x23, 0x13, 0x08, 0x64, 0x62,  # %
    0x36, 0x49, 0x55, 0x22, 0x50,  # &
    0x00, 0x05, 0x03, 0x00, 0x00,  # '
    0x00, 0x1C, 0x22, 0x41, 0x00,  # (
    0x00, 0x41, 0x22, 0x1C, 0x00,  # )
    0x14, 0x08, 0x3E, 0x08, 0x14,  # *
    0x08, 0x08, 0x3E, 0x08, 0x08,  # +
    0x00, 0x50, 0x30, 0x00, 0x00,  # ,
    0x08, 0x08, 0x08, 0x08, 0x08,  # -
    0x00, 0x60, 0x60, 0x00, 0x00,  # .
    0x20, 0x10, 0x08, 0x04, 0x02,  # /
    0x3E, 0x41, 0x41, 0x41, 0x3E,  # 0 (unslashed: reads better doubled in height)
    0x00, 0x42, 0x7F, 0x40, 0x00,  # 1
    0x42, 0x61, 0x51, 0x49, 0x46,  # 2
    0x21, 0x41, 0x45, 0x4B, 0x31,  # 3
    0x18, 0x14, 0x12, 0x7F, 0x10,  # 4
    0x27, 0x45, 0x45, 0x45, 0x39,  # 5
    0x3C, 0x4A, 0x49, 0x49, 0x30,  # 6
    0x01, 0x71, 0x09, 0x05, 0x03,  # 7
    0x36, 0x49, 0x49, 0x49, 0x36,  # 8
    0x06, 0x49, 0x49, 0x29, 0x1E,  # 9
    0x00, 0x36, 0x36, 0x00, 0x00,  # :
    0x00, 0x56, 0x36, 0x00, 0x00,  # ;
    0x08, 0x14, 0x22, 0x41, 0x00,  # <
    0x14, 0x14, 0x14, 0x14, 0x14,  # =
    0x00, 0x41, 0x22, 0x14, 0x08,  # >
    0x02, 0x01, 0x51, 0x09, 0x06,  # ?
    0x32, 0x49, 0x79, 0x41, 0x3E,  # @
    0x7E, 0x11, 0x11, 0x11, 0x7E,  # A
    0x7F, 0x49, 0x49, 0x49, 0x36,  # B
    0x3E, 0x41, 0x41, 0x41, 0x22,  # C
    0x7F, 0x41, 0x41, 0x22, 0x1C,  # D
    0x7F, 0x49, 0x49, 0x49, 0x41,  # E
    0x7F, 0x09, 0x09, 0x09, 0x01,  # F
    0x3E, 0x41, 0x49, 0x49, 0x7A,  # G
    0x7F, 0x08, 0x08, 0x08, 0x7F,  # H
    0x00, 0x41, 0x7F, 0x41, 0x00,  # I
    0x20, 0x40, 0x41, 0x3F, 0x01,  # J
    0x7F, 0x08, 0x14, 0x22, 0x41,  # K
    0x7F, 0x40, 0x40, 0x40, 0x40,  # L
    0x7F, 0x02, 0x0C, 0x02, 0x7F,  # M
    0x7F, 0x04, 0x08, 0x10, 0x7F,  # N
    0x3E, 0x41, 0x41, 0x41, 0x3E,  # O
    0x7F, 0x09, 0x09, 0x09, 0x06,  # P
    0x3E, 0x41, 0x51, 0x21, 0x5E,  # Q
    0x7F, 0x09, 0x19, 0x29, 0x46,  # R
    0x46, 0x49, 0x49, 0x49, 0x31,  # S
    0x01, 0x01, 0x7F, 0x01, 0x01,  # T
    0x3F, 0x40, 0x40, 0x40, 0x3F,  # U
    0x1F, 0x20, 0x40, 0x20, 0x1F,  # V
    0x3F, 0x40, 0x38, 0x40, 0x3F,  # W
    0x63, 0x14, 0x08, 0x14, 0x63,  # X
    0x07, 0x08, 0x70, 0x08, 0x07,  # Y
    0x61, 0x51, 0x49, 0x45, 0x43,  # Z
    0x00, 0x7F, 0x41, 0x41, 0x00,  # [
    0x02, 0x04, 0x08, 0x10, 0x20,  # backslash
    0x00, 0x41, 0x41, 0x7F, 0x00,  # ]
    0x04, 0x02, 0x01, 0x02, 0x04,  # ^
    0x40, 0x40, 0x40, 0x40, 0x40,  # _
]


def columns(rows):
    """Glyph art rows -> column bytes, bit 0 = top row."""
    w = len(rows[0])
    assert all(len(r) == w for r in rows), rows
    out = []
    for x in range(w):
        v = 0
        for y, r in enumerate(rows):
            if r[x] == '#':
                v |= 1 << y
        out.append(v)
    return out


def build():
    f3 = bytearray()
    w3 = bytearray()
    for o in range(FIRST, LAST + 1):
        cols = columns(SMALL[chr(o)])
        assert len(cols) <= 5
        w3.append(len(cols))
        f3 += bytes(cols + [0] * (5 - len(cols)))
    d4 = bytearray()
    for d in '0123456789':
        d4 += bytes(columns(DIGITS4[d]))
    f5 = bytes(CLASSIC5X7)
    assert len(f5) == 5 * (LAST - FIRST + 1)
    return bytes(f3), bytes(w3), f5, bytes(d4)


def literal(name, data, per_line=16):
    lines = ['%s = (' % name]
    for i in range(0, len(data), per_line):
        lines.append("    b'" + ''.join('\\x%02x' % b for b in data[i:i + per_line]) + "'")
    lines.append(')')
    return '\n'.join(lines)


def module():
    f3, w3, f5, d4 = build()
    return '\n'.join([
        '# Matrix fonts: generated by tools/gen_font.py (edit the glyph art there, then rerun).',
        '# Column bytes, bit 0 = top row. Glyph g is ASCII 32 + g (32..95); the reader folds',
        '# lower case to upper case.',
        'FIRST = 32',
        'LAST = 95',
        '',
        '# 3x5 (M, N, W and a few symbols wider): 5 bytes a glyph, width in W3X5.',
        literal('F3X5', f3),
        literal('W3X5', w3),
        '',
        '# 5x7, fixed width 5: 5 bytes a glyph.',
        literal('F5X7', f5),
        '',
        '# 4x7 digits 0..9 for scores on 8-pixel-high panels: 4 bytes a digit.',
        literal('D4X7', d4),
        '',
    ])


def show():
    f3, w3, f5, d4 = build()
    for o in range(FIRST, LAST + 1):
        g = o - FIRST
        rows7 = [''.join('#' if f5[g * 5 + x] >> y & 1 else '.' for x in range(5))
                 for y in range(7)]
        w = w3[g]
        rows5 = [''.join('#' if f3[g * 5 + x] >> y & 1 else '.' for x in range(w))
                 for y in range(5)] + ['', '']
        print(repr(chr(o)))
        for a, b in zip(rows7, rows5):
            print('  ' + a + '   ' + b)
    for d in range(10):
        print(d)
        for y in range(7):
            print('  ' + ''.join('#' if d4[d * 4 + x] >> y & 1 else '.' for x in range(4)))


if __name__ == '__main__':
    if '--show' in sys.argv:
        show()
    else:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        path = os.path.join(root, 'firmware', 'scoreboard', 'render', 'font5.py')
        with open(path, 'w') as f:
            f.write(module())
        print('wrote', path)
