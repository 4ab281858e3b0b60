"""NEC infrared frames from edge times: a pure state machine (VS1838B-type receivers).

A frame is a 9 ms mark (carrier on: the receiver's output low), a 4.5 ms space, 32 bits sent
LSB first (a 562 us mark, then a 562 us space for 0 or a 1687 us space for 1) and a 562 us stop
mark: address, its inverse, command, its inverse. Extended NEC sends a 16-bit address instead of
the address and its inverse. While the key is held the remote sends a repeat code (9 ms mark,
2.25 ms space, stop mark) every 108 ms, frame start to frame start.

`edge(tick_us, level)` takes each edge in order; a frame is reported through
`emit(code, tick_us)` at the end of its stop mark, `code = address << 8 | command` (DESIGN
section 11), and a repeat as `emit(REPEAT, tick_us)`. Every interval must fall in its window
and the command (and a standard address) must match its inverse, or the machine drops what it
has and waits for the next leader: noise, a glitch or a half frame yields nothing, never a code.
A repeat counts only if it starts 108 ms (or, one repeat lost, 216 ms) after the frame or repeat
before it; a held remote's repeats cannot fit that cadence after another remote's frame
(a frame fits the 96 ms between two repeats only by starting at most 96 ms before the next),
so repeats are never credited to the wrong key.
"""

from ..ticks import diff

from ..compat import const


REPEAT = const(-1)

# Windows in us, wide enough for +-15% jitter and the receiver's stretched marks.
_LEAD_MIN = const(6750)
_LEAD_MAX = const(11250)
_SPACE_MIN = const(3400)  # 4.5 ms: a frame follows
_SPACE_MAX = const(5600)
_RSPACE_MIN = const(1700)  # 2.25 ms: a repeat code
_RSPACE_MAX = const(2800)
_BIT_MIN = const(300)  # a bit mark, the stop mark and a 0's space: 562 us
_BIT_MAX = const(900)
_ONE_MIN = const(1200)  # a 1's space: 1687 us
_ONE_MAX = const(2200)
_CADENCE_MIN = const(100000)  # one repeat period, frame start to frame start: 108 ms
_CADENCE_MAX = const(117000)

_IDLE = const(0)
_LEAD = const(1)  # in the leader mark
_LSPACE = const(2)  # in the space after it
_BMARK = const(3)  # in a bit's mark
_BSPACE = const(4)  # in a bit's space
_STOP = const(5)  # in the stop mark of a frame
_RSTOP = const(6)  # in the stop mark of a repeat code


class NEC:
    RELEASE_MS = 250  # a held key's repeats come every 108 ms: one may be lost
    REPEATS_FRAMES = False  # a frame is a fresh press; holding sends repeat codes
    DATA_BITS = False

    def __init__(self, emit, active_low=True):
        self._emit = emit
        self._mark = 0 if active_low else 1  # pin level while the carrier is on
        self._lvl = 1 - self._mark
        self._t = 0  # tick of the previous edge
        self._lead = 0  # tick the current leader began
        self._chain = -1  # tick the last frame or repeat began, -1: none to repeat
        self.reset()

    def reset(self):
        self._s = _IDLE
        self._n = 0  # bits so far
        self._lo = 0  # bits 0..15: address (and its inverse)
        self._hi = 0  # bits 16..31: command and its inverse (two halves: no long ints)

    def edge(self, t, level):
        d = diff(t, self._t)
        self._t = t
        if level == self._lvl:  # an edge went missing: whatever was building is broken
            self.reset()
            if level == self._mark:
                self._start(t)
            return
        self._lvl = level
        if level == self._mark:
            self._space_end(d, t)
        else:
            self._mark_end(d, t)

    def _start(self, t):
        self._s = _LEAD
        self._lead = t

    def _space_end(self, d, t):
        s = self._s
        if s == _BSPACE:
            if _BIT_MIN <= d <= _BIT_MAX:
                self._bit(0)
                return
            if _ONE_MIN <= d <= _ONE_MAX:
                self._bit(1)
                return
        elif s == _LSPACE:
            if _SPACE_MIN <= d <= _SPACE_MAX:
                self._s = _BMARK
                self._n = 0
                self._lo = 0
                self._hi = 0
                return
            if _RSPACE_MIN <= d <= _RSPACE_MAX:
                self._s = _RSTOP
                return
        self._start(t)  # anything else: this mark may be the next leader

    def _bit(self, b):
        n = self._n
        if n < 16:
            self._lo |= b << n
        else:
            self._hi |= b << (n - 16)
        self._n = n + 1
        self._s = _STOP if n == 31 else _BMARK

    def _mark_end(self, d, t):
        s = self._s
        self._s = _IDLE
        if s == _LEAD:
            if _LEAD_MIN <= d <= _LEAD_MAX:
                self._s = _LSPACE
        elif s == _BMARK:
            if _BIT_MIN <= d <= _BIT_MAX:
                self._s = _BSPACE
        elif s == _STOP:
            if _BIT_MIN <= d <= _BIT_MAX:
                self._frame(t)
        elif s == _RSTOP:
            if _BIT_MIN <= d <= _BIT_MAX:
                self._repeat(t)

    def _frame(self, t):
        hi = self._hi
        c = hi & 0xFF
        if c ^ (hi >> 8) != 0xFF:
            return
        a = self._lo
        if (a & 0xFF) ^ (a >> 8) == 0xFF:
            a &= 0xFF
        self._chain = self._lead
        self._emit(a << 8 | c, t)

    def _repeat(self, t):
        if self._chain < 0:
            return
        d = diff(self._lead, self._chain)
        if _CADENCE_MIN <= d <= _CADENCE_MAX or 2 * _CADENCE_MIN <= d <= 2 * _CADENCE_MAX:
            self._chain = self._lead
            self._emit(REPEAT, t)
        else:
            self._chain = -1
