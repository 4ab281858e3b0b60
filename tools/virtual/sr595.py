# Virtual 74HC595 / TPIC6B595 chain (TI SCLS041, SLIS032): SER shifts in on SRCLK's rising
# edge (Q0 <- SER, Qn <- Qn-1, Q7 out to the next register), RCLK's rising edge latches the
# shift registers to the outputs, /OE low enables them. Hardware SPI (mode 0, MSB first) shifts
# the same way, eight clocks a byte. Turning outputs back into segments needs the board's wiring
# (which output drives which segment, polarity, which end is leftmost), read from the driver.
import machine


class SR595Chip:
    kind = 'segments'

    def __init__(self, n, latch_id, data_id=None, clock_id=None, spi_key=None, oe_id=None,
                 segments=b'\x00\x01\x02\x03\x04\x05\x06\x07', invert=False,
                 lsb_first=False, near_left=True, colour=None):
        self.n = n
        self.width = n
        self.sr = bytearray(n)      # shift registers, index 0 nearest the MCU
        self.out = bytearray(n)     # latched outputs
        self.segments = segments
        self.invert = invert
        self.lsb_first = lsb_first
        self.near_left = near_left
        self.colour = colour
        self.latches = 0
        self.data = machine.line(data_id) if data_id is not None else None
        self.oe = machine.line(oe_id) if oe_id is not None else None
        if clock_id is not None:
            machine.line(clock_id).listeners.append(self._on_clock)
        if spi_key is not None:
            machine.bus(spi_key).append(self._on_spi)
        machine.line(latch_id).listeners.append(self._on_latch)

    def shift(self, bit):
        sr = self.sr
        carry = bit & 1
        for r in range(self.n):
            v = sr[r]
            sr[r] = ((v << 1) | carry) & 0xFF
            carry = v >> 7

    def _on_clock(self, line):
        if line.level() == 1 and self.data is not None:
            self.shift(self.data.level())

    def _on_spi(self, buf):
        for b in buf:
            for k in range(7, -1, -1):
                self.shift((b >> k) & 1)

    def _on_latch(self, line):
        if line.level() == 1:
            self.out[:] = self.sr
            self.latches += 1

    @property
    def on(self):
        oe = self.oe
        if oe is not None and oe.duty is not None:    # /OE on a PWM: lit unless always high
            return oe.duty < 65535
        return oe is None or oe.level() == 0

    @property
    def level(self):
        oe = self.oe
        if oe is not None and oe.duty is not None:    # the fraction of time /OE is low, 0..7
            return (65535 - oe.duty) * 7 // 65535
        return 7

    def digits(self):
        out = []
        for pos in range(self.n):
            r = pos if self.near_left else self.n - 1 - pos
            v = self.out[r] ^ (0xFF if self.invert else 0)
            seg = 0
            for s in range(8):
                q = self.segments[s]
                if self.lsb_first:
                    q = 7 - q
                if v & (1 << q):
                    seg |= 1 << s
            out.append(seg)
        return out


def chips_for(driver):
    try:
        from scoreboard.drivers.sr595 import SR595
    except ImportError:
        return []
    if not isinstance(driver, SR595):
        return []
    spi_key = getattr(driver.spi, '_key', None) if driver.spi is not None else None
    oe = driver.oe
    oe_id = oe.id if oe is not None and not hasattr(oe, 'duty_u16') else None
    return [SR595Chip(driver.width, driver.latch.id,
                      data_id=driver.data.id if driver.data is not None else None,
                      clock_id=driver.clock.id if driver.clock is not None else None,
                      spi_key=spi_key, oe_id=oe_id, segments=driver.segments,
                      invert=driver.invert, lsb_first=driver.lsb_first,
                      near_left=driver.near_left, colour=driver.colour)]


def from_wiring(w):
    """The chain of a wiring entry: {'chip': '595', 'latch': 17, 'spi': 0 (or 'data'/'clock'
    pins), 'oe': pin or None (PWM-driven /OE), 'digits': 6, 'segments': Q of a..dp,
    'invert': False, 'lsb_first': False, 'near_left': True, 'dp': (...), 'colour': None}."""
    spi_key = None
    if 'spi' in w:
        spi_key = ('spi', w['spi'])
    elif 'sck' in w:
        spi_key = ('soft', w['sck'])
    chip = SR595Chip(w.get('digits', 4), w['latch'], data_id=w.get('data'),
                     clock_id=w.get('clock'), spi_key=spi_key, oe_id=w.get('oe'),
                     segments=w.get('segments', b'\x00\x01\x02\x03\x04\x05\x06\x07'),
                     invert=w.get('invert', False), lsb_first=w.get('lsb_first', False),
                     near_left=w.get('near_left', True), colour=w.get('colour'))
    chip.dp = w.get('dp')           # positions with a decimal point (None: all)
    return [chip]
