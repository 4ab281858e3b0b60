"""Buttons on GPIO pins, active low with pull-ups: one scan reads them all into a bitmap.

The board builds the pins (`Pin(n, Pin.IN, Pin.PULL_UP)`) and passes them in with their key
index, so this module never imports `machine` and runs on the virtual board unchanged.
"""


class Buttons:
    def __init__(self, pins):
        """pins: a sequence of (key_index, pin); a pin is pressed when `.value()` reads 0."""
        ps = []
        bs = []
        m = 0
        for k, pin in pins:
            ps.append(pin)
            bs.append(1 << k)
            m |= 1 << k
        # Tuples built once: the scan indexes them and builds nothing.
        self._pins = tuple(ps)
        self._bits = tuple(bs)
        self._n = len(ps)
        self.mask = m  # every key this board has

    def scan(self):
        """The bitmap of keys pressed right now (raw, not debounced). Allocates nothing."""
        bits = 0
        i = 0
        while i < self._n:
            if not self._pins[i].value():
                bits |= self._bits[i]
            i += 1
        return bits
