# Probes on the virtual board's wires for driver tests: they record what a driver sends, so the
# tests can compare it with the datasheet rather than with our own encoder.
import machine


class Frames:
    """Everything clocked out on an SPI bus between a CS falling and rising edge: one bytes
    object per LOAD (the MAX7219 latches on the rising edge)."""

    def __init__(self, spi_key, cs_id):
        self.frames = []
        self.cur = None
        machine.bus(spi_key).append(self.feed)
        machine.line(cs_id).listeners.append(self.on_cs)

    def on_cs(self, line):
        if line.level() == 0:
            self.cur = bytearray()
        elif self.cur is not None:
            self.frames.append(bytes(self.cur))
            self.cur = None

    def feed(self, buf):
        if self.cur is not None:
            self.cur.extend(buf)

    def words(self, i):
        """Frame i as (register, data) pairs, first device of the chain first."""
        f = self.frames[i]
        return [(f[2 * k], f[2 * k + 1]) for k in range(len(f) // 2)]

    def clear(self):
        self.frames = []
