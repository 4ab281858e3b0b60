# MAX7219 chains of 8x8 LED matrix modules drawn as one framebuf.FrameBuffer.
#
# Datasheet: Maxim MAX7219/MAX7221 (19-4452). Facts used here:
#   - Serial words are 16 bits, MSB first: D15..D12 don't care, D11..D8 register address,
#     D7..D0 data (Table 1). Data is clocked in on CLK rising edges (SPI mode 0) and latched on
#     the rising edge of LOAD (CS); DOUT passes the bits on, so in a chain of N chips one LOAD
#     frame carries N words and the FIRST word sent ends in the LAST chip of the chain.
#   - Register map (Table 2): 0x00 no-op, 0x01..0x08 digit 0..7, 0x09 decode mode,
#     0x0A intensity, 0x0B scan limit, 0x0C shutdown, 0x0F display test.
#   - Decode mode 0x00 = no decode for any digit (Table 4): each digit register holds the raw
#     segment byte, D7 = DP, D6..D0 = A..G; on a matrix module a digit is a row (or column)
#     and a segment line one LED of it.
#   - Intensity (Table 7): low nibble 0x0..0xF = duty 1/32..31/32 (MAX7219).
#   - Scan limit (Table 8): 0x07 scans all eight digits (required for an 8x8 matrix).
#   - Shutdown (Table 3): D0 = 0 shutdown (display blank, registers kept), 1 normal operation.
#   - Display test (Table 10): D0 = 1 all LEDs on, 0 normal operation. Some chips power up with
#     test mode on, so init writes it explicitly.
#   - Power-up: the chip is in shutdown with decode off and scan limit 0; digit registers are
#     not cleared, so a push sends the rows first and the control registers (shutdown last).
#
# Module arrangement: `modules` lists, for each chip in chain order (index 0 = the chip whose DIN
# is wired to the MCU), the (mx, my, rot) of its 8x8 module on the panel: mx/my are module
# column/row (0, 0 = top left) and rot the clockwise rotation (0, 90, 180, 270) of the module's
# own picture as mounted. The module's own picture (rot 0) is the FC-16 wiring: digit register
# 0x01 + v drives row v (top first) and data bit 7 - u the LED in column u (bit 7 leftmost).
# The generic single modules with the DIP chip under the matrix drive columns from the digit
# registers: mount them as rot 90 or 270. arrangement() builds the common layouts.
#
# The framebuffer format follows the rotation: MONO_HLSB when every module is at 0/180 degrees
# (a digit register is then one HLSB byte, bit-reversed at 180), MONO_VLSB at 90/270 (one VLSB
# column byte). show() copies one byte per chip and register through a precomputed index table
# into a reusable command buffer: no allocation per refresh (mcauser's max7219 builds a new
# bytearray on every show()).
from ..compat import const

from scoreboard.drivers import level as clamp

import framebuf
from array import array

_NOOP = const(0x00)
_DIGIT0 = const(0x01)
_DECODE = const(0x09)
_INTENSITY = const(0x0A)
_SCAN_LIMIT = const(0x0B)
_SHUTDOWN = const(0x0C)
_TEST = const(0x0F)

_REVERSED = const(0x8000)   # flag in the index table: bit-reverse the byte

