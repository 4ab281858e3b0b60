# TM1637 LED driver (Titan Micro TM1637 datasheet V2.4): 4- and 6-digit seven-segment modules.
#
# Two-wire bus, bit-banged (it is not I2C: no address, LSB first):
#   - start: DIO falls while CLK is high; stop: DIO rises while CLK is high; DIO changes only
#     while CLK is low and is read on CLK's rising edge (datasheet "interface interpretation").
#   - data bits go LSB first; the chip pulls DIO low from the falling edge of the 8th clock to
#     the end of the 9th clock: the ACK. DIO is open drain (the modules carry pull-ups).
#   - commands (datasheet "command description"):
#       0x40  data command: write to the display registers, address auto-increment
#       0xC0 | addr  address command, addr 0..5 = GRID1..GRID6, then the data bytes
#       0x88 | pw    display control: display on, pulse width pw 0..7 = 1/16 .. 14/16
#       0x80         display control: display off
#   - segment bits: SEG1..SEG8 = bit0..bit7 = a, b, c, d, e, f, g, dp: the canonical order, so
#     no remap. The 4-digit clock modules wire digit 1's dp to the colon.
#   - clock: the datasheet asks for < 250 kHz when reading keys; the modules load both lines
#     with a pull-up and a capacitor, so a few us each half period keeps the edges clean.
# The 6-digit modules wire their grids out of order: order=(2, 1, 0, 5, 4, 3) gives the grid
# address of each position, left to right.
import sys

from ..compat import const

from scoreboard.drivers import level as clamp

try:
    from time import sleep_us
except ImportError:          # CPython: the host never waits on the bus
    sleep_us = None  # type: ignore[assignment]

_CMD_DATA = const(0x40)
_CMD_ADDR = const(0xC0)
_CMD_DISPLAY_ON = const(0x88)
_CMD_DISPLAY_OFF = const(0x80)
_DELAY_US = const(5)
ORDER_6 = (2, 1, 0, 5, 4, 3)



class TM1637:
    def __init__(self, clk, dio, digits=4, order=None, colour=None, brightness=7,
                 delay_us=_DELAY_US):
        self.clk = clk
        self.dio = dio
        self.width = digits
        if order is None:
            order = tuple(range(digits))
        self.order = order
        self.colour = colour
        self.buf = bytearray(digits)
        grids = 0
        for a in order:
            if a + 1 > grids:
                grids = a + 1
        self.grids = grids
        src = bytearray(grids)          # grid address -> position + 1 (0: no digit there)
        for pos in range(digits):
            src[order[pos]] = pos + 1
        self._src = src
        # the unix port (simulator, tests) has sleep_us but nothing on the other end needs it
        self._delay = 0 if (sleep_us is None or sys.platform in ('linux', 'darwin', 'win32')) \
            else delay_us
        self._level = clamp(brightness)
        self._on = True
        self.nacks = 0
        clk.init(clk.OUT, value=1)
        dio.init(dio.OPEN_DRAIN, value=1)   # idle: both lines high
        self.show()

    # ---- bus ----
    def _wait(self):
        d = self._delay
        if d:
            sleep_us(d)

    def _write(self, b):
        clk = self.clk
        dio = self.dio
        for i in range(8):
            dio((b >> i) & 1)
            self._wait()
            clk(1)
            self._wait()
            clk(0)
            self._wait()
        dio(1)                  # release DIO: the chip drives the ACK
        self._wait()
        clk(1)
        self._wait()
        if dio.value():
            self.nacks += 1
        clk(0)
        self._wait()

    def _send(self, cmd, data=False):
        """One transfer: start, the command byte, with data the digits (grid 1 first), stop."""
        dio = self.dio
        clk = self.clk
        dio(0)                  # start: DIO falls while CLK is high
        self._wait()
        clk(0)
        self._wait()
        self._write(cmd)
        if data:
            buf = self.buf
            src = self._src
            for a in range(self.grids):
                p = src[a]
                self._write(buf[p - 1] if p else 0)
        dio(0)                  # stop: DIO rises while CLK is high
        self._wait()
        clk(1)
        self._wait()
        dio(1)
        self._wait()

    def _control(self):
        self._send((_CMD_DISPLAY_ON | self._level) if self._on else _CMD_DISPLAY_OFF)

    # ---- public ----
    def show(self):
        """Send buf (canonical segment bytes, left to right) and the display control."""
        self._send(_CMD_DATA)
        self._send(_CMD_ADDR, True)
        self._control()

    def brightness(self, level):
        level = clamp(level)
        self._level = level     # the chip's 8 pulse widths are the 8 levels
        self._control()

    def power(self, on):
        self._on = bool(on)
        self._control()

    def deinit(self):
        self._on = False
        self._control()
