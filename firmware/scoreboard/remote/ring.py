"""Edge times from a pin IRQ, kept in a preallocated ring for the loop to decode.

The handler only reads the clock and the pin level and stores one int in an array: nothing is
allocated per edge, so it may run as a hard IRQ. Each slot holds `tick << 1 | level`, the tick
masked to 2**29 (below 2**30, a small int on a 32-bit MCU). The IRQ writes `head` and the loop
writes `tail`, each only by its owner, so no lock is needed. When the loop falls so far behind
that the ring fills, the edge is dropped and `lost` is set; the next drain throws away what the
ring holds and restarts the decoder, so no frame is stitched across the hole (a ring fills only
when the loop stalls, and a frame or two lost then is a press to repeat, never a wrong key).
"""

from array import array

from ..ticks import MASK


class EdgeRing:
    def __init__(self, size=256, clock=None):
        if clock is None:
            from time import ticks_us as clock  # the device clock; tests inject their own
        self._clock = clock
        self._buf = array('i', [0] * size)
        self._size = size
        self.head = 0  # next slot the IRQ writes
        self.tail = 0  # next slot the loop reads
        self.lost = False

    def irq(self, pin):
        """The pin IRQ handler (rising and falling): record when and to which level."""
        t = self._clock() & MASK
        h = self.head + 1
        if h == self._size:
            h = 0
        if h == self.tail:  # full: keep what is there, flag the hole
            self.lost = True
            return
        self._buf[self.head] = (t << 1) | pin.value()
        self.head = h

    def put(self, t, level):
        """Record an edge by hand (the same slot format as `irq`)."""
        h = self.head + 1
        if h == self._size:
            h = 0
        if h == self.tail:
            self.lost = True
            return
        self._buf[self.head] = ((t & MASK) << 1) | level
        self.head = h

    def __len__(self):
        n = self.head - self.tail
        return n + self._size if n < 0 else n

    def get(self):
        """The oldest edge as `tick << 1 | level`, or -1 when the ring is empty."""
        t = self.tail
        if t == self.head:
            return -1
        v = self._buf[t]
        t += 1
        self.tail = 0 if t == self._size else t
        return v

    def drain(self, decoder):
        """Feed every waiting edge to `decoder.edge(tick, level)`; returns how many."""
        if self.lost:
            self.lost = False  # first, so a loss from here on is seen by the next drain
            self.tail = self.head
            decoder.reset()
        n = 0
        while True:
            v = self.get()
            if v < 0:
                return n
            decoder.edge(v >> 1, v & 1)
            n += 1
