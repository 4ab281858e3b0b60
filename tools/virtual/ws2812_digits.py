# Virtual WS2812 seven-segment digits: reads the raw GRB(W) buffer that reached the data pin and
# turns each strip piece back into a segment bit (lit when any LED of the piece is lit). The
# piece layout (LEDs a segment, the order the pieces were glued in, dp LEDs) is the builder's
# wiring, read from the driver; colour and level come from the LED values themselves.
import machine

# The driver's brightness scale (WS2812 has no brightness register: level is the channel peak).
SCALE = b'\x08\x10\x20\x30\x48\x70\xb0\xff'
ORDER = (1, 0, 2, 3)        # R, G, B, W -> buffer offset (the neopixel module's ORDER)


def _name(r, g, b):
    if r == 0 and g == 0 and b == 0:
        return None
    if r > b and r > g:
        return 'red'
    if b > r and b > g:
        return 'blue'
    return None


class WS2812DigitsChip:
    kind = 'segments'

    def __init__(self, pin_id, digits=4, leds=3, seg_order=b'\x00\x01\x02\x03\x04\x05\x06',
                 dp_leds=0, bpp=3):
        self.width = digits
        self.leds = leds
        self.seg_order = seg_order
        self.dp_leds = dp_leds
        self.bpp = bpp
        self.per_digit = len(seg_order) * leds + dp_leds
        self.buf = bytearray(digits * self.per_digit * bpp)
        self.writes = 0
        machine.bus(('neopixel', pin_id)).append(self._on_write)

    def _on_write(self, buf):
        # Called inside the firmware's heap-locked refresh: copy without allocating.
        mine = self.buf
        for i in range(min(len(buf), len(mine))):
            mine[i] = buf[i]
        self.writes += 1

    def led(self, i):
        """(r, g, b) of LED i."""
        o = i * self.bpp
        b = self.buf
        return (b[o + ORDER[0]], b[o + ORDER[1]], b[o + ORDER[2]])

    def _piece(self, first, count):
        """Brightest (r, g, b) of LEDs first..first+count-1, or None when all are dark."""
        best = None
        for i in range(first, first + count):
            rgb = self.led(i)
            if max(rgb) > 0 and (best is None or max(rgb) > max(best)):
                best = rgb
        return best

    def rgb(self, d):
        """The colour of digit d: its brightest LED, or None when dark."""
        return self._piece(d * self.per_digit, self.per_digit)

    def digits(self):
        out = []
        for d in range(self.width):
            base = d * self.per_digit
            seg = 0
            for s in range(len(self.seg_order)):
                if self._piece(base + s * self.leds, self.leds) is not None:
                    seg |= 1 << self.seg_order[s]
            if self.dp_leds and self._piece(base + len(self.seg_order) * self.leds,
                                            self.dp_leds) is not None:
                seg |= 0x80
            out.append(seg)
        return out

    def colours(self):
        out = []
        for d in range(self.width):
            rgb = self.rgb(d)
            out.append(_name(*rgb) if rgb is not None else None)
        return out

    @property
    def colour(self):
        lit = [c for c in self.colours() if c is not None]
        if lit and all(c == lit[0] for c in lit):
            return lit[0]
        return None

    @property
    def on(self):
        return max(self.buf) > 0 if len(self.buf) else False

    @property
    def level(self):
        peak = max(self.buf) if len(self.buf) else 0
        lv = 0
        for k in range(8):
            if SCALE[k] <= peak:
                lv = k
        return lv


def chips_for(driver):
    try:
        from scoreboard.drivers.ws2812_digits import WS2812Digits
    except ImportError:
        return []
    if not isinstance(driver, WS2812Digits):
        return []
    return [WS2812DigitsChip(driver.pin.id, driver.width, driver.leds, driver.seg_order,
                             driver.dp_leds, driver.bpp)]


def from_wiring(w):
    """The digits of a wiring entry: {'chip': 'ws2812-digits', 'pin': 21, 'digits': 4,
    'leds': 3, 'seg_order': piece order as glued, 'dp_leds': 0, 'bpp': 3}."""
    chip = WS2812DigitsChip(w['pin'], w.get('digits', 4), w.get('leds', 3),
                            w.get('seg_order', b'\x00\x01\x02\x03\x04\x05\x06'),
                            w.get('dp_leds', 0), w.get('bpp', 3))
    chip.dp = None if chip.dp_leds else ()      # no dp LEDs glued: no point anywhere
    return [chip]
