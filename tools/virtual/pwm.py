"""A PWM output that records the tones it plays (host only): the virtual board's buzzer.

`machine.PWM`'s calls (`freq`, `duty_u16`, `deinit`); the time comes from `clock()` (ms), so the
record is in the loop's time. A tone sounds while the duty is above 0: each is kept as
`(hz, start_ms, duration_ms)`; the one still sounding has duration None; one replaced within
the millisecond it began is dropped (nothing was heard). The pin's wire (a stand-in
machine.Pin's line) carries the duty, so a chip on it (a TPIC6B595 chain's /OE) sees the
dimming."""


_MASK = 0x1FFFFFFF      # the firmware's tick period (scoreboard/ui/ticks.py), 2**29
_HALF = 0x10000000


def diff(a, b):
    # ticks.diff, kept here: the stand-in machine loads this before any app folder is on
    # the path (the pty board boots into the folder its pointer names)
    return (((a & _MASK) - (b & _MASK) + _HALF) & _MASK) - _HALF


class PWM:
    # The simulator sets `PWM.default_clock` (its ms clock) before the firmware builds its
    # buzzer, and finds the buzzers built in `PWM.instances`.
    default_clock = None
    instances = []
    # False: no tone is recorded (a bench that plays for long and reads the heap after it; the
    # record is the bench's, not the firmware's). reset() turns it back on.
    record = True

    def __init__(self, pin=None, freq=1000, duty_u16=0, clock=None):
        self.pin = pin
        if clock is None:
            clock = PWM.default_clock
        self.clock = clock if clock is not None else (lambda: 0)
        PWM.instances.append(self)
        self._freq = freq
        self._duty = 0
        self.tones = []
        self.duty_u16(duty_u16)

    def _sounding(self):
        return self._duty > 0 and self._freq > 0

    def _close(self, now):
        if self.tones and self.tones[-1][2] is None:
            hz, t0, _ = self.tones[-1]
            d = diff(now, t0)
            if d:
                self.tones[-1] = (hz, t0, d)
            else:  # replaced in the same ms: nothing was heard
                self.tones.pop()

    def _open(self, now):
        if self._sounding() and PWM.record:
            self.tones.append((self._freq, now, None))

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        if hz != self._freq:
            now = self.clock()
            self._close(now)
            self._freq = hz
            self._open(now)
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        ln = getattr(self.pin, '_line', None)
        if ln is not None:
            ln.duty = d     # the wire's chips read a PWM-driven pin from it (machine.Line)
        was = self._sounding()
        self._duty = d
        if was != self._sounding():
            now = self.clock()
            if was:
                self._close(now)
            else:
                self._open(now)
        return None

    def deinit(self):
        self.duty_u16(0)

    @property
    def last_tone(self):
        """The last tone (hz, start, duration or None while it sounds), or None."""
        return self.tones[-1] if self.tones else None

    @property
    def sounding(self):
        """The frequency sounding now, or 0."""
        return self._freq if self._sounding() else 0


NAMES = ('PWM',)   # joined into the stand-in machine (tools/virtual/machine.py, PARTS)


def reset():
    """A power cut: the buzzers built so far are gone (the next boot builds its own)."""
    PWM.instances.clear()
    PWM.record = True
