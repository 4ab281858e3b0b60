# Debounce (sym_eager_pk) as timed tables {time, raw input, expected stable output}, QMK style:
# bounce trains, late scans, time jumps, the clock wrap; and the button scanner feeding it.
# runs-on: micropython
from scoreboard.drivers.buttons import Buttons
from scoreboard.ui import keys
from scoreboard.ui.debounce import Debouncer
from scoreboard.ui.ticks import PERIOD, add, mask

R = 1 << keys.RED
B = 1 << keys.BLUE
OK = 1 << keys.OK


def check(table, base=0, settle_ms=20):
    """table: rows (t, raw, expected stable); t relative to base, fed in order."""
    d = Debouncer(settle_ms)
    for t, raw, want in table:
        got = d.update(raw, add(base, t))
        assert got == want, 'at t=%d raw=%s: stable %s, expected %s' % (t, raw, got, want)
    return d


def scans(start, end, raw, want, step=1):
    """Rows for a stretch where the input and the expected output hold still."""
    rows = []
    t = start
    while t < end:
        rows.append((t, raw, want))
        t += step
    return rows


def test_clean_press_and_release_pass_at_once():
    check([(0, 0, 0), (5, R, R), (10, R, R), (100, R, R), (105, 0, 0), (110, 0, 0)])


def test_press_bounce_train_makes_one_edge():
    # 1 ms scans; the contact chatters for 18 ms, then stays closed.
    train = (R, 0, 0, R, 0, R, R, 0, R, 0, 0, 0, R, 0, R, R, R, 0)
    rows = [(-1, 0, 0)]
    t = 0
    for raw in train:
        rows.append((t, raw, R))  # reported on the first edge, never dropped
        t += 1
    rows += scans(t, 80, R, R)
    check(rows)


def test_release_bounce_train_makes_one_edge():
    train = (0, R, 0, R, R, 0, 0, R, 0, R, 0, 0, 0, 0, R, 0, 0, 0, R, 0)  # 20 ms
    rows = scans(0, 100, R, R)
    t = 100
    for raw in train:
        rows.append((t, raw, 0))
        t += 1
    rows += scans(t, 200, 0, 0)
    check(rows)


def test_tap_of_80_ms_with_bounce_on_both_ends():
    rows = [(0, 0, 0)]
    # 5 ms scans: press train 10..28, closed to 90, release train 90..108.
    for t, raw in ((10, R), (15, 0), (20, R), (25, 0), (30, R)):
        rows.append((t, raw, R))
    rows += scans(35, 90, R, R, 5)
    for t, raw in ((90, 0), (95, R), (100, 0), (105, R), (110, 0)):
        rows.append((t, raw, 0))
    rows += scans(115, 200, 0, 0, 5)
    check(rows)


def test_release_is_reported_on_the_scan_that_sees_it():
    # Settled after the press: the first open reading is the release, latency one scan.
    check([(0, R, R), (25, R, R), (30, 0, 0)])
    # A scan that lands inside the press window still holds the release until steady...
    check([(0, R, R), (5, 0, R), (10, 0, R), (20, 0, R), (25, 0, 0)])


