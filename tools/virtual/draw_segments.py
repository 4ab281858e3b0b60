# Pictures of seven-segment chips ('segments' kind): three-line terminal art with ANSI colour,
# and PNG through Pillow (imported inside png() so this module loads under MicroPython too).
#
#   term(chip) -> ['  _     _ ', ' |_| |  _|', ...]   one string a line, 4 columns a digit
#   png(chip, scale=4) -> PIL.Image
#   term_row(chips) / png_row(chips): several chips side by side.
# Only the segments the module has are drawn: a chip view may say which positions have a
# decimal point (`dp`, None for all) and where a colon sits (`colon`: the position whose dp line
# lights it, drawn after that digit), as the 4-digit clock modules wire it.

_ANSI = {'red': ('\x1b[91m', '\x1b[31m'), 'blue': ('\x1b[94m', '\x1b[34m'),
         None: ('\x1b[97m', '\x1b[37m')}
_DIM = '\x1b[2m'
_RESET = '\x1b[0m'
_DIM_LEVEL = 2          # level at or below this draws dim


def _colours(chip, n):
    """One colour name a digit: the chip's per-digit colours where it has them."""
    fn = getattr(chip, 'colours', None)
    if fn is not None:
        cs = fn()
        lit = [c for c in cs if c is not None]
        default = lit[0] if lit else getattr(chip, 'colour', None)
        return [c if c is not None else default for c in cs]
    return [getattr(chip, 'colour', None)] * n


def art(seg):
    """The three 4-column strings of one digit (no colour)."""
    def s(bit, ch):
        return ch if seg & (1 << bit) else ' '
    return (' ' + s(0, '_') + '  ',
            s(5, '|') + s(6, '_') + s(1, '|') + ' ',
            s(4, '|') + s(3, '_') + s(2, '|') + s(7, '.'))


def shown(chip):
    """(segment bytes a position lights, the colon's position or None, whether it is lit): the
    chip's outputs as the module shows them, with no dp where the module has no point."""
    raw = chip.digits()
    if not chip.on:
        raw = [0] * len(raw)
    dps = getattr(chip, 'dp', None)
    colon = getattr(chip, 'colon', None)
    segs = []
    for p in range(len(raw)):
        has_dp = dps is None or p in dps
        segs.append(raw[p] if has_dp and p != colon else raw[p] & 0x7F)
    lit = colon is not None and bool(raw[colon] & 0x80)
    return segs, colon, lit


def term(chip, colour=True):
    """Three lines of big seven-segment art for a chip, in its colour (dim when its level is
    low, blank when it is off)."""
    digits, colon, colon_lit = shown(chip)
    lines = ['', '', '']
    cols = _colours(chip, len(digits))
    dim = chip.level <= _DIM_LEVEL
    for i in range(len(digits)):
        parts = art(digits[i])
        pre = ''
        if colour:
            bright, normal = _ANSI.get(cols[i], _ANSI[None])
            pre = (_DIM + normal) if dim else bright
        if i == colon:
            # the clock modules' colon, between this digit and the next (where a point is not)
            parts = (parts[0], parts[1][:3] + (':' if colon_lit else ' '), parts[2])
        for k in range(3):
            lines[k] += pre + parts[k] + (_RESET if colour else '')
    return lines


def term_row(chips, gap='   ', colour=True):
    out = ['', '', '']
    for j in range(len(chips)):
        t = term(chips[j], colour)
        for k in range(3):
            out[k] += (gap if j else '') + t[k]
    return out


# Segment rectangles in units of a 10 x 18 digit: (x0, y0, x1, y1) for a..g, dp.
_RECTS = ((2, 0, 8, 2), (8, 2, 10, 8), (8, 10, 10, 16), (2, 16, 8, 18), (0, 10, 2, 16),
          (0, 2, 2, 8), (2, 8, 8, 10), (11, 16, 13, 18))
_PITCH = 15
_MARGIN = 2
_RGB = {'red': (255, 40, 30), 'blue': (40, 110, 255), None: (235, 235, 235)}
_UNLIT = (28, 28, 28)


def _lit_rgb(name, level):
    r, g, b = _RGB.get(name, _RGB[None])
    f = 35 + 65 * level // 7            # percent: level 0 is still visible
    return (r * f // 100, g * f // 100, b * f // 100)


def png(chip, scale=4):
    """A PIL.Image of the chip's digits: lit segments in its colour, unlit ones dark grey."""
    from PIL import Image, ImageDraw
    n = len(chip.digits())
    w = (_MARGIN * 2 + _PITCH * n) * scale
    h = (_MARGIN * 2 + 18) * scale
    img = Image.new('RGB', (w, h), (0, 0, 0))
    draw = ImageDraw.Draw(img)
    cols = _colours(chip, n)
    segs, colon, colon_lit = shown(chip)
    dps = getattr(chip, 'dp', None)
    level = chip.level

    def box(x0, y0, x1, y1, fill):
        draw.rectangle((x0 * scale, (_MARGIN + y0) * scale, x1 * scale - 1,
                        (_MARGIN + y1) * scale - 1), fill=fill)

    for i in range(n):
        seg = segs[i]
        ox = _MARGIN + i * _PITCH
        lit = _lit_rgb(cols[i], level)
        for s in range(8):
            if s == 7 and (i == colon or (dps is not None and i not in dps)):
                continue        # the module has no point here
            x0, y0, x1, y1 = _RECTS[s]
            box(ox + x0, y0, ox + x1, y1, lit if seg & (1 << s) else _UNLIT)
        if i == colon:
            fill = lit if colon_lit else _UNLIT
            cx = ox + 11
            box(cx, 5, cx + 2, 7, fill)
            box(cx, 11, cx + 2, 13, fill)
    return img


def png_row(chips, scale=4, gap=8):
    """Several chips side by side, `gap` units apart."""
    from PIL import Image
    imgs = [png(c, scale) for c in chips]
    w = sum(i.size[0] for i in imgs) + gap * scale * (len(imgs) - 1 if imgs else 0)
    h = max(i.size[1] for i in imgs) if imgs else 1
    out = Image.new('RGB', (max(w, 1), h), (0, 0, 0))
    x = 0
    for i in imgs:
        out.paste(i, (x, 0))
        x += i.size[0] + gap * scale
    return out
