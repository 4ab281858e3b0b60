# WS2812/NeoPixel matrix panels (e.g. the flexible 8x32 panels) through the built-in `neopixel`.
#
# Facts used (WorldSemi WS2812B datasheet; MicroPython `neopixel` docs):
#   - Each LED takes 24 bits, G7..G0 R7..R0 B7..B0, MSB first, and passes the rest of the stream
#     on: LED 0 is the one wired to the MCU. neopixel.NeoPixel keeps them in `buf`, GRB order,
#     3 bytes a pixel, and write() sends the whole buffer (then a >50 us low resets the chain).
#   - Each colour channel draws up to ~20 mA at 255 (about 60 mA per LED at full white), 5 V.
#
# The layout draws palette indices into a GS8 framebuffer (one byte a pixel, so framebuf's text,
# rect, hline, fill_rect work); show() maps it to the NeoPixel GRB buffer through a precomputed
# LED -> framebuffer index table (undoes the serpentine wiring) and a 256-entry palette of GRB
# bytes already scaled by the brightness: three byte stores a pixel, no tuple, no allocation.
#
# Wiring options: `vertical` False: the chain runs along rows (LED 0..width-1 is the first row),
# True: along columns (the common 8x32 panels). `serpentine` True: every other row/column runs
# back (zig-zag), False: every one starts on the same side (progressive). `start`: the corner of
# LED 0, 'top-left', 'top-right', 'bottom-left' or 'bottom-right', as seen from the front.
from scoreboard.drivers import level as clamp

import framebuf
import neopixel
from array import array

# The layouts' palette (indices -> (r, g, b) at full scale) is render/palette.py's; indices it
# does not name show black.
from scoreboard.render.palette import PALETTE

# Largest channel value at brightness level 0..7. 120 at the top keeps a 256-LED panel's
# current in reach of a 5 V / 4 A supply (a lit red pixel: about 120/255 * 20 mA).
LEVELS = b'\x04\x08\x0e\x16\x22\x34\x50\x78'


def led_index(x, y, width, height, vertical=True, serpentine=True, start='top-left'):
    """The chain position of the LED at panel (x, y)."""
    if start.endswith('right'):
        x = width - 1 - x
    if start.startswith('bottom'):
        y = height - 1 - y
    if vertical:
        if serpentine and (x & 1):
            y = height - 1 - y
        return x * height + y
    if serpentine and (y & 1):
        x = width - 1 - x
    return y * width + x


class WS2812Panel(framebuf.FrameBuffer):
    LEVEL_TABLE = LEVELS      # the largest channel value per brightness level (public)

    def __init__(self, pin, width=32, height=8, vertical=True, serpentine=True,
                 start='top-left', palette=PALETTE, level=3, np=None):
        self.pin = pin
        self.width = width
        self.height = height
        self.vertical = vertical
        self.serpentine = serpentine
        self.start = start
        self.n = n = width * height
        self.np = np if np is not None else neopixel.NeoPixel(pin, n)
        self.buffer = bytearray(n)                 # GS8: one palette index a pixel
        super().__init__(self.buffer, width, height, framebuf.GS8)
        self._last = bytearray(n)
        self._map = array('H', [0] * n)            # LED k shows framebuffer byte _map[k]
        for y in range(height):
            for x in range(width):
                self._map[led_index(x, y, width, height, vertical, serpentine, start)] = (
                    y * width + x)
        self._colours = palette
        self._pal = bytearray(3 * 256)             # GRB bytes per index at the current level
        self._on = True
        self._level = level
        self._set_level(level)
        self.fill(0)
        self.show()

    def _set_level(self, level):
        level = clamp(level)
        self._level = level
        s = LEVELS[level]
        pal = self._pal
        for i in range(len(self._colours)):
            r, g, b = self._colours[i]
            pal[3 * i] = g * s // 255
            pal[3 * i + 1] = r * s // 255
            pal[3 * i + 2] = b * s // 255

    def brightness(self, level):
        self._set_level(level)
        self.show()

    def power(self, on):
        self._on = bool(on)
        self.show()

    def show(self):
        """Map the framebuffer to the GRB buffer and write it (black while powered off)."""
        fb = self.buffer
        out = self.np.buf
        last = self._last
        last[:] = fb
        if not self._on:
            for k in range(len(out)):
                out[k] = 0
            self.np.write()
            return
        pal = self._pal
        m = self._map
        o = 0
        for k in range(self.n):
            c = fb[m[k]] * 3
            out[o] = pal[c]
            out[o + 1] = pal[c + 1]
            out[o + 2] = pal[c + 2]
            o += 3
        self.np.write()

    def update(self):
        """Push only if the framebuffer changed since the last push; True if it pushed."""
        if self.buffer == self._last:
            return False
        self.show()
        return True

    def deinit(self):
        self.fill(0)
        self._on = False
        self.show()