def test_chatter_keeps_restarting_the_window():
    rows = [(0, R, R)]
    t = 5
    while t < 100:  # a contact that never settles keeps its first reported level
        rows.append((t, 0 if (t // 5) % 2 else R, R))
        t += 5
    # the last change was seen at 95: open and steady for 20 ms from there, released.
    rows += [(100, 0, R), (114, 0, R), (115, 0, 0)]
    check(rows)


def test_short_spike_is_one_short_press():
    # Eager: a spike is reported at once and lasts until the line is steady for settle_ms.
    check([(0, 0, 0), (5, R, R), (10, 0, R), (25, 0, R), (30, 0, 0), (35, 0, 0)])


def test_keys_are_independent():
    rows = [(0, R, R), (1, 0, R), (2, R | B, R | B), (3, B, R | B), (4, R | B, R | B),
            (25, R | B, R | B), (26, R, R), (27, R | B, R)]  # BLUE chatters, RED steady
    check(rows)


def test_late_scan_makes_no_phantom_edge():
    # press, then the next scan comes 200 ms later: at most the one real edge.
    check([(0, R, R), (200, R, R), (205, R, R)])
    check([(0, R, R), (200, 0, 0), (205, 0, 0)])  # released meanwhile: reported at once
    # the release at 200 opens a new window: a close 5 ms later is bounce, 25 ms later a press.
    check([(0, R, R), (5, 0, R), (200, 0, 0), (205, R, 0), (220, R, 0), (225, R, R)])
    check([(0, R, R), (5, 0, R), (200, 0, 0), (225, R, R)])
    check([(0, 0, 0), (200, 0, 0), (400, R, R)])


def test_time_jump_back_makes_no_phantom_edge():
    d = check([(1000, R, R), (1005, 0, R)])
    # the clock goes back 900 ms: the window restarts, no edge, and the key still settles.
    for t, raw, want in ((105, 0, R), (110, 0, R), (124, 0, R), (125, 0, 0), (130, 0, 0)):
        assert d.update(raw, t) == want, t


def test_time_jump_forward_makes_no_phantom_edge():
    d = check([(0, R, R), (5, 0, R)])
    assert d.update(0, 100000) == 0  # the one real release
    assert d.update(0, 100005) == 0
    assert d.update(R, 100010) == 0  # inside the new window: bounce
    assert d.update(R, 100030) == R


def test_window_across_the_2_29_wrap():
    rows = [(-10, 0, 0), (-5, R, R), (0, 0, R), (5, R, R), (10, R, R), (15, R, R), (20, R, R),
            (25, R, R), (30, 0, 0), (35, R, 0), (50, R, 0), (55, R, R)]
    for base in (PERIOD - 3, PERIOD - 17, 0, 5, PERIOD // 2):
        check(rows, base)


def test_raw_clock_wrapping_at_2_30_through_mask():
    raw_start = (1 << 30) - 12  # a device clock 12 ms before its wrap
    d = Debouncer()
    for t, raw, want in ((0, R, R), (4, 0, R), (8, R, R), (16, R, R), (30, 0, 0)):
        now = mask((raw_start + t) % (1 << 30))
        assert d.update(raw, now) == want, t


def test_bits_beyond_the_width_are_ignored():
    d = Debouncer(20, 5)
    assert d.update(0xFF, 0) == 0x1F
    assert d.stable == 0x1F


def test_settle_time_is_tunable():
    check([(0, R, R), (3, 0, R), (7, 0, R), (8, 0, 0)], settle_ms=5)
    check([(0, R, R), (5, 0, 0)], settle_ms=5)


class Pin:
    def __init__(self, v=1):
        self.v = v

    def value(self):
        return self.v


def test_buttons_scan_active_low():
    red, blue, ok = Pin(), Pin(), Pin()
    btn = Buttons(((keys.RED, red), (keys.BLUE, blue), (keys.OK, ok)))
    assert btn.mask == R | B | OK
    assert btn.scan() == 0
    red.v = 0
    assert btn.scan() == R
    ok.v = 0
    assert btn.scan() == R | OK
    red.v = 1
    blue.v = 0
    assert btn.scan() == B | OK


def test_buttons_any_key_index():
    p = Pin(0)
    assert Buttons([(keys.BLUE_MINUS, p)]).scan() == 1 << keys.BLUE_MINUS


def test_scan_and_debounce_allocate_nothing():
    try:
        import micropython

        total = micropython.mem_total
    except (ImportError, AttributeError):
        return  # CPython: nothing to measure
    pins = (Pin(), Pin(), Pin())
    btn = Buttons(((0, pins[0]), (1, pins[1]), (2, pins[2])))
    d = Debouncer()
    loop(btn, d, pins[0], 0, 10)
    t0 = total()
    loop(btn, d, pins[0], 0, 0)
    base = total() - t0  # the loop's own frame
    t0 = total()
    loop(btn, d, pins[0], 0, 500)
    assert total() - t0 - base == 0


def loop(btn, d, pin, now, n):
    i = 0
    while i < n:
        if i % 7 < 3:
            pin.v ^= 1
        d.update(btn.scan(), now)
        now += 3
        i += 1


def test_keys_names_and_index():
    assert (keys.RED, keys.BLUE, keys.OK, keys.RED_MINUS, keys.BLUE_MINUS) == (0, 1, 2, 3, 4)
    assert keys.NAMES == ('RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS')
    i = 0
    while i < len(keys.NAMES):
        assert keys.index(keys.NAMES[i]) == i
        assert keys.BIT(i) == 1 << i
        i += 1
    assert keys.index('ok') == keys.OK
    assert keys.index('blue-minus') == keys.BLUE_MINUS
    for bad in ('GREEN', '', None, 0):
        try:
            keys.index(bad)
        except ValueError:
            pass
        else:
            assert False, bad
