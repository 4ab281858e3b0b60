# A pure-Python stand-in for MicroPython's built-in `framebuf` (host only, CPython).
#
# Under the MicroPython unix port the real built-in `framebuf` wins over this file (built-in
# modules that are not extensible cannot be shadowed from sys.path), so the drivers run on the
# real C implementation there; under CPython this file provides the same pixel semantics so the
# same tests and the simulator work. Semantics follow extmod/modframebuf.c: MONO_* formats store
# `col != 0`; HLSB/HMSB round the stride up to a multiple of 8; fill_rect/hline/vline clip; text()
# uses the 8x8 petme128 font (copied from the real module, column bytes, bit 0 at the top), one
# character every 8 pixels, characters outside 32..127 drawn as 127.
# Implemented: fill, pixel, hline, vline, rect, fill_rect, line, text, blit, scroll.
# host_tests/test_drivers_matrix.py checks it against the real module under MicroPython.

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

FONT_8X8 = (
    b'\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x4f\x4f\x00\x00\x00'
    b'\x00\x07\x07\x00\x00\x07\x07\x00\x14\x7f\x7f\x14\x14\x7f\x7f\x14'
    b'\x00\x24\x2e\x6b\x6b\x3a\x12\x00\x00\x63\x33\x18\x0c\x66\x63\x00'
    b'\x00\x32\x7f\x4d\x4d\x77\x72\x50\x00\x00\x00\x04\x06\x03\x01\x00'
    b'\x00\x00\x1c\x3e\x63\x41\x00\x00\x00\x00\x41\x63\x3e\x1c\x00\x00'
    b'\x08\x2a\x3e\x1c\x1c\x3e\x2a\x08\x00\x08\x08\x3e\x3e\x08\x08\x00'
    b'\x00\x00\x80\xe0\x60\x00\x00\x00\x00\x08\x08\x08\x08\x08\x08\x00'
    b'\x00\x00\x00\x60\x60\x00\x00\x00\x00\x40\x60\x30\x18\x0c\x06\x02'
    b'\x00\x3e\x7f\x49\x45\x7f\x3e\x00\x00\x40\x44\x7f\x7f\x40\x40\x00'
    b'\x00\x62\x73\x51\x49\x4f\x46\x00\x00\x22\x63\x49\x49\x7f\x36\x00'
    b'\x00\x18\x18\x14\x16\x7f\x7f\x10\x00\x27\x67\x45\x45\x7d\x39\x00'
    b'\x00\x3e\x7f\x49\x49\x7b\x32\x00\x00\x03\x03\x79\x7d\x07\x03\x00'
    b'\x00\x36\x7f\x49\x49\x7f\x36\x00\x00\x26\x6f\x49\x49\x7f\x3e\x00'
    b'\x00\x00\x00\x24\x24\x00\x00\x00\x00\x00\x80\xe4\x64\x00\x00\x00'
    b'\x00\x08\x1c\x36\x63\x41\x41\x00\x00\x14\x14\x14\x14\x14\x14\x00'
    b'\x00\x41\x41\x63\x36\x1c\x08\x00\x00\x02\x03\x51\x59\x0f\x06\x00'
    b'\x00\x3e\x7f\x41\x4d\x4f\x2e\x00\x00\x7c\x7e\x0b\x0b\x7e\x7c\x00'
    b'\x00\x7f\x7f\x49\x49\x7f\x36\x00\x00\x3e\x7f\x41\x41\x63\x22\x00'
    b'\x00\x7f\x7f\x41\x63\x3e\x1c\x00\x00\x7f\x7f\x49\x49\x41\x41\x00'
    b'\x00\x7f\x7f\x09\x09\x01\x01\x00\x00\x3e\x7f\x41\x49\x7b\x3a\x00'
    b'\x00\x7f\x7f\x08\x08\x7f\x7f\x00\x00\x00\x41\x7f\x7f\x41\x00\x00'
    b'\x00\x20\x60\x41\x7f\x3f\x01\x00\x00\x7f\x7f\x1c\x36\x63\x41\x00'
    b'\x00\x7f\x7f\x40\x40\x40\x40\x00\x00\x7f\x7f\x06\x0c\x06\x7f\x7f'
    b'\x00\x7f\x7f\x0e\x1c\x7f\x7f\x00\x00\x3e\x7f\x41\x41\x7f\x3e\x00'
    b'\x00\x7f\x7f\x09\x09\x0f\x06\x00\x00\x1e\x3f\x21\x61\x7f\x5e\x00'
    b'\x00\x7f\x7f\x19\x39\x6f\x46\x00\x00\x26\x6f\x49\x49\x7b\x32\x00'
    b'\x00\x01\x01\x7f\x7f\x01\x01\x00\x00\x3f\x7f\x40\x40\x7f\x3f\x00'
    b'\x00\x1f\x3f\x60\x60\x3f\x1f\x00\x00\x7f\x7f\x30\x18\x30\x7f\x7f'
    b'\x00\x63\x77\x1c\x1c\x77\x63\x00\x00\x07\x0f\x78\x78\x0f\x07\x00'
    b'\x00\x61\x71\x59\x4d\x47\x43\x00\x00\x00\x7f\x7f\x41\x41\x00\x00'
    b'\x00\x02\x06\x0c\x18\x30\x60\x40\x00\x00\x41\x41\x7f\x7f\x00\x00'
    b'\x00\x08\x0c\x06\x06\x0c\x08\x00\xc0\xc0\xc0\xc0\xc0\xc0\xc0\xc0'
    b'\x00\x00\x01\x03\x06\x04\x00\x00\x00\x20\x74\x54\x54\x7c\x78\x00'
    b'\x00\x7f\x7f\x44\x44\x7c\x38\x00\x00\x38\x7c\x44\x44\x6c\x28\x00'
    b'\x00\x38\x7c\x44\x44\x7f\x7f\x00\x00\x38\x7c\x54\x54\x5c\x58\x00'
    b'\x00\x08\x7e\x7f\x09\x03\x02\x00\x00\x98\xbc\xa4\xa4\xfc\x7c\x00'
    b'\x00\x7f\x7f\x04\x04\x7c\x78\x00\x00\x00\x00\x7d\x7d\x00\x00\x00'
    b'\x00\x40\xc0\x80\x80\xfd\x7d\x00\x00\x7f\x7f\x30\x38\x6c\x44\x00'
    b'\x00\x00\x41\x7f\x7f\x40\x00\x00\x00\x7c\x7c\x18\x30\x18\x7c\x7c'
    b'\x00\x7c\x7c\x04\x04\x7c\x78\x00\x00\x38\x7c\x44\x44\x7c\x38\x00'
    b'\x00\xfc\xfc\x24\x24\x3c\x18\x00\x00\x18\x3c\x24\x24\xfc\xfc\x00'
    b'\x00\x7c\x7c\x04\x04\x0c\x08\x00\x00\x48\x5c\x54\x54\x74\x20\x00'
    b'\x04\x04\x3f\x7f\x44\x64\x20\x00\x00\x3c\x7c\x40\x40\x7c\x3c\x00'
    b'\x00\x1c\x3c\x60\x60\x3c\x1c\x00\x00\x1c\x7c\x30\x18\x30\x7c\x1c'
    b'\x00\x44\x6c\x38\x38\x6c\x44\x00\x00\x9c\xbc\xa0\xa0\xfc\x7c\x00'
    b'\x00\x44\x64\x74\x5c\x4c\x44\x00\x00\x08\x08\x3e\x77\x41\x41\x00'
    b'\x00\x00\x00\xff\xff\x00\x00\x00\x00\x41\x41\x77\x3e\x08\x08\x00'
    b'\x00\x02\x03\x01\x03\x02\x03\x01\xaa\x55\xaa\x55\xaa\x55\xaa\x55'
)


