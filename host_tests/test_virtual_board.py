# runs-on: micropython
# The one virtual board (tools/virtual/virtual_board.py): its chips come from the board file's
# wiring() and the datasheets, never from the driver under test, so a driver with a wrong digit
# order or zig-zag shows the wrong picture and these tests catch it; the chips are built once a
# boot; `draw` shows exactly the segments each module has.
import json
import os

import app_probe  # noqa: F401  (paths: boards, firmware, tools, tools/virtual, fixtures)
import machine
from virtual_board import VirtualBoard
import draw_segments

BOARDS = app_probe.ROOT + '/boards'

# Seven-segment shapes written out here (bit0 = a .. bit6 = g), not taken from the firmware.
FONT = {0x3F: '0', 0x06: '1', 0x5B: '2', 0x4F: '3', 0x66: '4', 0x6D: '5', 0x7D: '6',
        0x07: '7', 0x7F: '8', 0x6F: '9', 0x00: ' '}


def text(chip):
    return ''.join([FONT.get(b & 0x7F, '?') for b in chip.digits()])


def board_names():
    names = [n[:-3] for n in os.listdir(BOARDS) if n.endswith('.py')]
    names.sort()
    return names


def fresh(name):
    import sys
    if name in sys.modules:
        del sys.modules[name]
    return __import__(name)


def test_every_board_describes_its_wiring_and_its_chips_hear_the_firmware():
    for name in board_names():
        board = fresh(name)
        assert hasattr(board, 'wiring'), name + ': no wiring() for the virtual board'
        sim = app_probe.sim_for(name)
        assert sim.chips and len(sim.chips) == len(sim.app.displays), name
        assert sim.vboard.deaf() == [], name
        for group in sim.chips:
            assert group, name
            for chip in group:
                # on, and showing something: the wiring's pins are the ones the drivers use
                assert chip.on, (name, chip)
                if chip.kind == 'segments':
                    assert any(chip.digits()), (name, text(chip))


def test_chips_are_built_once_a_boot_from_the_wiring_not_the_displays():
    board = fresh('pico_tm1637')
    calls = []
    real = board.displays

    def counting():
        calls.append(1)
        return real()
    board.displays = counting
    try:
        sim = app_probe.new_sim('pico_tm1637')
        assert len(calls) == 1           # the app's own: the virtual board never builds them
        app_probe.play(sim, ['power-cut'])
        assert len(calls) == 2
    finally:
        board.displays = real


def _red_twelve(board):
    sim = app_probe.new_sim(board)
    app_probe.play(sim, ['tap OK'] + ['tap RED'] * 12 + ['tap OK', 'wait 2500'])
    assert sim.app.ctl.view['red'] == 12
    return sim


def test_the_red_module_reads_its_score():
    sim = _red_twelve('pico_tm1637')
    red = sim.chips[0][0]
    assert '12' in text(red), text(red)


def test_a_driver_with_a_swapped_digit_order_fails():
    sim = _red_twelve('bug_tm1637_order')      # the same board, its driver's order wrong
    red = sim.chips[0][0]
    assert '12' not in text(red), text(red)     # the check above would fail on this driver
    assert '21' in text(red), text(red)


def test_a_driver_with_a_swapped_digit_order_fails_on_the_bench():
    from machine import Pin
    from scoreboard.drivers.tm1637 import TM1637

    class Swapped(TM1637):
        def __init__(self, clk, dio):
            TM1637.__init__(self, clk, dio, 4, (1, 0, 2, 3))

    for cls, want in ((TM1637, '1234'), (Swapped, '2134')):
        machine.reset_all()
        vb = VirtualBoard(fresh('pico_tm1637'))
        drv = cls(Pin(2), Pin(3))
        for i in range(4):
            drv.buf[i] = (0x06, 0x5B, 0x4F, 0x66)[i]
        drv.show()
        assert text(vb.groups[0][0]) == want, (cls, text(vb.groups[0][0]))


