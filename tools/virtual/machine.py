# A stand-in for MicroPython's `machine` module on the virtual board (host only).
#
# It runs under the MicroPython unix port (which lets a file named machine.py shadow its own
# tiny `machine`) and under CPython. Pins are wires: each pin number is one Line that remembers
# what the MCU drives on it, what the outside world drives on it (a button, a chip pulling an
# open-drain line low) and its pull resistor. Virtual chips listen to lines and SPI buses and
# decode what the drivers send, so the simulator shows only what really reached a chip.
#
# More parts (PWM for a buzzer or a dimmed /OE, ADC for a light sensor, pin IRQs for remote
# receivers) come as stand-in modules of their own in tools/virtual: a part's module imports
# this one, drives or reads its pins through line(id) (so the chips and the firmware see the
# same wire), registers what a power cut must forget in `resets`, and joins this namespace by
# its name in PARTS (the firmware's `from machine import PWM` then finds it). A PWM sets its
# line's `duty` (duty_u16) and calls changed(): the chips read a PWM-driven pin from it.


try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython
    heap_lock = heap_unlock = None


def to_chips(listeners, arg):
    """Hand `arg` to the chips listening on a wire or bus. The firmware refreshes its
    displays with the heap locked (nothing it does there may allocate); the chips stand for
    hardware, not firmware, so they run with the heap usable.
    This runs on every edge of a bit-banged wire, so it allocates nothing itself: no test
    allocation to learn whether the heap is locked (lock once more and read the depth back),
    and no try/finally, whose larger frame the unix port would put on the heap at every
    call (a chip that raises is a broken test harness, not firmware)."""
    if not listeners:
        return
    if heap_lock is None:
        _hand(listeners, arg)
        return
    heap_lock()
    if heap_unlock() > 0:
        heap_unlock()
        _hand(listeners, arg)
        heap_lock()
    else:
        _hand(listeners, arg)


def _hand(listeners, arg):
    for fn in listeners:
        fn(arg)


class Reset(BaseException):
    """Raised by reset()/soft_reset(): the simulator restarts the firmware, as the chip would."""


class Line:
    __slots__ = ('id', 'out', 'ext', 'pull', 'mode', 'listeners', 'irq_handler', 'irq_trigger',
                 'pin', 'last', 'duty')

    def __init__(self, id):
        self.id = id
        self.out = 0          # level the MCU drives when the pin is an output
        self.ext = None       # level driven from outside (button, chip), None = floating
        self.pull = None
        self.mode = None
        self.listeners = []   # callables listener(line) on every change of the level
        self.irq_handler = None
        self.irq_trigger = 0
        self.pin = None
        self.last = None
        self.duty = None      # a PWM stand-in's duty_u16 (0..65535) while it drives the pin

    def level(self):
        if self.mode == Pin.OUT:
            return self.out
        if self.mode == Pin.OPEN_DRAIN:
            # Wired-AND: either side may pull the line low; the pull-up (or the module's
            # own resistor) takes it high otherwise.
            if self.out == 0 or self.ext == 0:
                return 0
            return 1
        if self.ext is not None:
            return self.ext
        if self.pull == Pin.PULL_DOWN:
            return 0
        return 1  # pull-up, or the external pull-ups every module here carries

    def changed(self):
        lv = self.level()
        if lv == self.last:
            return
        prev, self.last = self.last, lv
        to_chips(self.listeners, self)
        h = self.irq_handler
        if h is not None and prev is not None:
            if (lv == 0 and self.irq_trigger & Pin.IRQ_FALLING) or (
                    lv == 1 and self.irq_trigger & Pin.IRQ_RISING):
                h(self.pin)


_lines = {}
resets = []     # callables of the parts' stand-ins, called by reset_all()


def line(id):
    """The wire for pin `id` (created on first use): the harness side of a pin."""
    ln = _lines.get(id)
    if ln is None:
        ln = _lines[id] = Line(id)
    return ln


def drive(id, level):
    """The outside world drives pin `id` (0, 1, or None to let it float): a button press."""
    ln = line(id)
    ln.ext = level
    ln.changed()


