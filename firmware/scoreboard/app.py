# The loop: buttons -> gestures -> controller -> store -> render -> drivers, one pass every
# LOOP_MS. The board module (board.py on the device, boards/<name>.py on the host) brings the
# pins and displays; the clock, the store and the log come in from main() or from the simulator,
# so the same App runs on a Pico, in the simulator and in the tests.
from . import ticks
from .drivers.buttons import Buttons, Wake
from .ui.controller import Controller
from .ui.input import Input
from .ui.keys import NAMES
from .ui.state import check

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython: nothing to lock
    def heap_lock():  # type: ignore[misc]
        pass

    def heap_unlock():  # type: ignore[misc]
        pass

LOOP_MS = 5             # one scan, one update, at most one redraw
IDLE_MS = 50            # the wait between passes while nothing is down (presses are latched)
PHASE_MS = 250          # blink and scroll step of the displays
PHASE_WRAP = 480 * 64   # phases before the origin moves on (2 h): the layouts' cycles divide it
FEED_MS = 1000          # the watchdog is fed at least this often (every board's timeout is longer)
LAMP_MS = 1000          # the lamp test at power-up: every segment and pixel lit this long
_MASK = ticks.MASK
_HALF = ticks.PERIOD // 2


class App:
    LOOP_MS = LOOP_MS       # for the host, which runs the passes

    def __init__(self, board, store, now, safe=False, us=None, clock=None, note=None):
        self.buttons = Buttons.from_board(board, NAMES)
        self.store = store
        self.wdt = None
        if getattr(board, 'WATCHDOG_MS', 0):
            from machine import WDT
            self.wdt = WDT(timeout=board.WATCHDOG_MS)
            _feeder().stop()        # the loop feeds it from now on (a USB session had it)
        if safe:
            self.ctl = Controller(now, store=store, message='safe mode', sticky=True)
        else:
            # The store falls back to the other slot when check() finds the newest unusable.
            saved = store.load(check)
            # note: a message of the start-up's own (`update undone`), kept until a press
            msg = store.message
            self.ctl = Controller(now, store=store, saved=saved, message=msg or note,
                                  sticky=msg is None and note is not None)
        self.input = Input(self.ctl)
        self._parts(board, us)
        self.wake = Wake()      # a press while the loop sleeps or skips its scans is latched
        self.wake.arm(self.buttons)
        # The first scan, at power-up: a key already down (held through the cut) is ignored
        # until it is released.
        self.input.scan(self.buttons.scan(), now)
        self.displays = board.displays()
        self._drawn = -1
        self._phase = 0         # phases since the last change of the view (the origin)
        self._origin = now
        self._due = now         # when the next phase starts
        self._next = now        # when a quiet pass next has work (see _plan)
        self._level = -1
        self._on = True
        self._lamp = self._lamp_test()
        # The second of the lamp test counts from the moment the displays lit, read from the
        # clock when one is given: loading the saved game and building the drivers took time
        # since `now` was read.
        lit = now if clock is None else clock()
        self._lamp_end = ticks.add(lit, LAMP_MS)
        self.draw(lit)

    @property
    def idle(self):
        """True when no key is down and no gesture is in progress (nothing can happen until
        the next press but the controller's timers)."""
        return self.input.idle

    def _lamp_test(self):
        lit = False
        for d in self.displays:
            lamp = getattr(d, 'lamp', None)   # displays without one skip the test
            if lamp is not None:
                lamp()
                lit = True
        return lit

    def step(self, now):
        """One pass of the loop at time `now` (masked ticks). Allocates nothing unless a
        gesture changes the game or the view. With no key down the buttons are read only when
        an IRQ latched a press (or where the port has no pin IRQ); then, with the view drawn
        and nothing due (a timer, a phase, the watchdog), the pass ends at once. The remotes'
        keys join the buttons' bits, and the buzzer and the light sensor are served, on every
        pass, quiet or not (a remote's bits() returns at once while its ring is empty)."""
        inp = self.input
        rb = self._remote_bits(now) if self.remotes else 0
        self._sound_light(now)
        if rb or inp.busy or not self.wake.armed:
            self.wake.bits = 0
            inp.scan(self.buttons.scan() | rb, now)
        elif self.wake.bits:
            inp.scan(self.wake.take() | self.buttons.scan(), now)
        elif self.ctl.version == self._drawn and (now - self._next + _HALF) & _MASK < _HALF:
            return      # (ticks.diff(now, self._next) < 0, without the call)
        # Whatever must be looked at every pass, even a quiet one, goes above this line.
        self.ctl.tick(now)
        self.draw(now)
        if self.wdt is not None:
            self.wdt.feed()
        self._plan(now)

    def _plan(self, now):
        # The next moment a quiet pass has work: the controller's next timer, the displays'
        # next phase, the watchdog's next feed, whichever comes first.
        nxt = self._due
        due = self.ctl.due
        if due is not None and ticks.diff(due, nxt) < 0:
            nxt = due
        if self.wdt is not None and ticks.diff(nxt, now) > FEED_MS:
            nxt = ticks.add(now, FEED_MS)
        self._next = nxt

    def pause(self, now):
        """How long the loop may wait before its next pass: LOOP_MS, or while idle (and the
        buttons' IRQs armed) up to IDLE_MS, never past the next moment a pass has work."""
        if self.input.busy or not self.wake.armed or self._lamp or self.remotes or (
                self.sound is not None and self.sound.playing):
            # the remotes' rings are drained, and a tune's notes turned, every LOOP_MS
            return LOOP_MS
        left = ticks.diff(self._next, now)
        if left >= IDLE_MS:
            return IDLE_MS
        return left if left > LOOP_MS else LOOP_MS

    # --- the optional parts (DESIGN section 11): remotes, buzzer, light sensor ---------------

    def _parts(self, board, us):
        # us: the microsecond clock the receivers' IRQ reads (None: time.ticks_us).
        ctl = self.ctl
        self.remotes = ()
        self.sound = self.light = None
        ctl.buttons = tuple([n for n in NAMES if n in board.BUTTONS])
        parts = []
        if getattr(board, 'BUZZER', None) is not None:
            from machine import PWM, Pin
            from .sound import from_board
            self.sound = from_board(board, PWM, Pin, ctl.settings.get('sound') != 'off')
            parts.append('sound')
        if getattr(board, 'IR', None) or getattr(board, 'RF', None):
            import sys
            from machine import Pin
            from . import remote
            from .remote.board import receivers
            self.remotes = receivers(board, Pin, us, ctl.settings.get('remote'))
            # what builds the receivers is not kept: only the decoders and their state stay
            del sys.modules[remote.__name__ + '.board'], remote.board
            parts.append('learn')
        if getattr(board, 'LIGHT', None) is not None:
            from machine import ADC, Pin
            from .light import from_board as light_from_board
            self.light = light_from_board(board, ADC, Pin)
            ctl.has_light = True
        ctl.cues = self.sound
        ctl.remotes = self.remotes
        ctl.parts = tuple(parts)

    def _remote_bits(self, now):
        # The keys the remotes hold down, in the buttons' bits: one input path for both.
        rs = self.remotes
        b = 0
        i = len(rs)
        while i:
            i -= 1
            b |= rs[i].bits(now)
        return b

    def _sound_light(self, now):
        if self.sound is not None:
            self.sound.update(now)
        if self.light is not None:
            self.ctl.room = self.light.update(now)   # used while brightness is 'auto'

    def draw(self, now):
        # Kept tiny: MicroPython takes a function's frame from the heap when it needs more
        # than a few words, and this runs every pass. A change of the view restarts the
        # phases (the phase origin is the moment of the change): what changed is on the chip
        # in this pass, a blink "on", a marquee at its start, the first page. Between changes
        # the only work is one comparison with the next phase's moment.
        if self._lamp:
            if ticks.diff(now, self._lamp_end) < 0:
                return              # the lamp test: the displays stay lit, the loop runs on
            self._lamp = False
            self._drawn = -1
        if self.ctl.version != self._drawn:
            self._origin = now
            self._phase = 0
        elif ticks.diff(now, self._due) < 0:
            return
        else:
            self._next_phase(now)
        self._due = ticks.add(self._origin, (self._phase + 1) * PHASE_MS)
        self._redraw(self._phase)

    def _next_phase(self, now):
        p = ticks.diff(now, self._origin) // PHASE_MS
        if p < 0 or p >= PHASE_WRAP:
            # a clock that went back, or hours without a change: a new origin, in step with
            # every cycle of the layouts (PHASE_WRAP is a multiple of each)
            self._origin = now if p < 0 else ticks.add(self._origin, PHASE_WRAP * PHASE_MS)
            p = 0 if p < 0 else p - PHASE_WRAP
        self._phase = p

    # The redraw is split into small functions and loops by index: a `for` over a list needs
    # four stack slots for its iterator, which would push these frames onto the heap.
    def _redraw(self, phase):
        ctl = self.ctl
        self._drawn = ctl.version
        if ctl.brightness != self._level:
            self._set_level(ctl.brightness)
        if ctl.asleep == self._on:
            self._set_power(not ctl.asleep)
        self._show(ctl.view, phase)

    def _show(self, view, phase):
        # The refresh runs with the heap locked: a function frame MicroPython would take from
        # the heap goes on the C stack instead, and any real allocation in a layout or driver
        # raises MemoryError at once (the tests run every layout this way) instead of
        # fragmenting the heap of a board that runs for months.
        # The unlock is in a `finally`: a KeyboardInterrupt (mpremote's Ctrl-C) is no
        # Exception, and a heap left locked is a fatal error on the chip.
        heap_lock()
        try:
            err = self._show_all(view, phase)
        finally:
            heap_unlock()
        if err is not None:
            raise err

    def _show_all(self, view, phase):
        # The try lives here, inside the locked region, where a large frame costs no heap.
        ds = self.displays
        i = len(ds)
        try:
            while i:
                i -= 1
                ds[i].show(view, phase)
        except Exception as e:
            return e
        return None

    def _set_level(self, level):
        self._level = level
        for d in self.displays:
            d.brightness(level)

    def _set_power(self, on):
        self._on = on
        for d in self.displays:
            d.power(on)

