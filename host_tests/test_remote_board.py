# The remote parts of a board file built on the virtual board: the receiver's pin IRQ on the
# stand-in machine, fed by the virtual receiver with real pulse trains, through to key bits.
# runs-on: micropython
import virtual_first  # noqa: F401  (tools/virtual first on the path)

import machine  # noqa: E402  (tools/virtual/machine.py)
from receiver import Receiver  # noqa: E402
from scoreboard.remote.board import receivers  # noqa: E402
from scoreboard.ui import keys  # noqa: E402

RED = keys.BIT(keys.RED)
OK = keys.BIT(keys.OK)


class Board:
    BUTTONS = {'RED': 10, 'BLUE': 11, 'OK': 12}
    IR = {'pin': 20, 'codes': {0x10EF: 'RED', 0x30CF: 'OK'}}
    RF = {'pin': 21, 'codes': {0xABCDE1: 'RED', 0xABCDE4: 'OK'}}


class Plain:
    BUTTONS = {'RED': 10, 'BLUE': 11, 'OK': 12}


def setup(saved=None):
    machine.reset_all()
    ir = Receiver(20, 'ir')
    rf = Receiver(21, 'rf', clock=ir.clock)  # one microsecond clock, as on a board
    ir.idle_line()
    rf.idle_line()
    parts = receivers(Board, machine.Pin, clock=ir.clock, saved=saved)
    return ir, rf, parts


def run(parts, recv, now, ms):
    seen = []
    end = now + ms
    while now < end:
        now += 5
        for r in recv:
            r.play(now)
        b = 0
        for p in parts:
            b |= p.bits(now)
        if not seen or seen[-1][1] != b:
            seen.append((now, b))
    return now, seen


def test_a_board_without_remotes_builds_none():
    assert receivers(Plain, machine.Pin) == []


def test_ir_and_rf_presses_reach_the_key_bits():
    ir, rf, parts = setup()
    assert [p.kind for p in parts] == ['ir', 'rf']
    now = 1000
    ir.press(0x10EF, now)
    now, seen = run(parts, (ir, rf), now, 600)
    assert [b for _, b in seen] == [0, RED, 0], seen
    rf.press(0xABCDE4, now, hold_ms=1000)
    now, seen = run(parts, (ir, rf), now, 1600)
    assert [b for _, b in seen] == [0, OK, 0], seen
    down = [t for t, b in seen if b == OK][0]
    up = [t for t, b in seen if b == 0 and t > down][0]
    assert 1000 <= up - down <= 1300, (down, up)
    assert parts[0].last_code == 0x10EF and parts[1].last_code == 0xABCDE4


def test_a_held_ir_key_is_held():
    ir, rf, parts = setup()
    end = ir.press(0x30CF, 100, hold_ms=2000)
    now, seen = run(parts, (ir, rf), 100, 3000)
    assert [b for _, b in seen] == [0, OK, 0]
    assert seen[2][0] - seen[1][0] >= 2000 and seen[2][0] > end


def test_saved_codes_replace_the_board_files():
    ir, rf, parts = setup(saved={'ir': {'0x5AA5': 'OK', '4335': 'RED'}})
    assert parts[0].codes == {0x5AA5: 'OK', 4335: 'RED'}
    assert parts[1].codes == {0xABCDE1: 'RED', 0xABCDE4: 'OK'}
    ir.press(0x5AA5, 0)
    now, seen = run(parts, (ir, rf), 0, 600)
    assert [b for _, b in seen] == [0, OK, 0]


def test_a_learn_round_names_the_receiver_kinds_it_bound():
    from scoreboard.remote.learn import Learn
    ir, rf, parts = setup()
    lr = Learn(parts, ('RED', 'BLUE'))
    lr.start()
    now = 0
    for code in (0x2001, 0x2002):
        ir.press(code, now)
        now, _ = run(parts, (ir, rf), now, 600)
        lr.poll()
    assert lr.done and lr.kinds == ('ir',)
    out = lr.result()
    assert out['ir'] == {0x2001: 'RED', 0x2002: 'BLUE'}
    assert out['rf'] == {0xABCDE1: 'RED', 0xABCDE4: 'OK'}     # untouched: the board file's
