# Pictures of 'pixels' chips (tools/virtual/max7219_matrix.py, ws2812_panel.py): terminal lines
# and PNG images, drawn from chip.pixel(x, y), chip.on and chip.level only.
#
#   term(chip)            -> list of str: two pixel rows per line with the upper half block
#                            U+2580 (foreground = upper pixel, background = lower pixel) in ANSI
#                            24-bit colour; unlit LEDs in a dark grey so the grid shows.
#   png(chip, scale=12)   -> PIL.Image: round LEDs on a black board, dimmed with chip.level.
# Runs under CPython; term() also under MicroPython (PIL is imported inside png() only).

UNLIT = (14, 14, 14)
HALF = '\u2580'


def _shade(rgb, level, on):
    """An LED's colour as seen: off panels dark, the level 0..7 dims to 55%..100%."""
    if not on or rgb == (0, 0, 0):
        return UNLIT
    k = 55 + level * 45 // 7
    return (rgb[0] * k // 100, rgb[1] * k // 100, rgb[2] * k // 100)


def term(chip):
    on = chip.on
    level = chip.level
    lines = []
    for y in range(0, chip.height, 2):
        parts = []
        for x in range(chip.width):
            top = _shade(chip.pixel(x, y), level, on)
            if y + 1 < chip.height:
                bot = _shade(chip.pixel(x, y + 1), level, on)
            else:
                bot = (0, 0, 0)
            parts.append('\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm%s' % (
                top[0], top[1], top[2], bot[0], bot[1], bot[2], HALF))
        lines.append(''.join(parts) + '\x1b[0m')
    return lines


def png(chip, scale=12, margin=None):
    from PIL import Image, ImageDraw
    if margin is None:
        margin = scale
    w = chip.width * scale + 2 * margin
    h = chip.height * scale + 2 * margin
    img = Image.new('RGB', (w, h), (8, 8, 8))
    d = ImageDraw.Draw(img)
    on = chip.on
    level = chip.level
    pad = max(1, scale // 8)
    for y in range(chip.height):
        for x in range(chip.width):
            c = _shade(chip.pixel(x, y), level, on)
            x0 = margin + x * scale + pad
            y0 = margin + y * scale + pad
            d.ellipse([x0, y0, x0 + scale - 2 * pad - 1, y0 + scale - 2 * pad - 1], fill=c)
    return img