current = None  # the App that runs (over USB: `import scoreboard.app as a; a.current.ctl.view`)


def _running(app):
    global current
    current = app


def _feeder():
    # wdtfeed.py lives beside main.py, outside the app folders (a stand-in where it is not).
    try:
        import wdtfeed
    except ImportError:
        class wdtfeed:  # type: ignore[no-redef]
            @staticmethod
            def stop():
                pass

            @staticmethod
            def start(wdt):
                pass
    return wdtfeed


def usb_session(board):
    """A KeyboardInterrupt (mpremote's Ctrl-C) ended the loop: a person has the board over
    USB. The watchdog, which cannot be stopped, is fed for a bounded time meanwhile."""
    ms = getattr(board, 'WATCHDOG_MS', 0)
    if ms:
        from machine import WDT
        _feeder().start(WDT(timeout=ms))


def main(board=None, root='', clock=None, sleep_ms=None, lightsleep=None):
    """Run the scoreboard for ever (host.py: a fault restarts the loop and is logged; three
    within a minute start the safe screen, which still lets the players begin a new game).
    While idle the loop waits App.pause() between passes: with sleep_ms, or with
    machine.lightsleep (woken early by the buttons' IRQs) where the board file says
    LIGHTSLEEP = True (not on a board whose USB or network must stay up while it waits). A
    Wi-Fi board (NETWORK = 'wlan') runs the same loop as an asyncio task beside its network
    services (net/run.py, DESIGN section 10)."""
    from .host import Host
    from .store import Store
    try:
        import micropython
        # an exception in an IRQ handler (the buttons', the remotes') then shows its traceback
        micropython.alloc_emergency_exception_buf(100)
    except (ImportError, AttributeError):
        pass
    if board is None:
        import board
    if getattr(board, 'NETWORK', None) == 'wlan':
        from .net import run
        from .trial import begin
        trial = begin(root, (clock or ticks.reader())())
        try:
            return run.main(board, root, clock, make=App, trial=trial)
        except KeyboardInterrupt:
            usb_session(board)
            raise
    if lightsleep is None and getattr(board, 'LIGHTSLEEP', False):
        import machine
        lightsleep = getattr(machine, 'lightsleep', None)
    host = Host(board, Store(root), root, clock, make=App)
    from .trial import begin
    host.trial = begin(root, host.clock())
    host.on_boot.append(_running)
    try:
        host.run(sleep_ms, lightsleep)
    except KeyboardInterrupt:
        usb_session(board)
        raise