class FrameBuffer:
    def __init__(self, buf, width, height, format, stride=None):
        if stride is None:
            stride = width
        if format in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
        elif format not in (MONO_VLSB, GS8, RGB565, GS2_HMSB, GS4_HMSB):
            raise ValueError('invalid format')
        self._buf = buf
        self._mv = memoryview(buf).cast('B') if not isinstance(buf, bytearray) else buf
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride

    # -- raw pixel access ------------------------------------------------------------------
    def _set(self, x, y, col):
        f = self.format
        b = self._mv
        if f == MONO_VLSB:
            i = (y >> 3) * self.stride + x
            bit = 1 << (y & 7)
            b[i] = (b[i] | bit) if col else (b[i] & ~bit & 0xFF)
        elif f == MONO_HLSB or f == MONO_HMSB:
            i = (x + y * self.stride) >> 3
            off = (x & 7) if f == MONO_HMSB else 7 - (x & 7)
            bit = 1 << off
            b[i] = (b[i] | bit) if col else (b[i] & ~bit & 0xFF)
        elif f == GS8:
            b[x + y * self.stride] = col & 0xFF
        elif f == RGB565:
            i = (x + y * self.stride) * 2
            b[i] = col & 0xFF
            b[i + 1] = (col >> 8) & 0xFF
        elif f == GS4_HMSB:
            i = (x + y * self.stride) >> 1
            if x & 1:
                b[i] = (b[i] & 0xF0) | (col & 0x0F)
            else:
                b[i] = (b[i] & 0x0F) | ((col & 0x0F) << 4)
        else:  # GS2_HMSB
            i = (x + y * self.stride) >> 2
            sh = (x & 3) << 1
            b[i] = (b[i] & ~(3 << sh) & 0xFF) | ((col & 3) << sh)

    def _get(self, x, y):
        f = self.format
        b = self._mv
        if f == MONO_VLSB:
            return (b[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        if f == MONO_HLSB or f == MONO_HMSB:
            off = (x & 7) if f == MONO_HMSB else 7 - (x & 7)
            return (b[(x + y * self.stride) >> 3] >> off) & 1
        if f == GS8:
            return b[x + y * self.stride]
        if f == RGB565:
            i = (x + y * self.stride) * 2
            return b[i] | (b[i + 1] << 8)
        if f == GS4_HMSB:
            v = b[(x + y * self.stride) >> 1]
            return (v & 0x0F) if x & 1 else (v >> 4)
        return (b[(x + y * self.stride) >> 2] >> ((x & 3) << 1)) & 3

    # -- the public API ----------------------------------------------------------------------
    def fill(self, c):
        self._fill_rect(0, 0, self.width, self.height, c)

    def _fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        for yy in range(y, yend):
            for xx in range(x, xend):
                self._set(xx, yy, c)

    def fill_rect(self, x, y, w, h, c):
        self._fill_rect(x, y, w, h, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    def hline(self, x, y, w, c):
        self._fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self._fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self._fill_rect(x, y, w, h, c)
        else:
            self._fill_rect(x, y, w, 1, c)
            self._fill_rect(x, y + h - 1, w, 1, c)
            self._fill_rect(x, y, 1, h, c)
            self._fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1 if dx else 1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1 if dy else 1
        steep = False
        if dy > dx:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
            steep = True
        e = 2 * dy - dx
        w = self.width
        h = self.height
        for _ in range(dx):
            if steep:
                if 0 <= y1 < w and 0 <= x1 < h:
                    self._set(y1, x1, c)
            elif 0 <= x1 < w and 0 <= y1 < h:
                self._set(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            self._set(x2, y2, c)

    def text(self, s, x0, y0, c=1):
        w = self.width
        h = self.height
        for ch in s:
            o = ord(ch)
            if o < 32 or o > 127:
                o = 127
            base = (o - 32) * 8
            for j in range(8):
                col = FONT_8X8[base + j]
                x = x0 + j
                if 0 <= x < w:
                    y = y0
                    while col:
                        if col & 1 and 0 <= y < h:
                            self._set(x, y, c)
                        col >>= 1
                        y += 1
            x0 += 8

    def blit(self, src, x, y, key=-1, palette=None):
        if isinstance(src, tuple):
            src = FrameBuffer(*src)
        if (x >= self.width or y >= self.height or -x >= src.width or -y >= src.height):
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self.width, x + src.width)
        y0end = min(self.height, y + src.height)
        for cy in range(y0, y0end):
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = src._get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(cx0, cy, col)
                cx1 += 1
            y1 += 1

    def scroll(self, xstep, ystep):
        w = self.width
        h = self.height
        if xstep < 0:
            sx, xend, dx = 0, w + xstep, 1
            if xend <= 0:
                return
        else:
            sx, xend, dx = w - 1, xstep - 1, -1
            if xend >= sx:
                return
        if ystep < 0:
            y, yend, dy = 0, h + ystep, 1
            if yend <= 0:
                return
        else:
            y, yend, dy = h - 1, ystep - 1, -1
            if yend >= y:
                return
        while y != yend:
            x = sx
            while x != xend:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy


FrameBuffer1 = FrameBuffer
