# A stand-in for MicroPython's `neopixel` module on the virtual board: the same buffer layout
# (GRB, 3 or 4 bytes a pixel) and write() hands the buffer to whatever listens on the pin, as the
# WS2812 data line would. As MicroPython's rp2 neopixel (machine.bitstream), a write keeps
# interrupts off for the whole strip, about 30 us a LED (virtual/irqoff.py): the receivers' edges
# in that time come late or are lost.
import irqoff
import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.timing = timing
        self._key = ('neopixel', pin.id)   # made once: write() runs in the refresh path

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for j in range(self.bpp):
            self.buf[off + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        off = i * self.bpp
        return tuple(self.buf[off + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        machine.to_chips(machine.bus(self._key), self.buf)
        irqoff.off(self.n * irqoff.US_PER_LED)   # allocates nothing
