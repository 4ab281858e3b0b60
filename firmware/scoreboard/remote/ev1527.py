"""EV1527 433 MHz keyfob codes from edge times: a pure state machine.

A frame is a sync (1 base period T high, 31 T low) and 24 bits, MSB first, each 4 T: a 0 is
1 T high and 3 T low, a 1 is 3 T high and 1 T low (T about 300-400 us, set by the fob's
resistor). The 24 bits are a 20-bit ID and 4 data bits (one per key). The fob sends frames back
to back for as long as a key is held. T is measured from each sync, so any fob's speed is read.

`edge(tick_us, level)` takes each edge in order; a frame is checked bit by bit against the T of
its sync (every high and every low in its window, the frame's last low included, which ends
at the next frame's sync or, after the last frame, in silence: a silence ended by an edge within
64 T, as a receiver's noise soon does; after longer, the press is over and its last frame is
dropped, so a frame is never reported long after it was sent); any interval out of its window
drops the frame. A code is reported through `emit(code, tick_us)` only when it is the second
identical frame in a row (within 200 ms), and again for each identical frame after: noise, a
glitch, a half frame or two fobs at once (their frames alternate or collide) yield nothing.
"""

from ..ticks import diff

from ..compat import const


_SYNC_HIGH_MIN = const(120)  # us: the sync's high, 1 T
_SYNC_HIGH_MAX = const(1000)
_PAIR_US = const(200000)  # two frames this close count as one press's repeats
_BITS = const(24)

_IDLE = const(0)
_SHIGH = const(1)  # in a high that may be a sync's
_SLOW = const(2)  # in the low after it
_BHIGH = const(3)  # in a bit's high
_BLOW = const(4)  # in a bit's low


class EV1527:
    RELEASE_MS = 200  # frames every 40-50 ms while held: one may be lost
    REPEATS_FRAMES = True  # the frame itself is repeated while held
    DATA_BITS = True  # the low 4 bits are one per fob key; two keys at once set two

    def __init__(self, emit, active_low=False):
        self._emit = emit
        self._mark = 0 if active_low else 1  # pin level while the carrier is on
        self._lvl = 1 - self._mark
        self._t = 0  # tick of the previous edge
        self._p = 0  # tick of the edge before it
        self._h = 0  # the high just ended
        self._T = 0  # base period of this frame, us
        self._prev = -1  # the last whole frame, -1: none
        self._prev_t = 0
        self.reset()

    def reset(self):
        self._s = _IDLE
        self._n = 0
        self._v = 0
        self._b = 0  # the last bit, whose low is being timed

    def edge(self, t, level):
        d = diff(t, self._t)
        self._p = self._t  # where the interval now ending began
        self._t = t
        if level == self._lvl:  # an edge went missing
            self.reset()
            if level == self._mark:
                self._s = _SHIGH
            return
        self._lvl = level
        if level == self._mark:
            self._low_end(d)
        else:
            self._high_end(d)

    def _high_end(self, h):
        s = self._s
        self._h = h
        self._s = _IDLE
        if s == _SHIGH:
            if _SYNC_HIGH_MIN <= h <= _SYNC_HIGH_MAX:
                self._s = _SLOW
        elif s == _BHIGH:
            T = self._T
            if 20 * h >= 11 * T and 10 * h <= 17 * T:  # 0.55 T .. 1.7 T
                self._b = 0
                self._s = _BLOW
            elif 10 * h >= 19 * T and 10 * h <= 45 * T:  # 1.9 T .. 4.5 T
                self._b = 1
                self._s = _BLOW

    def _low_end(self, d):
        s = self._s
        self._s = _SHIGH  # by default this high may begin a sync
        if s == _SLOW:
            h = self._h
            if 16 * h <= d <= 60 * h:  # 31 T, against the 1 T high
                self._T = (h + d) >> 5
                self._n = 0
                self._v = 0
                self._s = _BHIGH
        elif s == _BLOW:
            if self._low_ok(d):
                n = self._n + 1
                self._n = n
                self._v = (self._v << 1) | self._b
                if n == _BITS:
                    self._frame(self._v)  # this high is the next frame's sync
                else:
                    self._s = _BHIGH

    def _low_ok(self, d):
        T = self._T
        if self._n == _BITS - 1 and 6 * T < d <= 64 * T:  # the last low may end in silence
            return True  # (but not one so long that the press is over before it is seen)
        if self._b:
            return 20 * d >= 11 * T and 10 * d <= 17 * T
        return 10 * d >= 19 * T and 10 * d <= 45 * T

    def _frame(self, v):
        # Timed from its last high's end: a frame whose last low ends in silence is as old as
        # that silence, not as the edge that ends it.
        t = self._p
        if v == self._prev and diff(t, self._prev_t) <= _PAIR_US:
            self._emit(v, t)
        self._prev = v
        self._prev_t = t