# Bit reversal of a byte (a module mounted upside down or mirrored): _REV[b] has bit 7 - k of b
# in bit k.
_REV = (
    b'\x00\x80\x40\xc0\x20\xa0\x60\xe0\x10\x90\x50\xd0\x30\xb0\x70\xf0'
    b'\x08\x88\x48\xc8\x28\xa8\x68\xe8\x18\x98\x58\xd8\x38\xb8\x78\xf8'
    b'\x04\x84\x44\xc4\x24\xa4\x64\xe4\x14\x94\x54\xd4\x34\xb4\x74\xf4'
    b'\x0c\x8c\x4c\xcc\x2c\xac\x6c\xec\x1c\x9c\x5c\xdc\x3c\xbc\x7c\xfc'
    b'\x02\x82\x42\xc2\x22\xa2\x62\xe2\x12\x92\x52\xd2\x32\xb2\x72\xf2'
    b'\x0a\x8a\x4a\xca\x2a\xaa\x6a\xea\x1a\x9a\x5a\xda\x3a\xba\x7a\xfa'
    b'\x06\x86\x46\xc6\x26\xa6\x66\xe6\x16\x96\x56\xd6\x36\xb6\x76\xf6'
    b'\x0e\x8e\x4e\xce\x2e\xae\x6e\xee\x1e\x9e\x5e\xde\x3e\xbe\x7e\xfe'
    b'\x01\x81\x41\xc1\x21\xa1\x61\xe1\x11\x91\x51\xd1\x31\xb1\x71\xf1'
    b'\x09\x89\x49\xc9\x29\xa9\x69\xe9\x19\x99\x59\xd9\x39\xb9\x79\xf9'
    b'\x05\x85\x45\xc5\x25\xa5\x65\xe5\x15\x95\x55\xd5\x35\xb5\x75\xf5'
    b'\x0d\x8d\x4d\xcd\x2d\xad\x6d\xed\x1d\x9d\x5d\xdd\x3d\xbd\x7d\xfd'
    b'\x03\x83\x43\xc3\x23\xa3\x63\xe3\x13\x93\x53\xd3\x33\xb3\x73\xf3'
    b'\x0b\x8b\x4b\xcb\x2b\xab\x6b\xeb\x1b\x9b\x5b\xdb\x3b\xbb\x7b\xfb'
    b'\x07\x87\x47\xc7\x27\xa7\x67\xe7\x17\x97\x57\xd7\x37\xb7\x77\xf7'
    b'\x0f\x8f\x4f\xcf\x2f\xaf\x6f\xef\x1f\x9f\x5f\xdf\x3f\xbf\x7f\xff'
)


def arrangement(cols, rows=1, first='top-right', serpentine=False, rotate=0):
    """(mx, my, rot) per chip in chain order for a grid of cols x rows modules.

    first: the corner where the chain starts (the module wired to the MCU): 'top-right' (an
    FC-16 4-in-1 bar has its DIN at the right end), 'top-left', 'bottom-right', 'bottom-left'.
    The chain runs along that row, then the next row toward the other edge. serpentine=False:
    every row starts at the same side (row-major, a long wire back). serpentine=True: the next
    row runs back the other way with its modules mounted rotated 180 degrees (4-in-1 bars
    turned upside down so that OUT meets IN with a short jumper). rotate: every module's
    rotation (0 for FC-16 modules).
    """
    right = first.endswith('right')
    bottom = first.startswith('bottom')
    out = []
    for k in range(rows):
        my = rows - 1 - k if bottom else k
        back = serpentine and (k & 1)
        to_left = right != bool(back)
        rot = (rotate + 180) % 360 if back else rotate
        for i in range(cols):
            mx = cols - 1 - i if to_left else i
            out.append((mx, my, rot))
    return tuple(out)


def _native_to_panel(u, v, rot):
    """Module LED (column u, row v) of the module's own picture -> local panel (x, y)."""
    if rot == 0:
        return u, v
    if rot == 90:
        return 7 - v, u
    if rot == 180:
        return 7 - u, 7 - v
    return v, 7 - u


