"""The input layer: raw key bitmaps in, one call `target.event(kind, key, now)` out.

It owns the debounce, the gestures (it is the Gestures state machine, so every event carries the
time of the scan that made it) and the rules of the keys themselves:
- PRESS when a live key goes down. When the target answers True (the press only woke the
  display: the target decides what is asleep), the keys down now make no further event.
- HELD when OK (any key that does not repeat) has been down LONG_MS, still live: letting go now
  would be a long press, so the display can say what it will do.
- A key already down at the first scan (held through power-up) makes no event until released.

Nothing here allocates; a scan with no key down and nothing settling returns at once.
"""

from .debounce import Debouncer
from .gestures import Gestures
from ..ticks import diff

from ..compat import const


PRESS = const(6)   # after the gesture kinds (gestures.TAP .. CHORD)
HELD = const(7)


class Input(Gestures):
    def __init__(self, target, width=8):
        Gestures.__init__(self, None, width)
        self.target = target
        self.debounce = Debouncer(width=width)
        self._boot = True
        self._told = 0      # keys down that had their HELD
        self.busy = True   # something to look at even with no raw key down

    @property
    def idle(self):
        """True when no key is down (debounced or settling) and no gesture is in progress."""
        return not self.busy

    def scan(self, raw, now):
        """One scan: the raw bitmap of keys down at `now` (masked ticks)."""
        if not raw and not self.busy:
            return
        deb = self.debounce
        bits = deb.update(raw, now)
        self.update(bits, now)
        if self._boot:
            self._boot = False
            if bits:
                self.swallow()       # held through power-up: nothing until released
        elif self._pressed & ~self._dead:
            self._presses(self._pressed & ~self._dead, now)
        self._told &= self._down
        live = self._down & ~self._dead & ~self._told & ~self.REPEAT_KEYS
        if live:
            self._held(live, now)
        self.busy = bool(bits or deb.settling or self._chord)

    def _presses(self, pressed, now):
        k = 0
        while pressed:
            if pressed & 1 and self.target.event(PRESS, k, now):
                self.swallow()
                return
            pressed >>= 1
            k += 1

    def _held(self, live, now):
        k = 0
        while live:
            if live & 1 and diff(now, self._t0[k]) >= self.LONG_MS:
                self._told |= 1 << k
                self.target.event(HELD, k, now)
            live >>= 1
            k += 1

    def _fire(self, kind, k, now):
        self.target.event(kind, k, now)
