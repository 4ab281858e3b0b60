# The loop: buttons -> gestures -> controller -> store -> render -> drivers, one pass every
# LOOP_MS. The board module (board.py on the device, boards/<name>.py on the host) brings the
# pins and displays; the clock, the store and the log come in from main() or from the simulator,
# so the same App runs on a Pico, in the simulator and in the tests.
from .drivers.buttons import Buttons
from .ui import ticks
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
PHASE_MS = 250          # blink and scroll step of the displays
LAMP_MS = 1000          # the lamp test at power-up: every segment and pixel lit this long
CRASH_WINDOW_MS = 60000
CRASHES_FOR_SAFE = 3    # this many faults within the window: the safe screen
RESTART_PAUSE_MS = 100  # after a fault, before the loop starts again


class App:
    def __init__(self, board, store, now, safe=False, us=None):
        self.buttons = Buttons.from_board(board, NAMES)
        self.store = store
        self.wdt = None
        if getattr(board, 'WATCHDOG_MS', 0):
            from machine import WDT
            self.wdt = WDT(timeout=board.WATCHDOG_MS)
        if safe:
            self.ctl = Controller(now, store=store, message='safe mode', sticky=True)
        else:
            # The store falls back to the other slot when check() finds the newest unusable.
            saved = store.load(check)
            self.ctl = Controller(now, store=store, saved=saved, message=store.message)
        self.input = Input(self.ctl)
        self._parts(board, us)
        # The first scan, at power-up: a key already down (held through the cut) is ignored
        # until it is released.
        self.input.scan(self.buttons.scan(), now)
        self.displays = board.displays()
        self._drawn = -1
        self._phase = -1
        self._level = -1
        self._on = True
        self._lamp = self._lamp_test()
        self._lamp_end = ticks.add(now, LAMP_MS)
        self.draw(now)

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
        gesture changes the game or the view."""
        self.input.scan(self.buttons.scan() | self._remote_bits(now), now)
        self.ctl.tick(now)
        self._sound_light(now)
        self.draw(now)
        if self.wdt is not None:
            self.wdt.feed()

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
            from machine import Pin
            from .remote.board import receivers
            self.remotes = receivers(board, Pin, us, ctl.settings.get('remote'))
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
        # than a few words, and this runs every pass.
        if self._lamp:
            if ticks.diff(now, self._lamp_end) < 0:
                return              # the lamp test: the displays stay lit, the loop runs on
            self._lamp = False
            self._drawn = -1
        phase = now // PHASE_MS
        if self.ctl.version != self._drawn or phase != self._phase:
            self._redraw(phase)

    # The redraw is split into small functions and loops by index: a `for` over a list needs
    # four stack slots for its iterator, which would push these frames onto the heap.
    def _redraw(self, phase):
        ctl = self.ctl
        self._drawn = ctl.version
        self._phase = phase
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
        heap_lock()
        err = self._show_all(view, phase)
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

def main(board=None, root='', clock=None, sleep_ms=None):
    """Run the scoreboard for ever. A fault restarts the loop and is logged; three within a
    minute start the safe screen, which still lets the players begin a new game."""
    import time
    from .store import Store
    if board is None:
        import board
    if getattr(board, 'NETWORK', None) == 'wlan':
        from .net import run        # a Wi-Fi board: the same loop as an asyncio task (section 10)
        return run.main(board, root, clock)
    if clock is None:
        def clock():
            return ticks.mask(time.ticks_ms())
    if sleep_ms is None:
        sleep_ms = time.sleep_ms
    store = Store(root)
    crashes = []
    safe = False
    while True:
        try:
            app = App(board, store, clock(), safe=safe)
            while True:
                app.step(clock())
                sleep_ms(LOOP_MS)
        except KeyboardInterrupt:
            raise
        except Exception as e:
            now = clock()
            from .faultlog import FaultLog, exc_text   # loaded only when something went wrong
            FaultLog(root).write('%d %s' % (now, exc_text(e)))
            crashes = [t for t in crashes if ticks.diff(now, t) < CRASH_WINDOW_MS]
            crashes.append(now)
            if len(crashes) >= CRASHES_FOR_SAFE:
                safe = True
                crashes = []
            # Never a hot loop: a fault that comes back at once (a broken display, say) still
            # lets the board breathe, and the watchdog reset it if nothing else helps.
            sleep_ms(RESTART_PAUSE_MS)