class MAX7219Matrix(framebuf.FrameBuffer):
    """width x height pixels on a chain of 8x8 modules (width, height multiples of 8)."""

    def __init__(self, spi, cs, width=32, height=8, modules=None, first='top-right',
                 serpentine=False, rotate=0, level=3):
        if width % 8 or height % 8:
            raise ValueError('size must be a multiple of 8')
        cols = width // 8
        rows = height // 8
        if modules is None:
            modules = arrangement(cols, rows, first, serpentine, rotate)
        modules = tuple(modules)
        if len(modules) != cols * rows:
            raise ValueError('one module per 8x8 block')
        quarter = None
        for m in modules:
            q = (m[2] // 90) & 1
            if m[2] % 90 or (quarter is not None and q != quarter):
                raise ValueError('rotations must all be 0/180 or all 90/270')
            quarter = q
        self.spi = spi
        self.cs = cs
        self.width = width
        self.height = height
        self.modules = modules
        self.n = n = len(modules)
        self.vertical = bool(quarter)
        fmt = framebuf.MONO_VLSB if quarter else framebuf.MONO_HLSB
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, fmt)
        self._last = bytearray(len(self.buffer))   # bytes of the last push
        self._cmd = bytearray(2 * n)               # one LOAD frame: a word per chip
        self._rev = _REV
        self._map = self._index_table()
        self._on = True
        self._level = clamp(level)
        cs.init(cs.OUT, value=1)
        self.init()

    def _index_table(self):
        # Entry [r * n + k]: the buffer byte for word k of the LOAD frame that writes digit
        # register r + 1; word k goes to chip n - 1 - k (the first word travels furthest).
        w = self.width
        n = self.n
        m = array('H', [0] * (8 * n))
        for r in range(8):
            for k in range(n):
                mx, my, rot = self.modules[n - 1 - k]
                idx = -1
                flags = 0
                for u in range(8):          # data bit 7 - u: LED column u of the module
                    lx, ly = _native_to_panel(u, r, rot)
                    x = mx * 8 + lx
                    y = my * 8 + ly
                    if self.vertical:
                        i = (y >> 3) * w + x
                        pos = y & 7
                    else:
                        i = (y * w + x) >> 3
                        pos = 7 - (x & 7)
                    if u == 0:
                        idx = i
                        flags = 0 if pos == 7 else _REVERSED
                    elif i != idx or pos != (7 - u if not flags else u):
                        raise ValueError('module map does not fit one byte')
                m[r * n + k] = idx | flags
        return m

    def _write_all(self, reg, data):
        cmd = self._cmd
        for k in range(self.n):
            cmd[2 * k] = reg
            cmd[2 * k + 1] = data
        self.cs(0)
        self.spi.write(cmd)
        self.cs(1)

    def init(self):
        """Configure every chip for a matrix and push the framebuffer."""
        self.show()

    def _config(self):
        # Every control register, every push: a chip that lost them to noise (or power-up
        # with display test on) heals on the next push.
        self._write_all(_TEST, 0)
        self._write_all(_DECODE, 0)          # no decode: raw rows
        self._write_all(_SCAN_LIMIT, 7)      # all eight rows
        self._write_all(_INTENSITY, self._level * 15 // 7)
        self._write_all(_SHUTDOWN, 1 if self._on else 0)

    def brightness(self, level):
        """0..7 -> intensity 0x0, 0x2, .. 0xC, 0xF (1/32..31/32 duty)."""
        level = clamp(level)
        self._level = level
        self._write_all(_INTENSITY, level * 15 // 7)

    def power(self, on):
        self._on = bool(on)
        self._write_all(_SHUTDOWN, 1 if on else 0)

    def show(self):
        """Push the whole framebuffer (eight LOAD frames, one per digit register), then the
        control registers."""
        buf = self.buffer
        cmd = self._cmd
        m = self._map
        rev = self._rev
        spi = self.spi
        cs = self.cs
        n2 = 2 * self.n
        i = 0
        for r in range(8):
            reg = r + 1
            k = 0
            while k < n2:
                j = m[i]
                i += 1
                v = buf[j & 0x7FFF]
                if j & 0x8000:
                    v = rev[v]
                cmd[k] = reg
                cmd[k + 1] = v
                k += 2
            cs(0)
            spi.write(cmd)
            cs(1)
        last = self._last
        last[:] = buf
        self._config()

    def update(self):
        """Push only if the framebuffer changed since the last push; True if it pushed."""
        if self.buffer == self._last:
            return False
        self.show()
        return True

    def deinit(self):
        """Blank and shut down every chip (the SPI bus belongs to the board)."""
        self._on = False
        self.fill(0)
        self.show()
