# Seven-segment digits built from WS2812 (NeoPixel) strip pieces, through MicroPython's built-in
# `neopixel` module.
#
# Each digit is seven strip pieces of `leds` LEDs, plus `dp_leds` for the decimal point (the
# layouts' hammer/turn marker: give it at least one LED), laid along the data line in the order
# `seg_order` (canonical segment numbers 0 = a .. 6 = g, the path the builder glued them in),
# the dp last; the digits follow one another, leftmost first.
# WS2812 facts (Worldsemi datasheet): 24 bits a LED, G R B order, MSB first; the neopixel
# module's buffer is in that order (NeoPixel.ORDER maps R, G, B, W to buffer offsets).
# Colour is per digit: red digits for red, blue for blue (`colours`, one (r, g, b) a digit, or
# 'red'/'blue'/'white' for all; default: the left half red, the right half blue). Brightness
# scales the colours once, in brightness(); show() only copies bytes.
from ..compat import const

from scoreboard.drivers import level as clamp

SEG_ORDER = b'\x00\x01\x02\x03\x04\x05\x06'    # a, b, c, d, e, f, g along the strip
# Brightness 0..7 -> scale of the colour channels /255 (roughly even steps to the eye).
SCALE = b'\x08\x10\x20\x30\x48\x70\xb0\xff'
NAMED = (('red', (255, 0, 0)), ('blue', (0, 0, 255)), ('white', (255, 255, 255)),
         ('green', (0, 255, 0)), ('amber', (255, 120, 0)))
_DP_SEG = const(7)


def _rgb(c):
    if isinstance(c, str):
        for name, rgb in NAMED:
            if name == c:
                return rgb
        raise ValueError('colour ' + c)
    return c


class WS2812Digits:
    def __init__(self, pin, digits=4, leds=3, seg_order=SEG_ORDER, dp_leds=0, colours=None,
                 brightness=7, bpp=3, np=None):
        if np is None:
            import neopixel
            np = neopixel.NeoPixel(pin, digits * (7 * leds + dp_leds), bpp=bpp)
        self.np = np
        self.pin = pin
        self.width = digits
        self.leds = leds
        self.seg_order = seg_order
        self.dp_leds = dp_leds
        self.per_digit = len(seg_order) * leds + dp_leds
        if colours is None:
            colours = tuple((255, 0, 0) if d < digits // 2 else (0, 0, 255)
                            for d in range(digits))
        elif isinstance(colours, str):
            colours = (colours,) * digits
        self.colours = tuple(_rgb(c) for c in colours)
        named = None
        for name in ('red', 'blue'):
            rgb = _rgb(name)
            if all(c == rgb for c in self.colours):
                named = name
        self.colour = named        # 'red'/'blue' when every digit has that colour
        self.buf = bytearray(digits)
        self.bpp = np.bpp
        self._px = bytearray(digits * self.bpp)   # scaled colour a digit, buffer byte order
        self._level = clamp(brightness)
        self._on = True
        self._scale()
        self.show()

    def _scale(self):
        order = self.np.ORDER
        s = SCALE[self._level]
        bpp = self.bpp
        px = self._px
        for d in range(self.width):
            rgb = self.colours[d]
            for c in range(bpp):
                v = rgb[c] if c < len(rgb) else 0
                px[d * bpp + order[c]] = (v * s + 127) // 255

    def show(self):
        out = self.np.buf
        buf = self.buf
        px = self._px
        bpp = self.bpp
        leds = self.leds
        order = self.seg_order
        nseg = len(order)
        on = self._on
        i = 0
        for d in range(self.width):
            seg = buf[d] if on else 0
            p0 = d * bpp
            for s in range(nseg):
                lit = (seg >> order[s]) & 1
                for _ in range(leds):
                    for c in range(bpp):
                        out[i + c] = px[p0 + c] if lit else 0
                    i += bpp
            lit = (seg >> _DP_SEG) & 1
            for _ in range(self.dp_leds):
                for c in range(bpp):
                    out[i + c] = px[p0 + c] if lit else 0
                i += bpp
        self.np.write()

    def brightness(self, level):
        level = clamp(level)
        self._level = level
        self._scale()
        self.show()

    def power(self, on):
        self._on = bool(on)
        self.show()

    def deinit(self):
        self._on = False
        self.show()