def reset_all(cause=None):
    """Forget every wire, bus, timer and the watchdog's state: a power cut of the whole
    virtual board (cause: what reset_cause() says next, PWRON_RESET by default)."""
    global _wdt
    _lines.clear()
    _buses.clear()
    _timers[:] = []
    _wdt = _Watchdog()
    set_reset_cause(PWRON_RESET if cause is None else cause)
    for fn in resets:
        fn()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self._line = line(id)
        self._line.pin = self
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        ln = self._line
        if mode != -1:
            ln.mode = mode
        if pull != -1:
            ln.pull = pull
        if value is not None:
            ln.out = 1 if value else 0
        ln.changed()

    def value(self, v=None):
        ln = self._line
        if v is None:
            return ln.level()
        ln.out = 1 if v else 0
        ln.changed()
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._line.irq_handler = handler
        self._line.irq_trigger = trigger

    @property
    def id(self):
        return self._line.id

    def __repr__(self):
        return 'Pin(%r)' % (self._line.id,)


class Signal:
    def __init__(self, pin, invert=False):
        self._pin = pin
        self._inv = invert

    def value(self, v=None):
        if v is None:
            return self._pin.value() ^ (1 if self._inv else 0)
        self._pin.value((1 if v else 0) ^ (1 if self._inv else 0))

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


_buses = {}


def bus(key):
    """Listeners of an SPI bus, keyed by the bus id (hardware SPI) or the sck pin (SoftSPI)."""
    b = _buses.get(key)
    if b is None:
        b = _buses[key] = []
    return b


class SPI:
    MSB = 0
    LSB = 1

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, bits=8, firstbit=0,
                 sck=None, mosi=None, miso=None):
        self._key = ('spi', id)
        self.init(baudrate=baudrate)

    def init(self, baudrate=1000000, **kw):
        self.baudrate = baudrate

    def write(self, buf):
        to_chips(bus(self._key), buf)

    def write_readinto(self, wbuf, rbuf):
        self.write(wbuf)
        for i in range(len(rbuf)):
            rbuf[i] = 0

    def read(self, n, write=0):
        return bytes(n)

    def readinto(self, buf, write=0):
        for i in range(len(buf)):
            buf[i] = 0

    def deinit(self):
        pass


class SoftSPI(SPI):
    def __init__(self, baudrate=500000, polarity=0, phase=0, bits=8, firstbit=0, sck=None,
                 mosi=None, miso=None):
        self._key = ('soft', sck.id if sck is not None else None)
        self.init(baudrate=baudrate)


# --- time, the watchdog and timers ---------------------------------------------------------
# The watchdog and the timers count on one millisecond clock: the real one by default (the pty
# board), the simulator's virtual time once it calls set_clock(). Whoever runs the clock also
# enforces them: the simulator calls run_timers(now) and expired(now) after every pass, the pty
# board's agent runs the timers in a thread and reports every start and feed to tools/vboard.py,
# which resets the board when a feed is late.

def _real_ms():
    import time
    if hasattr(time, 'ticks_ms'):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


_clock = _real_ms


def set_clock(fn):
    """The clock (ms, never masked) the watchdog and the timers count on: fn() or real time."""
    global _clock
    _clock = fn or _real_ms


def now_ms():
    return _clock()


on_watchdog = None  # the pty board's hook: on_watchdog(wdt, started) at every start and feed


class _Watchdog:
    """The board's one watchdog, as the RP2040's: once started it runs until the chip resets
    (a soft reset does not stop it: the pty board keeps it across one), it cannot be stopped,
    and a second WDT() neither changes its timeout nor starts a second one (it reloads the
    count, as watchdog_enable does). Not fed within `timeout` ms, it resets the board: RAM
    lost, flash kept, the firmware boots again, reset_cause() == WDT_RESET."""

    def __init__(self):
        self.timeout = None     # ms; None: never started
        self.feeds = 0
        self.starts = 0
        self.fed_at = 0         # now_ms() of the last feed (or start)

    def feed(self):
        if self.timeout is None:
            return
        self.feeds += 1
        self.fed_at = _clock()
        h = on_watchdog
        if h is not None:
            h(self, False)

    def start(self, timeout):
        self.starts += 1
        if self.timeout is None:
            self.timeout = timeout
        self.fed_at = _clock()
        h = on_watchdog
        if h is not None:
            h(self, True)

    def left(self, now=None):
        """ms until it bites (None: not running)."""
        if self.timeout is None:
            return None
        if now is None:
            now = _clock()
        return self.timeout - (now - self.fed_at)

    def expired(self, now=None):
        left = self.left(now)
        return left is not None and left < 0

    # no stop(), no deinit(): the chip has none


