# Gestures as timed tables on a simulated clock: {time, debounced keys} in, {time, event} out.
# Scans every 5 ms unless a test says otherwise; times are ms after `base`.
# runs-on: micropython
from scoreboard.ui import gestures, keys
from scoreboard.ui.debounce import Debouncer
from scoreboard.ui.gestures import CHORD, HOLD, LONG, REPEAT, TAP, Gestures
from scoreboard.ui.ticks import PERIOD, add, diff

R = 1 << keys.RED
B = 1 << keys.BLUE
OK = 1 << keys.OK
RM = 1 << keys.RED_MINUS


class Rec:
    def __init__(self, base):
        self.base = base
        self.now = base
        self.events = []

    def event(self, kind, key):
        self.events.append((diff(self.now, self.base), gestures.NAMES[kind], keys.NAMES[key]))


def play(script, end=None, scan=5, base=0, times=None, hooks=None, g=None):
    """Feed `script` [(t, bits), ...] (bits hold until the next row) at every scan time.

    times: explicit scan times (late scans); hooks {t: fn(g)} run after the update at t.
    Returns (events, gestures).
    """
    rec = Rec(base)
    if g is None:
        g = Gestures(rec.event)
    else:
        g._emit = rec.event
    if times is None:
        times = []
        t = 0
        while t <= end:
            times.append(t)
            t += scan
    i = 0
    bits = 0
    for t in times:
        while i < len(script) and script[i][0] <= t:
            bits = script[i][1]
            i += 1
        rec.now = add(base, t)
        g.update(bits, rec.now)
        if hooks and t in hooks:
            hooks[t](g)
    return rec.events, g


def expect(script, want, end=None, **kw):
    if end is None:
        end = script[-1][0] + 500
    got, g = play(script, end, **kw)
    assert got == want, 'got %r\nwant %r' % (got, want)
    return g


def test_names():
    assert (TAP, LONG, HOLD, REPEAT, CHORD) == (1, 2, 3, 4, 5)
    assert gestures.NAMES[TAP] == 'TAP' and gestures.NAMES[CHORD] == 'CHORD'
    assert Gestures.LONG_MS == 600 and Gestures.HOLD_MS == 3000 and Gestures.CHORD_MS == 1000
    assert Gestures.REPEAT_DELAY_MS == 600 and Gestures.REPEAT_MS == 150


def test_ok_tap_long_hold_table():
    table = (
        # (release time, events)
        (80, [(80, 'TAP', 'OK')]),
        (595, [(595, 'TAP', 'OK')]),
        (600, [(600, 'LONG', 'OK')]),
        (1500, [(1500, 'LONG', 'OK')]),
        (2995, [(2995, 'LONG', 'OK')]),
        (3000, [(3000, 'HOLD', 'OK')]),  # the hold fires while down; the release is silent
        (5000, [(3000, 'HOLD', 'OK')]),
    )
    for up, want in table:
        expect([(0, OK), (up, 0)], want)


def test_ok_hold_fires_while_still_down():
    got, g = play([(0, OK)], 3100)
    assert got == [(3000, 'HOLD', 'OK')]
    assert not g.idle


def test_red_tap_and_repeat_table():
    table = (
        (80, [(80, 'TAP', 'RED')]),
        (595, [(595, 'TAP', 'RED')]),
        # at 600 the scan sees the release before the repeat: the press counts once, as REPEAT
        (600, [(600, 'REPEAT', 'RED')]),
        (605, [(600, 'REPEAT', 'RED')]),
        (750, [(600, 'REPEAT', 'RED')]),
        (755, [(600, 'REPEAT', 'RED'), (750, 'REPEAT', 'RED')]),
        (1000, [(600, 'REPEAT', 'RED'), (750, 'REPEAT', 'RED'), (900, 'REPEAT', 'RED')]),
    )
    for up, want in table:
        expect([(0, R), (up, 0)], want)


def test_blue_and_minus_keys_repeat_too():
    for key in (keys.BLUE, keys.RED_MINUS, keys.BLUE_MINUS):
        name = keys.NAMES[key]
        expect([(0, 1 << key), (80, 0)], [(80, 'TAP', name)])
        expect([(0, 1 << key), (800, 0)], [(600, 'REPEAT', name), (750, 'REPEAT', name)])


def test_repeat_cadence_is_anchored_to_the_press():
    # 7 ms scans: each REPEAT on the first scan at or after 600 + 150 n, no drift.
    got, _ = play([(0, R), (2000, 0)], 2100, scan=7)
    times = [e[0] for e in got]
    assert times == [602, 756, 903, 1050, 1204, 1351, 1505, 1652, 1806, 1953], times
    assert all(e[1] == 'REPEAT' for e in got)


