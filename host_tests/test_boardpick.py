# runs-on: micropython
# The first-boot board choice (scoreboard.boardpick) on the virtual machine: with no /board.py
# each board file made for the chip lights its displays in turn, and OK pressed while one is lit
# makes that file /board.py; choose(name) does it at once; a board.py already there is kept.
# And on every chip no board drives, as a display pin, a pin another board has a button on.
import os

import virtual_first  # noqa: F401  (tools/virtual first on the path)

import machine  # noqa: E402
from app_probe import ROOT, flash_dir  # noqa: E402
from scoreboard import boardpick  # noqa: E402
from virtual.chip_map import chips_for  # noqa: E402

BOARDS = ROOT + '/boards'


def copy(src, dst):
    with open(src, 'rb') as f:
        data = f.read()
    with open(dst, 'wb') as g:
        g.write(data)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def test_candidates_follow_the_mcu_line():
    rp2 = boardpick.candidates(BOARDS, 'rp2')
    esp = boardpick.candidates(BOARDS, 'esp32')
    assert 'pico_tm1637' in rp2 and 'pico_ws2812_digits' in rp2 and 'esp32_ws2812' not in rp2
    assert 'esp32_ws2812' in esp and 'esp32_ws2812_digits' in esp and 'pico_tm1637' not in esp
    every = boardpick.candidates(BOARDS, 'linux')
    assert sorted(every) == sorted(rp2 + esp)
    assert boardpick.candidates('/no/such/folder', 'rp2') == []


class Clock:
    """Virtual time for pick(): sleep_ms advances it, and presses OK on one candidate."""

    def __init__(self, press_on, t=0):
        self.t = t
        self.press_on = press_on
        self.seen = []
        self.lit = {}

    def clock(self):
        return self.t & 0x1FFFFFFF       # the firmware's tick clock wraps at 2**29

    def sleep(self, ms):
        self.t += ms
        name = boardpick.showing
        if name is not None and (not self.seen or self.seen[-1] != name):
            self.seen.append(name)
        if name == self.press_on:
            machine.drive(boardpick._load(BOARDS + '/' + name + '.py')['BUTTONS']['OK'], 0)


def test_ok_while_a_board_is_lit_chooses_it():
    root = flash_dir('pick')
    target = root + '/board.py'
    want = 'pico_max7219_digits'
    machine.reset_all()
    c = Clock(want, t=0x1FFFFFFF - 250)   # the windows straddle the clock's wrap
    got = boardpick.pick(BOARDS, target, c.clock, c.sleep, window_ms=200, rounds=2,
                         platform='rp2')
    machine.drive(16, None)
    assert got == want
    names = boardpick.candidates(BOARDS, 'rp2')
    assert c.seen == names[:names.index(want) + 1], c.seen
    assert read(target) == read(BOARDS + '/' + want + '.py')
    assert (target.rsplit('/', 1)[1] + '.new') not in os.listdir(root)


def test_nobody_presses_ok_nothing_is_chosen():
    root = flash_dir('pick0')
    target = root + '/board.py'
    machine.reset_all()
    c = Clock(None)
    assert boardpick.pick(BOARDS, target, c.clock, c.sleep, window_ms=100, rounds=1,
                          platform='esp32') is None
    assert c.seen == boardpick.candidates(BOARDS, 'esp32')
    try:
        os.stat(target)
        there = True
    except OSError:
        there = False
    assert not there


def test_a_lit_candidate_really_lights():
    # What the candidate's chips receive while it is offered: something lit on each display.
    for name in boardpick.candidates(BOARDS, 'linux'):
        machine.reset_all()
        ns = boardpick._load(BOARDS + '/' + name + '.py')
        chips = []
        for disp in ns['displays']():
            for drv in disp.drivers:
                chips += chips_for(drv, 'virtual.')
        lit = []

        def sleep(ms, chips=chips, lit=lit):
            lit.append(any(c.on and _lit(c) for c in chips))
            raise StopIteration   # one poll is enough: leave the window
        try:
            boardpick._try(name, BOARDS, lambda: 0, sleep, 100)
        except StopIteration:
            pass
        boardpick.showing = None
        assert lit and lit[0], name


def _lit(chip):
    if chip.kind == 'pixels':
        for y in range(chip.height):
            for x in range(chip.width):
                if chip.pixel(x, y):
                    return True
        return False
    return any(chip.digits())


def test_choose_copies_and_replaces():
    root = flash_dir('choose')
    target = root + '/board.py'
    boardpick.choose('pico_tm1637', BOARDS, target)
    assert read(target) == read(BOARDS + '/pico_tm1637.py')
    boardpick.choose('pico_595', BOARDS, target)
    assert read(target) == read(BOARDS + '/pico_595.py')
    try:
        boardpick.choose('no_such_board', BOARDS, target)
        raised = False
    except ValueError as e:
        raised = 'pico_tm1637' in str(e)
    assert raised
    assert read(target) == read(BOARDS + '/pico_595.py')


def test_ensure_keeps_a_board_py_that_is_there():
    root = flash_dir('keep')
    target = root + '/board.py'
    copy(BOARDS + '/pico_tm1637.py', target)
    boardpick.ensure(BOARDS, target)      # returns at once: no candidate is tried
    assert boardpick.showing is None
    assert read(target) == read(BOARDS + '/pico_tm1637.py')


def test_no_board_drives_another_boards_button_pins():
    for mcu in ('rp2', 'esp32'):
        buttons = set()
        for name in boardpick.candidates(BOARDS, mcu):
            for pin in boardpick._load(BOARDS + '/' + name + '.py')['BUTTONS'].values():
                buttons.add(pin)
        for name in boardpick.candidates(BOARDS, mcu):
            machine.reset_all()
            ns = boardpick._load(BOARDS + '/' + name + '.py')
            ns['displays']()
            for pin in buttons:
                ln = machine.line(pin)
                assert ln.mode in (None, machine.Pin.IN), (mcu, name, pin)
