# Large seven-segment digits on a chain of 74HC595 or TPIC6B595 shift registers, one register a
# digit.
#
# Datasheet facts (TI SCLS041 74HC595, SLIS032 TPIC6B595):
#   - SER is shifted in on SRCLK's rising edge: Q0 <- SER, Qn <- Qn-1; Q7 (QH') feeds the next
#     register's SER, so after 8 clocks the first bit sent sits in Q7 and, in a chain, the first
#     byte sent sits in the register farthest from the MCU.
#   - RCLK (latch) rising edge copies the shift registers to the outputs.
#   - /OE (G on the TPIC6B595) low enables the outputs: PWM on it dims the display.
#   - 74HC595 outputs source or sink 6 mA (a common-cathode digit lights on 1, a common-anode one
#     on 0: invert=True); the TPIC6B595 has open-drain DMOS outputs that sink when the bit is 1
#     (large common-anode digits on a 12 V supply, invert=False).
#   - SPI mode 0 (data valid on the rising clock edge) drives SER/SRCLK directly.
# Wiring is configuration: `segments` gives the output Q0..Q7 of each canonical segment a, b, c,
# d, e, f, g, dp; `near_left` says the register nearest the MCU drives the leftmost digit;
# lsb_first reverses the bit order in each byte (a board wired Q7..Q0).
from ..compat import const

from scoreboard.drivers import level as clamp

SEGMENTS = b'\x00\x01\x02\x03\x04\x05\x06\x07'     # Q0 = a ... Q6 = g, Q7 = dp
# Brightness 0..7 -> fraction of the time the outputs are on, /65535 (PWM on /OE).
DUTY = (2048, 4096, 8192, 13107, 19661, 29491, 44237, 65535)
PWM_FREQ = const(1000)


class SR595:
    def __init__(self, data=None, clock=None, latch=None, digits=4, oe=None, spi=None,
                 segments=SEGMENTS, invert=False, lsb_first=False, near_left=True,
                 colour=None, brightness=7):
        self.data = data
        self.clock = clock
        self.latch = latch
        self.spi = spi
        self.oe = oe
        self.width = digits
        self.segments = segments
        self.invert = invert
        self.lsb_first = lsb_first
        self.near_left = near_left
        self.colour = colour
        self.buf = bytearray(digits)
        self._out = bytearray(digits)          # bytes in the order they are shifted out
        table = bytearray(256)                 # canonical segments -> register byte
        for v in range(256):
            r = 0
            for s in range(8):
                if v & (1 << s):
                    q = segments[s]
                    r |= 1 << ((7 - q) if lsb_first else q)
            table[v] = (r ^ 0xFF) if invert else r
        self._table = table
        self._pwm = oe is not None and hasattr(oe, 'duty_u16')
        self._level = clamp(brightness)
        self._on = True
        if spi is None:
            data.init(data.OUT, value=0)
            clock.init(clock.OUT, value=0)
        latch.init(latch.OUT, value=0)
        if oe is not None and not self._pwm:
            oe.init(oe.OUT, value=0)
        self.show()
        self._oe()

    def _oe(self):
        oe = self.oe
        if oe is None:
            return
        if self._pwm:
            on = DUTY[self._level] if self._on else 0
            oe.duty_u16(65535 - on)           # /OE is active low
        else:
            oe.value(0 if self._on else 1)

    def show(self):
        buf = self.buf
        out = self._out
        table = self._table
        n = self.width
        blank = not self._on        # off: blanks too, so a floating /OE shows nothing
        for i in range(n):
            # The first byte shifted ends in the farthest register.
            p = (n - 1 - i) if self.near_left else i
            out[i] = table[0 if blank else buf[p]]
        if self.spi is not None:
            self.spi.write(out)
        else:
            data = self.data
            clock = self.clock
            for i in range(n):
                b = out[i]
                for k in range(7, -1, -1):      # Q7's bit first
                    data((b >> k) & 1)
                    clock(1)
                    clock(0)
        self.latch(1)
        self.latch(0)

    def brightness(self, level):
        level = clamp(level)
        self._level = level
        self._oe()

    def power(self, on):
        self._on = bool(on)
        self._oe()
        self.show()

    def deinit(self):
        # Outputs blank and /OE held high (a PWM stays at 100 % high rather than being released
        # to float, which would enable the outputs).
        self._on = False
        self._oe()
        self.show()