def test_repeat_after_a_late_scan_does_not_burst():
    got, _ = play([(0, R), (2000, 0)], times=[0, 5, 1000, 1005, 1150, 1155, 1300, 2000])
    assert got == [(1000, 'REPEAT', 'RED'), (1150, 'REPEAT', 'RED'), (1300, 'REPEAT', 'RED')]


def test_chord_fires_once_and_silences_both():
    expect([(0, R | B), (1500, 0)], [(1000, 'CHORD', 'RED')])
    # pressed 20 ms apart: counted from the second
    expect([(0, R), (20, R | B), (2000, 0)], [(1020, 'CHORD', 'RED')])
    # released one at a time after the chord: nothing
    expect([(0, R | B), (1200, B), (1400, 0)], [(1000, 'CHORD', 'RED')])


def test_after_a_chord_nothing_until_both_are_up():
    script = [(0, R | B), (1200, B), (1300, R | B), (1400, B), (1500, R | B), (2500, 0),
              (3000, R), (3080, 0)]
    expect(script, [(1000, 'CHORD', 'RED'), (3080, 'TAP', 'RED')])
    # BLUE held on alone after the chord never repeats
    expect([(0, R | B), (1100, B), (3000, 0)], [(1000, 'CHORD', 'RED')])


def test_no_repeat_while_both_are_down():
    # RED alone repeats, BLUE joins: repeats stop, the chord fires a second later.
    script = [(0, R), (800, R | B), (2000, 0)]
    expect(script, [(600, 'REPEAT', 'RED'), (750, 'REPEAT', 'RED'), (1800, 'CHORD', 'RED')])


def test_two_taps_at_once_both_score():
    expect([(0, R | B), (80, 0)], [(80, 'TAP', 'RED'), (80, 'TAP', 'BLUE')])
    expect([(0, R | B), (300, R), (400, 0)], [(300, 'TAP', 'BLUE'), (400, 'TAP', 'RED')])


def test_both_held_past_the_repeat_delay_but_released_before_the_chord():
    # Each on its own: BLUE's held-back +1 comes on its release, RED resumes repeating at once.
    script = [(0, R | B), (800, R), (1000, 0)]
    expect(script, [(800, 'REPEAT', 'BLUE'), (800, 'REPEAT', 'RED'), (950, 'REPEAT', 'RED')])
    expect([(0, R | B), (900, 0)], [(900, 'REPEAT', 'RED'), (900, 'REPEAT', 'BLUE')])


def test_ok_is_independent_of_the_chord():
    script = [(0, R | B | OK), (80, R | B), (1500, 0)]
    expect(script, [(80, 'TAP', 'OK'), (1000, 'CHORD', 'RED')])


def test_swallow_silences_the_keys_down_now():
    sw = {0: lambda g: g.swallow()}
    expect([(0, OK), (80, 0)], [], hooks=sw)
    expect([(0, OK), (4000, 0)], [], hooks=sw)  # no HOLD either
    expect([(0, R), (1000, 0)], [], hooks=sw)  # no REPEAT
    # only until released: the next press counts
    expect([(0, OK), (80, 0), (200, OK), (280, 0)], [(280, 'TAP', 'OK')], hooks=sw)


def test_swallow_cancels_a_chord_and_leaves_later_keys_alone():
    expect([(0, R | B), (2000, 0)], [], hooks={500: lambda g: g.swallow()})
    expect([(0, R | B), (2000, 0)], [], hooks={995: lambda g: g.swallow()})  # one scan before
    # RED swallowed, BLUE pressed later: BLUE is alone (no chord), and repeats.
    got, _ = play([(0, R), (100, R | B), (1000, 0)], 1100, hooks={0: lambda g: g.swallow()})
    assert got == [(700, 'REPEAT', 'BLUE'), (850, 'REPEAT', 'BLUE')], got


def test_wake_press_pattern():
    # The app's use: a press while asleep only wakes; `pressed` says which keys went down.
    seen = []

    def wake(g):
        seen.append(g.pressed)
        g.swallow()

    expect([(0, OK), (80, 0)], [], hooks={0: wake})
    assert seen == [OK]


def test_idle_and_down():
    rec = Rec(0)
    g = Gestures(rec.event)
    assert g.idle and g.down == 0
    g.update(OK, 0)
    assert not g.idle and g.down == OK and g.pressed == OK
    g.update(OK, 5)
    assert g.pressed == 0
    rec.now = 80
    g.update(0, 80)
    assert g.idle and g.down == 0 and rec.events == [(80, 'TAP', 'OK')]


