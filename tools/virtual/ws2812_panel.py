# Virtual WS2812 matrix panel: listens to the NeoPixel data line and keeps the raw GRB bytes of
# every LED as they arrived (3 bytes a LED, G first: the WS2812B datasheet's 24-bit order), then
# undoes the panel's wiring (rows or columns, serpentine or progressive, corner of LED 0) with
# its own mapping, taken from the panel's hardware description on the driver (width, height,
# vertical, serpentine, start). Never reads the driver's framebuffer.
#
# pixel(x, y) is the LED's colour normalised to full scale (the brightest channel on the panel
# becomes 255), so pictures show colours rather than the dim PWM values; `level` is the nearest
# brightness step of the driver's LEVELS table to the brightest channel on the wire, `on` is
# whether any LED is lit.
import machine


class PanelView:
    kind = 'pixels'

    def __init__(self, pin_id, width, height, vertical=True, serpentine=True, start='top-left',
                 levels=None):
        self.width = width
        self.height = height
        self.vertical = vertical
        self.serpentine = serpentine
        self.start = start
        self.levels = levels
        self.raw = bytearray(3 * width * height)
        self.writes = 0
        machine.bus(('neopixel', pin_id)).append(self.feed)

    def feed(self, buf):
        n = len(self.raw)
        if len(buf) < n:
            n = len(buf)
        for i in range(n):
            self.raw[i] = buf[i]
        self.writes += 1

    def led(self, x, y):
        """Chain position of the LED at (x, y), from the panel's wiring."""
        w = self.width
        h = self.height
        right = self.start.endswith('right')
        bottom = self.start.startswith('bottom')
        if self.vertical:
            col = (w - 1 - x) if right else x          # columns counted from LED 0's side
            down = (h - 1 - y) if bottom else y         # position from LED 0's edge
            if self.serpentine and col % 2 == 1:
                down = h - 1 - down
            return col * h + down
        row = (h - 1 - y) if bottom else y
        along = (w - 1 - x) if right else x
        if self.serpentine and row % 2 == 1:
            along = w - 1 - along
        return row * w + along

    def grb(self, x, y):
        o = 3 * self.led(x, y)
        return self.raw[o], self.raw[o + 1], self.raw[o + 2]

    def _peak(self):
        m = 0
        for b in self.raw:
            if b > m:
                m = b
        return m

    @property
    def on(self):
        return self._peak() > 0

    @property
    def level(self):
        peak = self._peak()
        if not self.levels or not peak:
            return 0
        best = 0
        for i in range(len(self.levels)):
            if abs(self.levels[i] - peak) < abs(self.levels[best] - peak):
                best = i
        return best

    def pixel(self, x, y):
        g, r, b = self.grb(x, y)
        peak = self._peak()
        if not peak:
            return (0, 0, 0)
        return (r * 255 // peak, g * 255 // peak, b * 255 // peak)

    def rows(self, legend=None):
        """The picture as strings: '.' dark, else the character of the nearest colour in
        `legend` {char: (r, g, b)} ('#' for every lit LED without a legend)."""
        out = []
        for y in range(self.height):
            s = ''
            for x in range(self.width):
                p = self.pixel(x, y)
                if p == (0, 0, 0):
                    s += '.'
                elif legend is None:
                    s += '#'
                else:
                    best = None
                    bd = 0
                    for ch in legend:
                        q = legend[ch]
                        d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2
                        if best is None or d < bd:
                            best, bd = ch, d
                    s += best
            out.append(s)
        return out


def chips_for(driver):
    """A pixel view for a scoreboard WS2812Panel driver; [] for any other driver."""
    try:
        from scoreboard.drivers.ws2812_panel import WS2812Panel
    except ImportError:
        return []
    if not isinstance(driver, WS2812Panel):
        return []
    view = PanelView(driver.pin.id, driver.width, driver.height, driver.vertical,
                     driver.serpentine, driver.start, getattr(driver, 'LEVEL_TABLE', None))
    # The virtual panel starts listening after the driver's first write: ask for one more push.
    driver.show()
    return [view]


def _levels():
    # The firmware's brightness scale, only to report `level` (the wire carries no level).
    try:
        from scoreboard.drivers.ws2812_panel import LEVELS
    except ImportError:
        return None
    return LEVELS


def from_wiring(w):
    """The panel of a board file's wiring entry: {'chip': 'ws2812-panel', 'pin': 13,
    'width': 32, 'height': 8, 'vertical': True, 'serpentine': True, 'start': 'top-left'}:
    how the LEDs are really chained, whatever the driver believes."""
    return [PanelView(w['pin'], w['width'], w['height'], w.get('vertical', True),
                      w.get('serpentine', True), w.get('start', 'top-left'), _levels())]
