"""Gestures from debounced key bitmaps: tap, long, hold, auto-repeat and the RED+BLUE chord.

A pure state machine on a tick clock (DESIGN section 4). `update(bits, now_ms)` runs every
scan, edges or not, and calls `on_event(kind, key)` for each gesture (ui/input.py, a subclass,
calls its target with the time as well); it reads nothing but its
arguments and builds nothing: per-key state lives in arrays made in the constructor.

OK (any key not in REPEAT_KEYS):  released before LONG_MS -> TAP; released later -> LONG;
    HOLD_MS reached -> HOLD at once, and its release does nothing.
RED, BLUE, RED_MINUS, BLUE_MINUS (REPEAT_KEYS):  released before REPEAT_DELAY_MS -> TAP; kept
    down -> REPEAT at REPEAT_DELAY_MS and every REPEAT_MS after (the first REPEAT is the press's
    own +1), and the release does nothing.
Chord:  RED and BLUE down together for CHORD_MS -> CHORD (key RED) once; from then on neither
    makes an event until both are up. While both are down no REPEAT fires; released before the
    chord, each key is classified on its own (a key that was held past REPEAT_DELAY_MS but had
    its repeat held back by the other key gives one REPEAT on release, and the key still down
    resumes repeating at once).
swallow():  the keys down now make no event (CHORD included) until they are released.

Late scans: an event whose moment fell between two scans fires on the later scan, once (no
burst of REPEATs; a HOLD or CHORD whose release is seen on that same scan still fires). Events
of one scan come in a fixed order: CHORD, then releases by key index, then HOLD/REPEAT.
"""

from array import array

from .keys import BIT, BLUE, BLUE_MINUS, RED, RED_MINUS
from ..ticks import add, diff

from ..compat import const


TAP = const(1)
LONG = const(2)
HOLD = const(3)
REPEAT = const(4)
CHORD = const(5)
NAMES = (None, 'TAP', 'LONG', 'HOLD', 'REPEAT', 'CHORD')  # NAMES[kind]

_IDLE = const(0)  # chord states
_ARMED = const(1)  # RED and BLUE both live and down: counting to CHORD_MS
_FIRED = const(2)  # fired: RED and BLUE are dead until both are up


class Gestures:
    LONG_MS = 600
    HOLD_MS = 3000
    CHORD_MS = 1000
    REPEAT_DELAY_MS = 600
    REPEAT_MS = 150
    REPEAT_KEYS = BIT(RED) | BIT(BLUE) | BIT(RED_MINUS) | BIT(BLUE_MINUS)
    CHORD_KEYS = BIT(RED) | BIT(BLUE)

    def __init__(self, on_event, width=8):
        self._emit = on_event
        self._mask = (1 << width) - 1
        self._t0 = array('i', [0] * width)  # per key: when it went down
        self._next = array('i', [0] * width)  # per repeat key: when its next REPEAT is due
        self._down = 0  # keys down at the last update
        self._pressed = 0  # keys that went down at the last update
        self._dead = 0  # down keys that make no more events (swallowed, held, chorded)
        self._counted = 0  # down repeat keys that already fired a REPEAT
        self._chord = _IDLE
        self._chord_t = 0

    @property
    def idle(self):
        """True when no key is down, so nothing can fire until the next press."""
        return not self._down and self._chord == _IDLE

    @property
    def down(self):
        return self._down

    @property
    def pressed(self):
        """Keys that went down at the last update (for a wake-up press: then call swallow())."""
        return self._pressed

    def _fire(self, kind, k, now):
        # Every event goes through here; the input layer (ui/input.py) passes `now` on.
        self._emit(kind, k)

    def swallow(self):
        """The keys down now make no event at all until they are released."""
        self._dead |= self._down
        if self._chord == _ARMED:
            self._chord = _IDLE

    def update(self, stable_bits, now_ms):
        if self._chord == _ARMED:  # first, so a late scan that sees the release still fires it
            self._chord_due(now_ms)
        bits = stable_bits & self._mask
        prev = self._down
        self._down = bits
        self._pressed = bits & ~prev
        if bits ^ prev:
            self._edges(prev & ~bits, self._pressed, now_ms)
        if bits:
            self._chords(now_ms)
            self._timers(bits & ~self._dead, now_ms)

    def _edges(self, released, pressed, now):
        k = 0
        while released:
            if released & 1:
                self._release(k, now)
            released >>= 1
            k += 1
        if not self._down & self.CHORD_KEYS:
            self._chord = _IDLE
        k = 0
        while pressed:
            if pressed & 1:
                self._press(k, now)
            pressed >>= 1
            k += 1

    def _press(self, k, now):
        self._t0[k] = now
        self._next[k] = add(now, self.REPEAT_DELAY_MS)
        if self._chord == _FIRED and (1 << k) & self.CHORD_KEYS:
            self._dead |= 1 << k

    def _release(self, k, now):
        b = 1 << k
        quiet = (self._dead | self._counted) & b
        self._dead &= ~b
        self._counted &= ~b
        if quiet:
            return
        held = diff(now, self._t0[k])
        if b & self.REPEAT_KEYS:
            self._fire(TAP if held < self.REPEAT_DELAY_MS else REPEAT, k, now)
        elif held < self.LONG_MS:
            self._fire(TAP, k, now)
        else:  # HOLD only when a late scan missed the moment it was reached
            self._fire(LONG if held < self.HOLD_MS else HOLD, k, now)

    def _chord_due(self, now):
        if diff(now, self._chord_t) >= self.CHORD_MS:
            self._chord = _FIRED
            self._dead |= self.CHORD_KEYS
            self._fire(CHORD, RED, now)

    def _chords(self, now):
        ck = self.CHORD_KEYS
        if (self._down & ~self._dead & ck) == ck:
            if self._chord == _IDLE:
                self._chord = _ARMED
                self._chord_t = now
        elif self._chord == _ARMED:  # one of them released or swallowed
            self._chord = _IDLE

    def _timers(self, live, now):
        if self._chord != _IDLE and (self._down & self.CHORD_KEYS) == self.CHORD_KEYS:
            live &= ~self.REPEAT_KEYS
        k = 0
        while live:
            if live & 1:
                if (1 << k) & self.REPEAT_KEYS:
                    self._repeat(k, now)
                elif diff(now, self._t0[k]) >= self.HOLD_MS:
                    self._dead |= 1 << k
                    self._fire(HOLD, k, now)
            live >>= 1
            k += 1

    def _repeat(self, k, now):
        if diff(now, self._next[k]) >= 0:
            t = add(self._next[k], self.REPEAT_MS)
            if diff(now, t) >= 0:  # late scan: no burst, the cadence restarts from now
                t = add(now, self.REPEAT_MS)
            self._next[k] = t
            self._counted |= 1 << k
            self._fire(REPEAT, k, now)
