"""The buzzer: short tunes scheduled on a tick clock, never slept (DESIGN section 11).

A piezo on a PWM pin. `click`, `chime`, `win` and `refuse` start a tune at `now`; `update(now)`
from the loop moves it on, note by note, and leaves the pin silent when it ends. Nothing
blocks: a note is a frequency set and a duty, its end a tick to compare with. A tune cuts off
one of lower or equal rank (a chime after the click of the same press), never one above it
(a click during the win tune is dropped). `on` is the menu's `sound` item: off, nothing plays.
Tunes are tuples of (Hz, ms) built at import; playing one allocates nothing.
"""

from .compat import const
from .ticks import add, diff

# (Hz, ms); 0 Hz is a rest.
CLICK = ((3000, 6),)
CHIME = ((1319, 80), (0, 20), (1760, 140))  # E6, A6: an entry committed
WIN = ((1047, 120), (1319, 120), (1568, 120), (0, 40), (2093, 320))  # C6 E6 G6 . C7
REFUSE = ((196, 260),)  # a low buzz: refused

_RANK_CLICK = const(1)
_RANK_CHIME = const(2)
_RANK_REFUSE = const(3)
_RANK_WIN = const(4)


class Sound:
    DUTY = 32768  # half duty: the loudest square wave a piezo gives

    def __init__(self, pwm, on=True):
        self._pwm = pwm
        self._on = bool(on)
        self._tune = None
        self._i = 0
        self._rank = 0
        self._next = 0  # tick the current note ends
        pwm.duty_u16(0)

    @property
    def on(self):
        return self._on

    @on.setter
    def on(self, v):
        self._on = bool(v)
        if not self._on:
            self.stop()

    @property
    def playing(self):
        return self._tune is not None

    def click(self, now):
        self.play(CLICK, _RANK_CLICK, now)

    def chime(self, now):
        self.play(CHIME, _RANK_CHIME, now)

    def refuse(self, now):
        self.play(REFUSE, _RANK_REFUSE, now)

    def win(self, now):
        self.play(WIN, _RANK_WIN, now)

    def play(self, tune, rank, now):
        """Start `tune` ((Hz, ms) pairs) at `now` unless a higher-ranked one is playing."""
        if not self._on:
            return
        if self._tune is not None and rank < self._rank:
            return
        self._tune = tune
        self._rank = rank
        self._i = -1
        self._note(now)

    def stop(self):
        self._tune = None
        self._rank = 0
        self._pwm.duty_u16(0)

    def update(self, now):
        """Advance the tune: call every loop pass (a late pass shortens nothing but the note
        it was late for: the next note starts when the pass comes)."""
        if self._tune is not None and diff(now, self._next) >= 0:
            self._note(now)

    def _note(self, now):
        self._i += 1
        tune = self._tune
        if self._i >= len(tune):
            self.stop()
            return
        hz, ms = tune[self._i]
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(self.DUTY)
        else:
            self._pwm.duty_u16(0)
        self._next = add(now, ms)


def from_board(board, PWM, Pin, on=True):
    """The buzzer of a board file naming `BUZZER = pin`, or None without one."""
    n = getattr(board, 'BUZZER', None)
    if n is None:
        return None
    return Sound(PWM(Pin(n), freq=2000, duty_u16=0), on)
