# Virtual MAX7219 8x8 matrix panel: a MAX7219Chain (tools/virtual/max7219.py) decoding the SPI
# words, and the LED modules wired to each chip, placed and rotated on the panel.
#
# The picture comes from the chips' digit registers only (never from the driver's buffer). The
# physical facts (which chip drives the module at which place, mounted at which rotation) are
# the board's hardware, read from the driver's public `modules` tuple: one (mx, my, rot) per
# chip in chain order, chip 0 nearest the MCU. A module's own wiring (rot 0, the FC-16 modules):
# digit register 0x01 + v lights row v, data bit 7 - u the LED in column u (bit 7 = DP line =
# leftmost column). Rotation is clockwise as mounted; the inverse is worked out here on its own,
# so a driver that sends a module's byte to the wrong chip, register or bit shows the wrong
# picture.
#
# Datasheet behaviour modelled (MAX7219, 19-4452): display test (0x0F D0) lights every LED
# whatever the other registers say; shutdown (0x0C D0 = 0) blanks; rows beyond the scan limit
# (0x0B) are dark; intensity (0x0A) 0..15 is reported as level 0..7 (intensity >> 1); decode
# mode (0x09) must be 0 for a matrix: a digit with Code B decoding shows the decoded segments,
# which is garbage on a matrix, as on the real panel.
from max7219 import MAX7219Chain, attach, bus_key, CODE_B

LIT = (255, 40, 16)    # a red MAX7219 matrix LED, lit


def _code_b_raw(v):
    """What a Code B decoded digit drives on the segment lines, as raw D7..D0 (DP, A..G)."""
    seg = CODE_B[v & 0x0F]     # canonical a..g = bits 0..6
    raw = v & 0x80
    for s in range(7):
        if seg >> s & 1:
            raw |= 0x40 >> s
    return raw


class MatrixView:
    kind = 'pixels'

    def __init__(self, chain, width, height, modules, colour=LIT):
        self.chain = chain
        self.width = width
        self.height = height
        self.modules = tuple(modules)
        self.colour = colour
        self._where = {}
        for p in range(len(self.modules)):
            mx, my, rot = self.modules[p]
            self._where[(mx, my)] = (p, rot)

    @property
    def on(self):
        for d in self.chain.devices:
            if d.test or not d.shutdown:
                return True
        return False

    @property
    def level(self):
        devs = self.chain.devices
        if not devs:
            return 0
        d = devs[0]
        if d.test:
            return 7
        return d.intensity >> 1

    def lit(self, x, y):
        """True if the LED at panel (x, y) is lit."""
        where = self._where.get((x >> 3, y >> 3))
        if where is None:
            return False
        p, rot = where
        lx = x & 7
        ly = y & 7
        # panel -> the module's own (u column, v row): the inverse of the mounting rotation
        if rot == 0:
            u, v = lx, ly
        elif rot == 90:
            u, v = ly, 7 - lx
        elif rot == 180:
            u, v = 7 - lx, 7 - ly
        else:
            u, v = 7 - ly, lx
        d = self.chain.devices[p]
        if d.test:
            return True
        if d.shutdown or v > d.scan_limit:
            return False
        data = d.regs[1 + v]
        if d.decode_mode & (1 << v):
            data = _code_b_raw(data)
        return bool(data >> (7 - u) & 1)

    def pixel(self, x, y):
        return self.colour if self.lit(x, y) else (0, 0, 0)

    def rows(self):
        """The picture as strings, '#' lit, '.' dark (for tests)."""
        return [''.join('#' if self.lit(x, y) else '.' for x in range(self.width))
                for y in range(self.height)]


def chips_for(driver):
    """A pixel view for a scoreboard MAX7219Matrix driver; [] for any other driver."""
    try:
        from scoreboard.drivers.max7219_matrix import MAX7219Matrix
    except ImportError:
        return []
    if not isinstance(driver, MAX7219Matrix):
        return []
    chain = MAX7219Chain(len(driver.modules))
    attach(chain, getattr(driver.spi, '_key', None), driver.cs.id)
    # The virtual chips come to life after the driver's constructor configured the real (already
    # powered) ones: ask the driver for one more push (it sends the rows and every control
    # register on each push).
    driver.show()
    return [MatrixView(chain, driver.width, driver.height, driver.modules)]


def modules(cols, rows, first, serpentine, rotate=0):
    """(mx, my, rot) per chip in chain order for modules chained as built: starting in the
    corner `first`, along its row, then (serpentine) back along the next row with the bars
    mounted upside down, or (not serpentine) from the same side again. Worked out here from
    the wiring, apart from the driver's own arrangement()."""
    out = []
    for k in range(rows):
        my = rows - 1 - k if first.startswith('bottom') else k
        back = serpentine and k % 2 == 1
        from_right = first.endswith('right')
        if back:
            from_right = not from_right
        rot = (rotate + (180 if back else 0)) % 360
        for i in range(cols):
            out.append((cols - 1 - i if from_right else i, my, rot))
    return out


def from_wiring(w):
    """The panel of a board file's wiring entry: {'chip': 'max7219-matrix', 'spi': 0 (or
    'sck': pin for a SoftSPI), 'cs': 17, 'width': 32, 'height': 8, 'first': 'top-right',
    'serpentine': False, 'rotate': 0} (or an explicit 'modules' list)."""
    width = w.get('width', 32)
    height = w.get('height', 8)
    mods = w.get('modules')
    if mods is None:
        mods = modules(width // 8, height // 8, w.get('first', 'top-right'),
                       w.get('serpentine', False), w.get('rotate', 0))
    chain = MAX7219Chain(len(mods))
    attach(chain, bus_key(w), w['cs'])
    return [MatrixView(chain, width, height, mods)]