def _mark(fb, w, h):
    # an asymmetric pattern: an L in the top-left corner and a dot near the bottom right
    pts = [(0, 0), (0, 1), (0, 2), (1, 2), (w - 3, h - 2)]
    for x, y in pts:
        fb.pixel(x, y, 1)
    return pts


def test_a_panel_driver_with_a_wrong_zigzag_fails_on_the_bench():
    from machine import Pin
    from scoreboard.drivers.ws2812_panel import WS2812Panel
    for serpentine, good in ((True, True), (False, False)):
        machine.reset_all()
        vb = VirtualBoard(fresh('esp32_ws2812'))    # the panel as built: zig-zag
        chip = vb.groups[0][0]
        drv = WS2812Panel(Pin(13), 32, 8, True, serpentine, 'top-left')
        drv.fill(0)
        want = _mark(drv, 32, 8)
        drv.show()
        lit = [(x, y) for y in range(8) for x in range(32) if chip.pixel(x, y) != (0, 0, 0)]
        assert (sorted(lit) == sorted(want)) == good, (serpentine, lit)


def _lit(sim):
    chip = sim.chips[0][0]
    return [(x, y) for y in range(chip.height) for x in range(chip.width)
            if chip.pixel(x, y) != (0, 0, 0)]


def test_a_panel_driver_with_a_wrong_zigzag_shows_another_picture():
    good = _lit(_red_twelve('esp32_ws2812'))
    bad = _lit(_red_twelve('bug_ws2812_zigzag'))
    assert good and len(bad) == len(good)
    assert bad != good


def test_the_clock_module_is_drawn_with_its_colon_and_no_points():
    sim = app_probe.sim_for('pico_tm1637')
    red = sim.chips[0][0]
    assert red.dp == () and red.colon == 1
    # every segment line high: the module lights its 28 segments and the colon, no point
    for i in range(6):
        red.regs[i] = 0xFF
    segs, colon, lit = draw_segments.shown(red)
    assert segs == [0x7F] * 4 and colon == 1 and lit
    lines = draw_segments.term(red, colour=False)
    assert '.' not in ''.join(lines), lines
    assert lines[1].count(':') == 1 and lines[1].index(':') == 7, lines
    red.regs[1] = 0x7F
    assert ':' not in draw_segments.term(red, colour=False)[1]


def test_modules_with_points_draw_them():
    sim = app_probe.sim_for('pico_max7219_digits')
    chip = sim.chips[0][0]
    assert getattr(chip, 'colon', None) is None
    segs, colon, _ = draw_segments.shown(chip)
    assert segs == chip.digits() and colon is None


def test_draw_prints_no_colour_codes_unless_asked():
    out = app_probe.Out()
    sim = app_probe.new_sim('pico_tm1637', out=out)
    app_probe.play(sim, ['tap OK', 'tap RED', 'draw'])
    plain = ''.join(out.lines)
    assert plain.endswith('.\n') and '\x1b' not in plain and ':' in plain
    out.lines = []
    sim.colour = True
    app_probe.play(sim, ['draw'])
    assert '\x1b[' in ''.join(out.lines)


def test_the_watchdog_is_one_per_board():
    import gc
    machine.reset_all()
    first = machine.WDT(timeout=8000)
    first.feed()
    gc.collect()
    before = gc.mem_alloc() if hasattr(gc, 'mem_alloc') else 0
    for _ in range(3000):                   # the firmware's loop restarted 3,000 times
        w = machine.WDT(timeout=8000)
        w.feed()
    gc.collect()
    after = gc.mem_alloc() if hasattr(gc, 'mem_alloc') else 0
    assert w is first and machine.watchdog() is first
    assert first.starts == 3001 and first.feeds == 3001 and first.timeout == 8000
    assert after - before < 1024, after - before
    machine.reset_all()                     # a power cut: a new, unstarted watchdog
    assert machine.watchdog() is not first and machine.watchdog().timeout is None


def test_app_restarts_hold_one_watchdog():
    sim = app_probe.new_sim('bare')
    from scoreboard.app import App
    from scoreboard.store import Store
    for _ in range(50):
        App(sim.board, Store(sim.flash), sim.now)
    assert machine.watchdog().starts == 51 and sim.app.wdt is machine.watchdog()


