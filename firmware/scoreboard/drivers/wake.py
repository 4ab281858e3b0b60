"""Pin IRQs on the buttons' pins (drivers/buttons.py builds them once): a press while the loop
does not scan is latched, never missed.

While nothing is down and nothing settles, the loop does not read the buttons at all, and it
may sleep longer than one pass (app.main: IDLE_MS, or machine.lightsleep where the board asks
for it). The falling edge of a button's pin (active low) sets that key's bit in `bits` from
the IRQ; the next pass reads the bits, clears them and scans with them ORed in, so a press that
came and went during the sleep is still one press (the debounce holds it `settle_ms`, and the
gestures make a tap of it).

`armed` is False where the port has no pin IRQ (or a pin refuses one): the loop then scans
every pass, as without this. The handler allocates nothing (hard or soft IRQ alike).
"""


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
