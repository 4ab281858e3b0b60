"""A remote's receiver on the virtual board (host only): trains queued, played edge by edge.

The press-script commands `ir CODE` and `rf CODE` queue the pulse train a real remote would
make (virtual/pulses.py) on the receiver's pin; before each loop pass the harness calls
`play(now_ms)`, which drives the pin's line with every edge due by then, the microsecond
clock set to each edge's time first, so the firmware's IRQ reads the tick the edge came at.
`clock` is that microsecond clock: the firmware's EdgeRing must be built with it."""

import irqoff
from virtual import pulses
from virtual.irqpin import Clock


class Receiver:
    def __init__(self, pin_id, kind, clock=None):
        """kind: 'ir' (NEC, active-low output) or 'rf' (EV1527, active high)."""
        if kind not in ('ir', 'rf'):
            raise ValueError('receiver kind: ir or rf')
        self.pin_id = pin_id
        self.kind = kind
        self.idle = pulses.NEC_IDLE if kind == 'ir' else pulses.RF_IDLE
        self.clock = clock if clock is not None else Clock()
        irqoff.clock = self.clock   # interrupt-off windows (a neopixel write) on this clock
        self._edges = []
        self.sent = []  # (code, at_ms, hold_ms) of every press queued

    def idle_line(self):
        import machine

        machine.drive(self.pin_id, self.idle)

    def press(self, code, now_ms, hold_ms=0, jitter_pct=0, rng=None):
        """Queue a press of `code` starting at `now_ms`, held `hold_ms` (repeat codes or
        repeated frames for that long); returns the ms it ends."""
        t0 = now_ms * 1000 + 500
        if self.kind == 'ir':
            reps = hold_ms // (pulses.NEC_PERIOD // 1000)
            train = pulses.nec(code, t0=t0, repeats=reps, jitter_pct=jitter_pct, rng=rng)
        else:
            frames = max(4, (hold_ms * 1000) // (128 * 350) + 1)
            train = pulses.ev1527(code, t0=t0, frames=frames, jitter_pct=jitter_pct, rng=rng)
        self.send(train)
        self.sent.append((code, now_ms, hold_ms))
        return pulses.end(train) // 1000 + 1

    def send(self, train):
        """Queue a train (times in us on this receiver's clock, unmasked)."""
        self._edges.extend(train)
        self._edges.sort()

    @property
    def busy(self):
        return bool(self._edges)

    def play(self, now_ms):
        """Drive every edge due by `now_ms` onto the pin; the clock ends at now."""
        import machine

        upto = now_ms * 1000
        n = 0
        held = None     # [window end, level]: edges while interrupts were off (irqoff.py)
        for t, v in self._edges:
            if t > upto:
                break
            if held is not None and t >= held[0]:
                self._late(held)
                held = None
            end = irqoff.window_end(t) if irqoff.n else None
            if end is not None:
                if held is None:
                    held = [end, v]
                else:
                    held[1] = v
                    irqoff.lost += 1
            else:
                self.clock.us = t
                machine.drive(self.pin_id, v)
            n += 1
        if held is not None:
            self._late(held)
        if n:
            del self._edges[:n]
        irqoff.past(upto)
        self.clock.us = upto
        return n

    def _late(self, held):
        # Interrupts back on: the pending IRQ runs once, at the window's end, reading the
        # line as it is then.
        import machine

        irqoff.late += 1
        self.clock.us = held[0]
        machine.drive(self.pin_id, held[1])