def test_long_waits_jump_and_the_timers_still_fire():
    import time
    out = app_probe.Out()
    sim = app_probe.new_sim('pico_tm1637', out=out)
    t0 = time.time()
    app_probe.play(sim, ['tap OK', 'tap RED', 'wait 1000000000000', 'state'])
    assert time.time() - t0 < 30
    assert sim.now > 1000000000000
    assert '"screen": "sleep"' in out.lines[-1], out.lines[-1]
    assert not sim.chips[0][0].on                     # the display went off
    app_probe.play(sim, ['tap BLUE', 'state'])         # the first press only wakes
    assert json.loads(out.lines[-1])['pending'] == {'red': 1, 'blue': 0}, out.lines[-1]
    red = sim.chips[0][0]
    assert red.on
    # after the jump the firmware's timers run as before: dim after 10 min idle, not sooner
    bright = red.level
    app_probe.play(sim, ['wait 590000'])
    assert red.on and red.level == bright
    app_probe.play(sim, ['wait 20000'])
    assert red.on and red.level < bright


def test_a_long_wait_with_a_key_down_is_refused():
    import sim_engine
    sim = app_probe.new_sim('bare')
    try:
        app_probe.play(sim, ['down OK', 'wait 1000000000000'])
        raise AssertionError('not refused')
    except sim_engine.TooLong:
        pass


def test_a_part_joins_the_machine_stand_in():
    # the way the PWM/ADC/IRQ stand-ins plug in: a module of their own, named in PARTS
    import sys
    class Part:
        pass
    mod = Part()

    class Buzzer:
        def __init__(self, pin):
            self.line = machine.line(pin)
            self.tones = []

    forgotten = []
    mod.NAMES = ('Buzzer',)
    mod.Buzzer = Buzzer
    sys.modules['machine_test_part'] = mod
    try:
        machine._join(('machine_test_part', 'machine_no_such_part'))
        assert machine.Buzzer is Buzzer
        machine.resets.append(lambda: forgotten.append(1))
        machine.reset_all()
        assert forgotten == [1]
    finally:
        del sys.modules['machine_test_part']
        machine.resets.pop()
        del machine.Buzzer


def test_commands_are_one_table():
    import sim_engine
    for name in sim_engine.COMMANDS:
        kinds, method = sim_engine.COMMANDS[name]
        assert method is None or callable(getattr(sim_engine.Sim, method)), name
        for k in kinds.replace('?', ''):     # kinds after a '?' are optional (ir CODE [MS])
            assert k in sim_engine.ARGS, (name, k)


def test_a_wiring_that_names_other_pins_is_found():
    sim = app_probe.new_sim('bug_wiring_pins')
    deaf = sim.vboard.deaf()
    assert deaf == [sim.chips[0][1]], deaf          # the blue module, on pins nobody drives
    assert not deaf[0].on and sim.chips[0][0].on


def test_a_pwm_on_the_595s_output_enable_dims_it():
    # the contract for a PWM stand-in: it sets its line's duty (duty_u16) and calls changed()
    sim = app_probe.sim_for('pico_595')
    chip = sim.chips[0][0]
    # machine.PWM is the stand-in of tools/virtual/pwm.py now: the board's /OE is on it and
    # the firmware's default brightness (6 of 8) reaches the chip as a duty, not full on
    from scoreboard.drivers.sr595 import DUTY
    level = sim.app.ctl.brightness
    assert 0 < level < 7 and chip.on and chip.level == DUTY[level] * 7 // 65535, chip.level
    ln = machine.line(20)
    for duty, on, level in ((0, True, 7), (65535 - 8192, True, 0), (65535, False, 0)):
        ln.duty = duty
        ln.changed()
        assert (chip.on, chip.level) == (on, level), duty
    ln.duty = None      # no PWM: the plain level of the pin (/OE low: on, at full)
    assert chip.level == 7 and chip.on == (ln.level() == 0)
