"""Buttons on GPIO pins, active low with pull-ups: one scan reads them all into a bitmap.

`Buttons.from_board(board, names)` builds the pins a board file names in `BUTTONS`
({'RED': 14, ...}) as `Pin(n, Pin.IN, Pin.PULL_UP)`; bit k of a scan is the key names[k]. The
constructor takes pins already built (a test's stand-ins), and the module imports `machine`
only in from_board, so it runs on the virtual board and the host unchanged.
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

    @classmethod
    def from_board(cls, board, names):
        """The buttons of `board.BUTTONS`; `names` orders the keys (bit k is names[k]). A
        button the board names that is not in `names` raises ValueError."""
        from machine import Pin
        pins = []
        for name in board.BUTTONS:
            if name not in names:
                raise ValueError('unknown button %s' % (name,))
            pins.append((names.index(name), Pin(board.BUTTONS[name], Pin.IN, Pin.PULL_UP)))
        return cls(pins)

    def pins(self):
        """(pin, bit) of every button, for drivers/wake.py's IRQs."""
        return [(self._pins[i], self._bits[i]) for i in range(self._n)]

    def scan(self):
        """The bitmap of keys pressed right now (raw, not debounced). Allocates nothing."""
        bits = 0
        i = 0
        while i < self._n:
            if not self._pins[i].value():
                bits |= self._bits[i]
            i += 1
        return bits
