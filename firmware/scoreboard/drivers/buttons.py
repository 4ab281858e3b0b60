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
        """(pin, bit) of every button, for the wake IRQ (Wake.arm below)."""
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


# --- the wake IRQ -------------------------------------------------------------------------
# Pin IRQs on the buttons' own pins (Buttons built them once): a press while the loop does not
# scan is latched, never missed.
#
# While nothing is down and nothing settles, the loop does not read the buttons at all, and it
# may sleep longer than one pass (app.main: IDLE_MS, or machine.lightsleep where the board asks
# for it). The falling edge of a button's pin (active low) sets that key's bit in `bits` from
# the IRQ; the next pass reads the bits, clears them and scans with them ORed in, so a press that
# came and went during the sleep is still one press (the debounce holds it `settle_ms`, and the
# gestures make a tap of it).
#
# `armed` is False where the port has no pin IRQ (or a pin refuses one): the loop then scans
# every pass, as without this. The handler allocates nothing (hard or soft IRQ alike).
class Wake:
    def __init__(self):
        self.bits = 0           # keys whose pin fell since the last take()
        self.armed = False
        self._pins = []         # the pins with an IRQ (kept, so their handlers stay)

    def arm(self, buttons):
        """IRQs on the pins of `buttons` (a Buttons: its own pins, built once, bit k of a scan
        is bit k here); False if the port has none, and then nothing is armed."""
        try:
            for pin, bit in buttons.pins():
                pin.irq(handler=self._handler(bit), trigger=pin.IRQ_FALLING)
                self._pins.append(pin)
        except Exception:       # no IRQ on this port or pin: the loop scans every pass
            self.disarm()
            return False
        self.armed = True
        return True

    def _handler(self, bit):
        def fell(pin):
            self.bits |= bit
        return fell

    def disarm(self):
        for p in self._pins:
            try:
                p.irq(handler=None)
            except Exception:
                pass
        self._pins = []
        self.armed = False

    def take(self):
        """The keys latched since the last take(), cleared. A press whose edge comes after the
        clearing is latched for the next pass; the scan that follows this call reads the pins
        themselves, so only a press that both began and ended in the few instructions between
        the read and the clearing (contact noise, not a press) could be lost."""
        b = self.bits
        self.bits = 0
        return b
