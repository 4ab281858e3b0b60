# runs-on: micropython
# Issue 17: a change of the view restarts the displays' phases (a blink restarts "on", so a new
# pending point is on the chip in the pass that made it, at every phase), a quiet pass reads
# no pin and does nothing, and a press that begins and ends while the loop waits between idle
# passes is latched by the buttons' pin IRQs and counts (tested on the virtual machine's pins).
from array import array

import app_probe
import machine
from scoreboard import app as appmod
from scoreboard.app import App
from scoreboard.store import Store

MASK = 0x1FFFFFFF


class Display(app_probe.QuietDisplay):
    # what each show() got: red's pending points and the phase (preallocated: the refresh
    # runs with the heap locked)
    def __init__(self):
        self.pend = array('i', [0] * 400)
        self.ph = array('i', [0] * 400)
        self.n = 0

    def show(self, view, phase):
        if self.n < 400:
            self.pend[self.n] = view['pending']['red']
            self.ph[self.n] = phase
            self.n += 1

    def shows(self):
        out = [(self.pend[i], self.ph[i]) for i in range(self.n)]
        self.n = 0
        return out


def _steps(app, now, ms):
    end = now + ms
    while now < end:
        now += 5
        app.step(now & MASK)
    return now


def _tap(app, pin, now, ms=80):
    machine.drive(pin, 0)
    now = _steps(app, now, ms)
    machine.drive(pin, None)
    return _steps(app, now, 5)


def test_a_change_restarts_the_phases_at_every_moment():
    for offset in range(0, 1000, 35):
        machine.reset_all()
        d = Display()
        app = App(app_probe.StubBoard([d]), app_probe.NoStore(), 0)
        now = _steps(app, 0, 1100)                      # the lamp test over
        now = _tap(app, 42, now)                        # OK: a game starts
        now = _steps(app, now, 300 + offset)
        d.shows()
        now = _tap(app, 40, now)                        # RED: a point pending
        got = d.shows()
        shown = [p for p in got if p[0] == 1]
        assert shown and shown[0][1] == 0, (offset, got)   # drawn at once, phase 0
        # then the phases count on from the change, one every PHASE_MS
        now = _steps(app, now, 4 * appmod.PHASE_MS)
        got = d.shows()
        assert [p[1] for p in got] == [1, 2, 3, 4], (offset, got)


def _picture(sim):
    return [c.digits() if c.kind == 'segments' else c.rows() for g in sim.chips for c in g]


def test_a_new_pending_point_is_on_the_chip_in_one_pass_at_every_phase():
    # pico_max7219_digits: '12=2' on 8 digits, the '=2' blinking; before the rule, a tap
    # released in the blink's off half showed nothing for up to 440 ms
    sim = app_probe.new_sim('pico_max7219_digits', 'wake-blink')
    app = sim.app
    pin = sim.board.BUTTONS['RED']
    now = _steps(app, 0, 1100)
    now = _tap(app, sim.board.BUTTONS['OK'], now)
    for k in range(24):
        now = _steps(app, now, 300 + 45 * k)             # across the blink's second
        before = _picture(sim)
        machine.drive(pin, 0)
        now = _steps(app, now, 80)
        machine.drive(pin, None)
        now = _steps(app, now, 5)                        # the first pass after the release
        assert app.ctl.view['pending']['red'] == (k % 4) + 1, k
        assert _picture(sim) != before, k
        if k % 4 == 3:      # clear the points (OK long), and let the 'clear' message go
            machine.drive(sim.board.BUTTONS['OK'], 0)
            now = _steps(app, now, 1000)
            machine.drive(sim.board.BUTTONS['OK'], None)
            now = _steps(app, now, 2500)
            assert app.ctl.view['message'] is None and not app.ctl.view['pending']['red']


class CountingButtons:
    def __init__(self, buttons):
        self.buttons = buttons
        self.scans = 0

    def scan(self):
        self.scans += 1
        return self.buttons.scan()


def test_a_quiet_pass_reads_no_pin_until_a_press_is_latched():
    machine.reset_all()
    app = App(app_probe.StubBoard([Display()]), app_probe.NoStore(), 0)
    assert app.wake.armed
    now = _steps(app, 0, 1500)
    app.buttons = CountingButtons(app.buttons)
    now = _steps(app, now, 2000)
    assert app.buttons.scans == 0 and app.input.idle
    machine.drive(42, 0)                # the IRQ latches OK: the next pass scans
    machine.drive(42, None)
    assert app.wake.bits
    now = _steps(app, now, 5)
    assert app.buttons.scans == 1 and not app.input.idle and app.wake.bits == 0
    now = _steps(app, now, 100)
    assert app.ctl.view['screen'] == 'play'       # the short press was a tap: a game began
    assert app.pause(now) > appmod.LOOP_MS        # idle again: the loop may wait longer


class Stop(BaseException):
    pass


def test_a_30_ms_press_during_an_idle_wait_is_seen():
    # main() on the bare board's virtual pins, its waits on a virtual clock: the OK press
    # begins 5 ms into a wait and ends 30 ms later, before the wait is over; no pass of the
    # loop ever sees the key down, the IRQ latch does. Then the game it starts is on flash.
    import bare
    root = app_probe.flash_dir('wake-main')
    clock = [0]
    waits = []
    pressed = []

    def now():
        return clock[0] & MASK

    def sleep_ms(ms):
        waits.append(ms)
        if not pressed and clock[0] > 1500 and ms >= 40:
            pressed.append(ms)
            clock[0] += 5
            machine.drive(bare.BUTTONS['OK'], 0)
            clock[0] += 30
            machine.drive(bare.BUTTONS['OK'], None)
            clock[0] += ms - 35
        else:
            clock[0] += ms
        if clock[0] > 4000:
            raise Stop()

    machine.reset_all()
    try:
        appmod.main(board=bare, root=root, clock=now, sleep_ms=sleep_ms)
    except Stop:
        pass
    assert pressed and pressed[0] >= 40, waits[:40]
    assert max(waits) == appmod.IDLE_MS
    state = Store(root).load()
    assert state is not None and state['screen'] == 'play', state