_wdt = _Watchdog()


def WDT(id=0, timeout=5000):
    """The watchdog, started (a second call reloads it, keeping the first timeout): one object
    per board, so a firmware that restarts its loop thousands of times holds one, as on the
    chip."""
    _wdt.start(timeout)
    return _wdt


def watchdog():
    """The board's watchdog as the firmware left it (timeout None: never started)."""
    return _wdt


class _Mem32:
    """machine.mem32, for the registers the firmware reads: the RP2040 watchdog's CTRL (bit
    30, ENABLE, set while the watchdog runs) and SCRATCH4, where the Pico SDK leaves
    0x6ab73121 when the watchdog it enabled timed out (machine.reset() leaves 0 there, and both
    report WDT_RESET). Any other address reads 0."""
    WATCHDOG_CTRL = 0x40058000
    WATCHDOG_SCRATCH4 = 0x4005801C
    NON_REBOOT_MAGIC = 0x6AB73121

    def __getitem__(self, addr):
        if addr == self.WATCHDOG_CTRL and _wdt.timeout is not None:
            return 1 << 30
        if addr == self.WATCHDOG_SCRATCH4:
            return _scratch4
        return 0


mem32 = _Mem32()


class Timer:
    """A software timer (rp2's machine.Timer is one): its callback runs when run_timers()
    finds it due on the board's clock. A soft reset or a power cut deinits every timer."""
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, mode=PERIODIC, period=-1, callback=None, freq=None):
        self._cb = None
        self._period = 0
        self._mode = mode
        self._due = 0
        if callback is not None:
            self.init(mode=mode, period=period, callback=callback, freq=freq)

    def init(self, mode=PERIODIC, period=-1, callback=None, freq=None):
        if freq is not None:
            period = 1000 // freq
        self._mode = mode
        self._period = max(1, period)
        self._cb = callback
        self._due = _clock() + self._period
        if self not in _timers:
            _timers.append(self)
        h = on_timer
        if h is not None:
            h(self)

    def deinit(self):
        if self in _timers:
            _timers.remove(self)
        self._cb = None


_timers = []
on_timer = None     # the pty board's hook: on_timer(timer) when one starts (it runs them)


def run_timers(now=None):
    """Call every timer due by `now` (ms on the board's clock); periodic ones as often as
    they fell due."""
    if not _timers:
        return
    if now is None:
        now = _clock()
    for t in list(_timers):
        n = 0
        while t._cb is not None and now - t._due >= 0:
            n += 1
            if n > 1000:        # time jumped (the simulator's quiet jumps): re-base it
                t._due = now + t._period
                break
            t._due += t._period
            cb = t._cb
            if t._mode == Timer.ONE_SHOT:
                t.deinit()
            cb(t)
            if t not in _timers:
                break


def timers():
    return list(_timers)


_cause = 1          # PWRON_RESET until the board says otherwise
_scratch4 = 0


def set_reset_cause(cause, scratch4=None):
    """What reset_cause() says (and SCRATCH4: the SDK's magic after a watchdog timeout; give
    scratch4=0 with WDT_RESET for an RP2040's machine.reset())."""
    global _cause, _scratch4
    _cause = cause
    if scratch4 is None:
        scratch4 = _Mem32.NON_REBOOT_MAGIC if cause == WDT_RESET else 0
    _scratch4 = scratch4


def reset():
    raise Reset('machine.reset')


def soft_reset():
    raise Reset('machine.soft_reset')


def freq(hz=None):
    return 125000000


def unique_id():
    return b'\x5b\x0a\x2d\x00\x00\x00\x00\x01'


def idle():
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def reset_cause():
    return _cause


PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
SOFT_RESET = 5


# The parts' stand-in modules (see the top): each module's NAMES become names of this module.
PARTS = ('pwm', 'adc')


def _join(parts):
    g = globals()
    for name in parts:
        try:
            mod = __import__(name)
        except ImportError:
            continue
        for n in getattr(mod, 'NAMES', ()):
            g[n] = getattr(mod, n)
        fn = getattr(mod, 'reset', None)
        if fn is not None:
            resets.append(fn)


_join(PARTS)
