# MAX7219 / MAX7221 driving 8-digit seven-segment modules (Maxim 19-4452 datasheet), chainable.
#
# Datasheet facts used here:
#   - 16-bit words, MSB first: D15..D12 don't care, D11..D8 register address, D7..D0 data; data
#     are latched on LOAD (CS) rising edge; in a chain the first word sent reaches the LAST chip,
#     so one frame is one word per chip, the farthest chip's word first. SPI mode 0, <= 10 MHz.
#   - registers (Table 2): 0x01..0x08 digit 0..7, 0x09 decode mode, 0x0A intensity (0..15),
#     0x0B scan limit (7: all eight digits), 0x0C shutdown (0 shutdown, 1 normal operation),
#     0x0F display test (0 normal, 1 all LEDs on).
#   - no-decode data (Table 6): D7..D0 = DP, A, B, C, D, E, F, G; REMAP turns a canonical
#     segment byte (bit0 = a .. bit6 = g, bit7 = dp) into that order.
#   - power-up state is shutdown with undefined digit registers, so every control register is
#     written at init; show() writes them again, which also heals a chip that lost them to noise.
# Modules: digit 0 (register 0x01) is the rightmost digit; chip 0 (nearest the MCU) shows the
# leftmost eight digits.
from ..compat import const

from scoreboard.drivers import level as clamp

REG_DIGIT0 = const(0x01)
REG_DECODE = const(0x09)
REG_INTENSITY = const(0x0A)
REG_SCAN_LIMIT = const(0x0B)
REG_SHUTDOWN = const(0x0C)
REG_TEST = const(0x0F)

# Brightness 0..7 -> intensity register 0..15 (duty 1/32 .. 31/32).
INTENSITY = b'\x00\x02\x04\x06\x08\x0a\x0c\x0f'

# Canonical segments -> no-decode register data (DP A B C D E F G = D7..D0).
REMAP = (
    b'\x00\x40\x20\x60\x10\x50\x30\x70\x08\x48\x28\x68\x18\x58\x38\x78'
    b'\x04\x44\x24\x64\x14\x54\x34\x74\x0c\x4c\x2c\x6c\x1c\x5c\x3c\x7c'
    b'\x02\x42\x22\x62\x12\x52\x32\x72\x0a\x4a\x2a\x6a\x1a\x5a\x3a\x7a'
    b'\x06\x46\x26\x66\x16\x56\x36\x76\x0e\x4e\x2e\x6e\x1e\x5e\x3e\x7e'
    b'\x01\x41\x21\x61\x11\x51\x31\x71\x09\x49\x29\x69\x19\x59\x39\x79'
    b'\x05\x45\x25\x65\x15\x55\x35\x75\x0d\x4d\x2d\x6d\x1d\x5d\x3d\x7d'
    b'\x03\x43\x23\x63\x13\x53\x33\x73\x0b\x4b\x2b\x6b\x1b\x5b\x3b\x7b'
    b'\x07\x47\x27\x67\x17\x57\x37\x77\x0f\x4f\x2f\x6f\x1f\x5f\x3f\x7f'
    b'\x80\xc0\xa0\xe0\x90\xd0\xb0\xf0\x88\xc8\xa8\xe8\x98\xd8\xb8\xf8'
    b'\x84\xc4\xa4\xe4\x94\xd4\xb4\xf4\x8c\xcc\xac\xec\x9c\xdc\xbc\xfc'
    b'\x82\xc2\xa2\xe2\x92\xd2\xb2\xf2\x8a\xca\xaa\xea\x9a\xda\xba\xfa'
    b'\x86\xc6\xa6\xe6\x96\xd6\xb6\xf6\x8e\xce\xae\xee\x9e\xde\xbe\xfe'
    b'\x81\xc1\xa1\xe1\x91\xd1\xb1\xf1\x89\xc9\xa9\xe9\x99\xd9\xb9\xf9'
    b'\x85\xc5\xa5\xe5\x95\xd5\xb5\xf5\x8d\xcd\xad\xed\x9d\xdd\xbd\xfd'
    b'\x83\xc3\xa3\xe3\x93\xd3\xb3\xf3\x8b\xcb\xab\xeb\x9b\xdb\xbb\xfb'
    b'\x87\xc7\xa7\xe7\x97\xd7\xb7\xf7\x8f\xcf\xaf\xef\x9f\xdf\xbf\xff'
)


class MAX7219Digits:
    def __init__(self, spi, cs, n_devices=1, colour=None, brightness=7):
        self.spi = spi
        self.cs = cs
        self.n_devices = n_devices
        self.width = 8 * n_devices
        self.colour = colour
        self.buf = bytearray(self.width)
        self._frame = bytearray(2 * n_devices)
        self._level = clamp(brightness)
        self._on = True
        cs.init(cs.OUT, value=1)
        self._all(REG_TEST, 0)
        self._all(REG_DECODE, 0)
        self._all(REG_SCAN_LIMIT, 7)
        self._all(REG_INTENSITY, INTENSITY[self._level])
        self._digits()
        self._all(REG_SHUTDOWN, 1)

    def _send(self):
        self.cs(0)
        self.spi.write(self._frame)
        self.cs(1)

    def _all(self, reg, data):
        """One frame writing the same register on every chip."""
        f = self._frame
        for j in range(self.n_devices):
            f[2 * j] = reg
            f[2 * j + 1] = data
        self._send()

    def _digits(self):
        f = self._frame
        buf = self.buf
        n = self.n_devices
        for d in range(8):
            for j in range(n):
                k = n - 1 - j               # the first word sent ends in the last chip
                f[2 * j] = REG_DIGIT0 + d
                f[2 * j + 1] = REMAP[buf[8 * k + 7 - d]]
            self._send()

    def show(self):
        self._all(REG_TEST, 0)
        self._all(REG_DECODE, 0)
        self._all(REG_SCAN_LIMIT, 7)
        self._all(REG_INTENSITY, INTENSITY[self._level])
        self._digits()
        self._all(REG_SHUTDOWN, 1 if self._on else 0)

    def brightness(self, level):
        level = clamp(level)
        self._level = level
        self._all(REG_INTENSITY, INTENSITY[level])

    def power(self, on):
        self._on = bool(on)
        self._all(REG_SHUTDOWN, 1 if on else 0)

    def deinit(self):
        self._on = False
        self._all(REG_SHUTDOWN, 0)
