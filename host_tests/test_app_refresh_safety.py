# runs-on: micropython
# The refresh never leaves the heap locked, and the lamp test lasts its second (DESIGN
# sections 4 and 12). App._show locks the heap around the displays' refresh: a
# KeyboardInterrupt (mpremote's Ctrl-C) raised inside a driver's write is no Exception, and a
# heap left locked is a fatal error on the chip. The lamp test counts from the moment the
# displays lit, however long the start-up took before and after it.
import app_probe
import machine
from scoreboard import app as appmod
from scoreboard.app import App

try:
    from micropython import heap_lock, heap_unlock
except ImportError:     # CPython: no heap to lock, the test still checks the interrupt
    heap_lock = heap_unlock = None


def heap_depth():
    """The heap's lock depth now (0: unlocked), without changing it."""
    if heap_lock is None:
        return 0
    heap_lock()
    return heap_unlock()


class Interrupting:
    """A pin that raises KeyboardInterrupt at its n-th write, as Ctrl-C lands on the chip."""

    def __init__(self, pin, n):
        self.pin = pin
        self.n = n
        self.writes = 0

    def __call__(self, v=None):
        return self.value(v)

    def value(self, v=None):
        if v is not None:
            self.writes += 1
            if self.writes == self.n:
                raise KeyboardInterrupt()
        return self.pin.value(v)


def test_ctrl_c_inside_a_drivers_write_leaves_the_heap_unlocked():
    for n in (1, 7, 40):
        sim = app_probe.new_sim('pico_tm1637', tag='refresh-kbd')
        app_probe.play(sim, ['wait 1200', 'tap OK'])
        layout = sim.app.displays[0]
        drv = layout.red_drv
        real = drv.dio
        drv.dio = Interrupting(real, n)
        assert heap_depth() == 0
        caught = False
        try:
            app_probe.play(sim, ['tap RED'])      # the redraw of the pending point writes
        except KeyboardInterrupt:
            caught = True
        assert caught, n
        assert heap_depth() == 0, n
        buf = bytearray(64)                     # the heap takes allocations again
        assert len(buf) == 64
        # and the firmware goes on: the pin works again, the next pass draws
        drv.dio = real
        app_probe.play(sim, ['tap RED', 'state'])
        assert sim.app.ctl.view['pending']['red'] >= 1


def test_an_exception_in_a_refresh_is_raised_with_the_heap_unlocked():
    sim = app_probe.new_sim('pico_tm1637', tag='refresh-exc')
    app_probe.play(sim, ['wait 1200', 'tap OK'])
    drv = sim.app.displays[0].blue_drv

    class Broken:
        def __call__(self, v=None):
            raise OSError(5)

        def value(self, v=None):
            raise OSError(5)

    real = drv.clk
    drv.clk = Broken()
    got = None
    try:
        app_probe.play(sim, ['tap BLUE'])
    except OSError as e:
        got = e
    drv.clk = real
    assert got is not None and heap_depth() == 0


class Clock:
    def __init__(self):
        self.t = 0

    def __call__(self):
        return self.t


class Lamp:
    def __init__(self, clock, log):
        self.clock = clock
        self.log = log
        self.shown = None       # the first show's time (set in the locked refresh: no list)

    def lamp(self):
        self.log.append(('lamp', self.clock()))

    def show(self, view, phase):
        if self.shown is None:
            self.shown = self.clock()

    def brightness(self, level):
        pass

    def power(self, on):
        pass


class SlowBoard:
    """Building the displays takes 450 ms of the clock (driver modules loaded from flash)."""
    BUTTONS = {'RED': 40, 'BLUE': 41, 'OK': 42}

    def __init__(self, clock, log):
        self.clock = clock
        self.log = log

    def displays(self):
        self.clock.t += 450
        return [Lamp(self.clock, self.log)]


class NoStore:
    message = None
    problem = None

    def load(self, check=None):
        self.clock.t += 300          # reading the saved game from flash
        return None

    def save(self, state):
        return True


def test_the_lamp_test_lasts_a_second_from_the_moment_the_displays_light():
    machine.reset_all()
    clock = Clock()
    log = []
    store = NoStore()
    store.clock = clock
    app = App(SlowBoard(clock, log), store, clock(), clock=clock)
    lit = [t for k, t in log if k == 'lamp']
    assert lit == [750], log
    d = app.displays[0]
    while d.shown is None:
        clock.t += appmod.LOOP_MS
        app.step(clock())
        assert clock.t < 5000
    first = d.shown
    # lit for the whole second, and not a pass longer
    assert appmod.LAMP_MS <= first - lit[0] < appmod.LAMP_MS + appmod.LOOP_MS, (lit, first)


def test_the_app_main_asks_for_the_emergency_exception_buffer():
    # app.main() runs for ever: a sleep that raises KeyboardInterrupt ends it after a pass.
    import sys
    calls = []
    fake = None
    real = sys.modules.get('micropython')
    try:
        import micropython as fake
    except ImportError:
        pass
    if fake is None:
        class Fake:
            pass
        fake = Fake()
        sys.modules['micropython'] = fake
    had = getattr(fake, 'alloc_emergency_exception_buf', None)

    def record(n):
        calls.append(n)
        if had is not None:
            had(n)
    try:
        fake.alloc_emergency_exception_buf = record
    except (AttributeError, TypeError):
        # the unix port's micropython module is read-only: the call is checked in the source
        with open(app_probe.ROOT + '/firmware/scoreboard/app.py') as f:
            assert 'alloc_emergency_exception_buf(100)' in f.read()
        return
    try:
        board = __import__('bare')

        def stop(ms):
            raise KeyboardInterrupt()
        machine.reset_all()
        try:
            appmod.main(board, app_probe.flash_dir('emergency'), clock=lambda: 0,
                        sleep_ms=stop, lightsleep=stop)
        except KeyboardInterrupt:
            pass
        assert calls == [100], calls
    finally:
        if had is None:
            try:
                del fake.alloc_emergency_exception_buf
            except AttributeError:
                pass
        else:
            fake.alloc_emergency_exception_buf = had
        if real is None:
            sys.modules.pop('micropython', None)
