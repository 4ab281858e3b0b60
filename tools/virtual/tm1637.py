# Virtual TM1637: decodes the two-wire bit stream on the CLK and DIO lines and ACKs each byte
# by pulling DIO low, as the chip does (Titan Micro TM1637 datasheet V2.4):
#   start = DIO falls while CLK is high; stop = DIO rises while CLK is high;
#   bits are read on CLK rising edges, LSB first; the chip pulls DIO low from the falling edge
#   of the 8th clock to the falling edge that ends the 9th clock (ACK);
#   first byte of a frame is the command: 0b01xxxxxx data command (bit 2: fixed address),
#   0b11xxxxxx address command (low bits: GRID1..GRID6 = 0..5, data bytes follow, the address
#   increasing in auto-increment mode), 0b10xxxxxx display control (bit 3 on, bits 0..2 pulse
#   width 1/16..14/16, our level 0..7).
# The firmware refreshes with the heap locked and this chip decodes inside that refresh, so the
# wire path allocates nothing; the frame log (for tests) is opt-in: TM1637Chip(..., log=True).
import machine

LOG_MAX = 256


class TM1637Chip:
    kind = 'segments'

    def __init__(self, clk_id, dio_id, digits=4, order=None, colour=None, log=False, dp=None,
                 colon=None):
        self.clk = machine.line(clk_id)
        self.dio = machine.line(dio_id)
        self.width = digits
        self.order = tuple(order) if order is not None else tuple(range(digits))
        self.colour = colour
        # What the module really has (the bare chip drives 8 segment lines on every grid):
        # `dp` the positions with a decimal point (None: all), `colon` the position whose
        # dp line lights the colon drawn after it (None: no colon).
        self.dp = None if dp is None else tuple(dp)
        self.colon = colon
        self.regs = bytearray(6)
        self.display_on = False     # power-on reset: display off
        self.pulse = 0
        self.auto_inc = True
        self.addr = 0
        self.active = False
        self.nbit = 0
        self.byte = 0
        self.frame = bytearray(16)  # bytes of the frame being received
        self.flen = 0
        self.log = [] if log else None   # every complete frame as bytes, oldest first
        self.errors = 0             # frames cut short, bytes with no command
        self.frames = 0             # stop conditions seen (frames received)
        self.clk.listeners.append(self._on_clk)
        self.dio.listeners.append(self._on_dio)

    # ---- wires ----
    def _on_dio(self, line):
        if self.clk.level() != 1:
            return                  # data changing while CLK is low: a bit, or our ACK
        if line.level() == 0:       # start
            self.active = True
            self.nbit = 0
            self.byte = 0
            self.flen = 0
        elif self.active:           # stop
            self.active = False
            self.frames += 1
            # The stop condition itself raises CLK once (nbit 1 then): a byte cut short is
            # 2..8 bits.
            if 2 <= self.nbit <= 8:
                self.errors += 1
            self._release()
            if self.log is not None:
                self._log_frame()

    def _log_frame(self):
        # apart from _on_dio: its try block would give every edge a frame on the heap
        log = self.log
        try:
            log.append(bytes(self.frame[:self.flen]))
            if len(log) > LOG_MAX:
                del log[0]
        except MemoryError:  # a test that logs under heap_lock: drop the entry
            pass

    def _on_clk(self, line):
        if not self.active:
            return
        if line.level() == 1:
            if self.nbit < 8:
                if self.dio.level():
                    self.byte |= 1 << self.nbit
                self.nbit += 1
        else:
            if self.nbit == 8:      # falling edge of the 8th clock: byte done, ACK
                self._byte(self.byte)
                self.nbit = 9
                self.dio.ext = 0
                self.dio.changed()
            elif self.nbit == 9:    # end of the 9th clock: release DIO
                self._release()
                self.nbit = 0
                self.byte = 0

    def _release(self):
        if self.dio.ext == 0:
            self.dio.ext = None
            self.dio.changed()

    # ---- commands ----
    def _byte(self, b):
        frame = self.frame
        if self.flen < len(frame):
            frame[self.flen] = b
        self.flen += 1
        if self.flen == 1:
            top = b & 0xC0
            if top == 0x40:
                self.auto_inc = not (b & 0x04)
            elif top == 0xC0:
                self.addr = b & 0x07
            elif top == 0x80:
                self.display_on = bool(b & 0x08)
                self.pulse = b & 0x07
            else:
                self.errors += 1
            return
        if frame[0] & 0xC0 == 0xC0:
            if self.addr < 6:
                self.regs[self.addr] = b
            if self.auto_inc:
                self.addr += 1
        else:
            self.errors += 1

    # ---- what it shows ----
    @property
    def on(self):
        return self.display_on

    @property
    def level(self):
        return self.pulse

    def digits(self):
        """The segment byte each position's grid receives, left to right (bit 7: its SEG8)."""
        return [self.regs[self.order[p]] for p in range(self.width)]


# The modules a board file may name (their grid order as built): the 4-digit modules wire
# GRID1..GRID4 left to right, the 6-digit ones 3 2 1 6 5 4.
GRIDS = {4: (0, 1, 2, 3), 6: (2, 1, 0, 5, 4, 3)}


def from_wiring(w):
    """The chip of a board file's wiring entry: {'chip': 'tm1637', 'clk': 2, 'dio': 3,
    'digits': 4, 'grids': (...), 'dp': (...), 'colon': 1, 'colour': 'red'}."""
    digits = w.get('digits', 4)
    grids = w.get('grids', GRIDS.get(digits))
    return [TM1637Chip(w['clk'], w['dio'], digits, grids, w.get('colour'), dp=w.get('dp'),
                       colon=w.get('colon'))]


def chips_for(driver):
    """A bench attachment for a driver's own tests: a chip on the driver's pins, configured
    as the module of that many digits (never from the driver's order); boards use from_wiring."""
    try:
        from scoreboard.drivers.tm1637 import TM1637
    except ImportError:
        return []
    if not isinstance(driver, TM1637):
        return []
    return [TM1637Chip(driver.clk.id, driver.dio.id, driver.width, GRIDS.get(driver.width),
                       driver.colour)]
