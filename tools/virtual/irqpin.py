"""A receiver's output pin with an IRQ, and the microsecond clock its edges are read on
(host only). `play` puts a pulse train (virtual/pulses.py) on the pin edge by edge: the clock
is set to the edge's time, the level changes, the handler runs, as a pin IRQ would run it."""

# The firmware's tick mask (scoreboard/ticks.py: 2**29 - 1), spelled here so that the virtual
# parts load no firmware module: make bench counts the harness apart from the firmware
# (host_tests/test_ticks.py checks the two agree).
MASK = 0x1FFFFFFF


class Clock:
    """A settable ticks_us(): call it for the time."""

    def __init__(self, us=0):
        self.us = us

    def __call__(self):
        return self.us & MASK


class IrqPin:
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, idle=1):
        self.v = idle
        self.handler = None
        self.trigger = 0
        self.hard = False

    def value(self):
        return self.v

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self.handler = handler
        self.trigger = trigger
        self.hard = hard

    def play(self, train, clock, upto=None):
        """Edges of `train` (all, or those before `upto` us), each through the handler."""
        h = self.handler
        n = 0
        for t, v in train:
            if upto is not None and t >= upto:
                break
            clock.us = t
            if v != self.v:
                self.v = v
                if h is not None:
                    h(self)
            n += 1
        return n


def play_on_line(pin_id, train, clock):
    """The same train on a virtual board's pin (tools/virtual/machine.py), whose IRQ the
    firmware set: the board's receiver sending what the remote sent."""
    import machine

    for t, v in train:
        clock.us = t
        machine.drive(pin_id, v)
