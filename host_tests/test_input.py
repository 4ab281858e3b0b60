# runs-on: micropython
# The input layer (ui/input.py): raw scans in, one event(kind, key, now) out, with the time of
# the scan that made it; PRESS and the wake rule, HELD for the hold feedback, and a key held
# through power-up ignored until it is released.
import app_probe  # noqa: F401  (puts firmware/ on the path)
from scoreboard.ui import keys
from scoreboard.ui.gestures import CHORD, HOLD, LONG, REPEAT, TAP
from scoreboard.ui.input import HELD, PRESS, Input

OK = 1 << keys.OK
R = 1 << keys.RED
B = 1 << keys.BLUE


class Target:
    def __init__(self, wake_on=None):
        self.events = []
        self.wake_on = wake_on    # answer True to the PRESS at this time: it only woke

    def event(self, kind, key, now):
        self.events.append((now, kind, key))
        return kind == PRESS and now == self.wake_on


def run(rows, end, first=0, target=None):
    """rows [(t, raw)] hold until the next row; a scan every 5 ms from `first` to `end`."""
    t = target or Target()
    inp = Input(t)
    i = 0
    raw = 0
    now = first
    while now <= end:
        while i < len(rows) and rows[i][0] <= now:
            raw = rows[i][1]
            i += 1
        inp.scan(raw, now)
        now += 5
    return t.events, inp


def test_events_carry_the_time_of_their_scan():
    ev, inp = run([(0, 0), (100, OK), (180, 0)], 400)
    assert ev == [(100, PRESS, keys.OK), (180, TAP, keys.OK)]
    assert inp.idle


def test_held_comes_at_600_ms_then_long_or_hold():
    ev, _ = run([(0, 0), (100, OK), (1100, 0)], 1400)
    assert ev == [(100, PRESS, keys.OK), (700, HELD, keys.OK), (1100, LONG, keys.OK)]
    ev, _ = run([(0, 0), (100, OK), (3500, 0)], 3800)
    assert ev == [(100, PRESS, keys.OK), (700, HELD, keys.OK), (3100, HOLD, keys.OK)]


def test_repeat_keys_have_no_held():
    ev, _ = run([(0, 0), (10, R), (800, 0)], 1000)
    assert [e for e in ev if e[1] == HELD] == []
    assert ev[0] == (10, PRESS, keys.RED) and (610, REPEAT, keys.RED) in ev


def test_chord_through_the_input_layer():
    ev, _ = run([(0, 0), (10, R | B), (1500, 0)], 1800)
    assert [e for e in ev if e[1] == CHORD] == [(1010, CHORD, keys.RED)]


def test_a_key_down_at_the_first_scan_is_ignored_until_released():
    # OK held through power-up: no event at all, its release included (finding 10)
    ev, inp = run([(0, OK), (900, 0)], 1300)
    assert ev == []
    # the next press is a press like any other
    ev, _ = run([(0, OK), (900, 0), (1000, OK), (1080, 0)], 1300)
    assert ev == [(1000, PRESS, keys.OK), (1080, TAP, keys.OK)]


def test_a_press_that_only_wakes_makes_no_gesture():
    t = Target(wake_on=100)
    ev, _ = run([(0, 0), (100, R), (180, 0), (400, R), (480, 0)], 700, target=t)
    assert ev == [(100, PRESS, keys.RED), (400, PRESS, keys.RED), (480, TAP, keys.RED)]


def test_idle_scans_do_nothing():
    ev, inp = run([(0, 0)], 50)
    assert inp.idle and ev == []
    inp.scan(OK, 100)
    assert not inp.idle
    inp.scan(0, 180)
    assert not inp.idle          # the release is settling
    inp.scan(0, 220)
    assert inp.idle
