# runs-on: micropython
# The top-level handler in scoreboard.app.main: a fault restarts the loop and is logged to a
# bounded file; a fault that comes back three times within a minute (here a display that fails
# on the saved game, so every restart meets it again) ends in the safe screen, from which the
# players can still start a new game.
from app_probe import flash_dir

import machine  # noqa: E402  (the virtual board's stand-in)
from scoreboard import app  # noqa: E402
from scoreboard.store import Store  # noqa: E402


class Stop(BaseException):
    pass


class Display:
    # Draws like a real layout: nothing allocated while the app holds the heap locked.
    def __init__(self):
        self.drivers = ()
        self.last = None
        self.fault = RuntimeError('render fault on red 3')

    def show(self, view, phase):
        if view['red'] == 3:
            raise self.fault
        self.last = view['screen']

    def brightness(self, level):
        pass

    def power(self, on):
        pass


class Board:
    BUTTONS = {'RED': 40, 'BLUE': 41, 'OK': 42}
    WATCHDOG_MS = 0

    def __init__(self):
        self.disp = Display()

    def displays(self):
        return [self.disp]


def run_main(board, folder, presses, until):
    """app.main on virtual time; `presses` is [(at_ms, button, down)]; stops at `until`."""
    machine.reset_all()
    t = [0]
    todo = list(presses)

    def clock():
        return t[0]

    def sleep_ms(ms):
        t[0] += ms
        while todo and todo[0][0] <= t[0]:
            at, b, down = todo.pop(0)
            machine.drive(board.BUTTONS[b], 0 if down else None)
        if t[0] >= until:
            raise Stop()

    try:
        app.main(board=board, root=folder, clock=clock, sleep_ms=sleep_ms)
    except Stop:
        pass


def tap(at, b):
    return [(at, b, True), (at + 80, b, False)]


def test_repeated_fault_ends_in_the_safe_screen_and_a_new_game_is_possible():
    folder = flash_dir('faults-safe')
    # Start a game and score red 3: the display fails on it, the loop restarts, meets the
    # saved game again, fails again; the third fault within the minute gives the safe screen.
    board = Board()
    presses = tap(100, 'OK') + tap(600, 'RED') + tap(1000, 'RED') + tap(1400, 'RED') + \
        tap(1800, 'OK')
    run_main(board, folder, presses, 4000)
    assert board.disp.last == 'setup', board.disp.last
    from scoreboard.faultlog import FaultLog
    log = FaultLog(folder).read()
    assert log.count('RuntimeError: render fault on red 3') == 3, log
    # Booting again meets the same saved game, so the safe screen comes back within a fraction
    # of a second; it stays until a press, and OK then starts a new game that is saved.
    board2 = Board()
    run_main(board2, folder, tap(1000, 'OK') + tap(1400, 'BLUE') + tap(1800, 'OK'), 3000)
    assert board2.disp.last == 'play'
    st = Store(folder).load()
    from scoreboard.core import load_game
    assert load_game(st['game']).to_dict()['log'] == [['f', 0, 1]], st['game']


def test_fault_log_stays_bounded():
    folder = flash_dir('faults-log')
    from scoreboard.faultlog import FaultLog
    log = FaultLog(folder)
    for i in range(300):
        log.write('fault number %d with some text to fill the file up quickly' % i)
    import os
    total = 0
    for n in os.listdir(folder):
        total += os.stat(folder + '/' + n)[6]
    assert total <= 4096, total
    assert 'fault number 299' in log.read()