def test_late_scans():
    ok = [(0, OK), (3500, 0)]
    # a scan long after the press still sees the right gesture on release
    expect([(0, OK), (700, 0)], [(700, 'LONG', 'OK')], times=[0, 700])
    expect([(0, OK), (900, 0)], [(900, 'LONG', 'OK')], times=[0, 700, 900])
    expect(ok, [(3400, 'HOLD', 'OK')], times=[0, 3400, 3500])  # hold on the first scan past it
    expect(ok, [(3500, 'HOLD', 'OK')], times=[0, 3500])  # released unseen: still a hold
    expect([(0, R), (700, 0)], [(700, 'REPEAT', 'RED')], times=[0, 700])
    expect([(0, R | B), (1500, 0)], [(1500, 'CHORD', 'RED')], times=[0, 1500, 1600])
    expect([(0, R | B), (1500, 0)], [(1200, 'CHORD', 'RED')], times=[0, 500, 1200, 1500])
    expect([(0, R | B), (900, 0)], [(900, 'REPEAT', 'RED'), (900, 'REPEAT', 'BLUE')],
           times=[0, 900])


def test_time_jumps():
    # Backwards: no event until the clock passes the thresholds again, no crash.
    expect([(0, OK), (1000, 0)], [(1000, 'TAP', 'OK')], times=[500, 0, 1000])
    # Forwards: a key down across a 10 minute jump is held, once.
    expect([(0, OK), (600005, 0)], [(600000, 'HOLD', 'OK')], times=[0, 5, 600000, 600005])
    expect([(0, R), (600005, 0)], [(600000, 'REPEAT', 'RED')], times=[0, 5, 600000, 600005])


def test_across_the_2_29_wrap():
    cases = (
        ([(0, OK), (80, 0)], [(80, 'TAP', 'OK')]),
        ([(0, OK), (900, 0)], [(900, 'LONG', 'OK')]),
        ([(0, OK), (3300, 0)], [(3000, 'HOLD', 'OK')]),
        ([(0, R), (800, 0)], [(600, 'REPEAT', 'RED'), (750, 'REPEAT', 'RED')]),
        ([(0, R | B), (1200, 0)], [(1000, 'CHORD', 'RED')]),
    )
    for base in (PERIOD - 1, PERIOD - 40, PERIOD - 620, PERIOD - 1000, PERIOD - 3001):
        for script, want in cases:
            expect(script, want, base=base)


def test_thresholds_are_tunable():
    class Quick(Gestures):
        LONG_MS = 300
        HOLD_MS = 1000
        REPEAT_DELAY_MS = 400
        REPEAT_MS = 100

    got, _ = play([(0, OK), (400, 0)], 500, g=Quick(None))
    assert got == [(400, 'LONG', 'OK')]
    got, _ = play([(0, R), (650, 0)], 700, g=Quick(None))
    assert got == [(400, 'REPEAT', 'RED'), (500, 'REPEAT', 'RED'), (600, 'REPEAT', 'RED')]


def bounce(at, closing, key_bit):
    """A 20 ms bounce train on 1 ms scans that ends closed (closing) or open."""
    pattern = (1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1)
    rows = []
    i = 0
    while i < len(pattern):
        level = pattern[i] if closing else 1 - pattern[i]
        rows.append((at + i, key_bit if level else 0))
        i += 1
    rows.append((at + 20, key_bit if closing else 0))
    return rows


def test_debounced_chain_tap_long_and_repeat_with_bounce():
    # raw input through the debouncer, 1 ms scans, a bounce train on every edge.
    for bit, up, want in (
        (OK, 80, [(80, 'TAP', 'OK')]),
        (OK, 1200, [(1200, 'LONG', 'OK')]),
        (R, 80, [(80, 'TAP', 'RED')]),
        (R, 700, [(600, 'REPEAT', 'RED')]),
    ):
        script = bounce(0, True, bit) + bounce(up, False, bit)
        rec = Rec(0)
        g = Gestures(rec.event)
        d = Debouncer()
        i = 0
        bits = 0
        t = 0
        while t < up + 300:
            while i < len(script) and script[i][0] <= t:
                bits = script[i][1]
                i += 1
            rec.now = t
            g.update(d.update(bits, t), t)
            t += 1
        assert rec.events == want, (bit, up, rec.events)


def test_update_allocates_nothing():
    try:
        import micropython

        total = micropython.mem_total
    except (ImportError, AttributeError):
        return  # CPython: measured under MicroPython only
    n = [0]

    def count(kind, key):
        n[0] += 1

    g = Gestures(count)
    d = Debouncer()
    for pattern in (0, OK, R, R | B, R | B | OK, B):
        drive(g, d, pattern, 0, 0)
        t0 = total()
        drive(g, d, pattern, 0, 0)
        base = total() - t0  # the driving loop's own frame
        t0 = total()
        drive(g, d, pattern, 0, 1200)  # 6 s at 5 ms: long, hold, repeats, chord all fire
        used = total() - t0 - base
        assert used == 0, (pattern, used)
        drive(g, d, 0, 6000, 10)
    assert n[0] > 40


def drive(g, d, bits, now, n):
    i = 0
    while i < n:
        g.update(d.update(bits, now), now)
        now += 5
        i += 1
