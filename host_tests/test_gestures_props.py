# Random bounce trains through debounce + gestures (CPython only: hypothesis).
# Every clean press, whatever its contact bounce, is exactly one stable edge pair and exactly
# one gesture; a bounce on its own never makes an edge or an event.
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scoreboard.ui import gestures, keys
from scoreboard.ui.debounce import Debouncer
from scoreboard.ui.gestures import Gestures
from scoreboard.ui.ticks import PERIOD, add

# The same profiles as test_core_props: a short seeded run in `make test`, long in `make fuzz`.
settings.register_profile('ci', max_examples=150, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('fuzz', max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))

CHATTER_MS = 20  # the longest bounce train the debouncer must absorb


def _cap(chunks):
    """Bounce chunk lengths (ms, alternating level) cut to at most CHATTER_MS in all."""
    out = []
    total = 0
    for c in chunks:
        if total + c > CHATTER_MS:
            break
        out.append(c)
        total += c
    return out


trains = st.lists(st.integers(1, 6), max_size=10).map(_cap)

# A clean press: open for `gap` ms, a bounce train, closed for `hold` ms, a bounce train.
# gap and hold are steady stretches of at least settle (20) + the longest scan (10) + margin.
taps = st.tuples(st.integers(40, 300), trains, st.integers(40, 500), trains)


def signal(presses):
    """Levels per ms (bytearray) for one key's presses, and the press start times."""
    lv = bytearray()
    starts = []
    for gap, ptrain, hold, rtrain in presses:
        lv.extend(b'\x00' * gap)
        starts.append(len(lv))
        level = 1
        for c in ptrain:  # starts closed: the first contact
            lv.extend(bytes([level]) * c)
            level ^= 1
        lv.extend(b'\x01' * hold)
        level = 0
        for c in rtrain:  # starts open: the first break
            lv.extend(bytes([level]) * c)
            level ^= 1
    lv.extend(b'\x00' * 100)
    return lv, starts


def run(levels, scan, phase, base):
    """Scan every `scan` ms; returns (events, rising edges per key, falling edges per key)."""
    events = []
    g = Gestures(lambda kind, key: events.append((gestures.NAMES[kind], key)))
    d = Debouncer()
    end = max(len(lv) for lv in levels.values())
    rises = dict.fromkeys(levels, 0)
    falls = dict.fromkeys(levels, 0)
    prev = 0
    t = phase
    while t < end:
        raw = 0
        for k, lv in levels.items():
            if t < len(lv) and lv[t]:
                raw |= 1 << k
        now = add(base, t)
        stable = d.update(raw, now)
        for k in levels:
            b = 1 << k
            if stable & b and not prev & b:
                rises[k] += 1
            if prev & b and not stable & b:
                falls[k] += 1
        prev = stable
        g.update(stable, now)
        t += scan
    assert g.idle
    return events, rises, falls


@given(
    per_key=st.dictionaries(st.integers(0, keys.COUNT - 1), st.lists(taps, min_size=1,
                            max_size=5), min_size=1, max_size=keys.COUNT),
    scan=st.integers(1, 10),
    phase=st.integers(0, 9),
    base=st.integers(0, PERIOD - 1),
)
def test_each_clean_press_is_one_tap(per_key, scan, phase, base):
    levels = {}
    for k, presses in per_key.items():
        levels[k], _ = signal(presses)
    events, rises, falls = run(levels, scan, phase % scan, base)
    for k, presses in per_key.items():
        assert rises[k] == len(presses), (k, rises[k])
        assert falls[k] == len(presses), (k, falls[k])
        mine = [e for e in events if e[1] == k]
        assert mine == [('TAP', k)] * len(presses), (k, mine)
    assert all(e[0] == 'TAP' for e in events), events


@given(
    key=st.integers(0, keys.COUNT - 1),
    gap=st.integers(40, 200),
    ptrain=trains,
    hold=st.integers(40, 4000),
    rtrain=trains,
    scan=st.integers(1, 10),
    base=st.integers(0, PERIOD - 1),
)
def test_long_presses_with_bounce_classify_by_duration(key, gap, ptrain, hold, rtrain, scan,
                                                       base):
    lv, _starts = signal([(gap, ptrain, hold, rtrain)])
    events, rises, falls = run({key: lv}, scan, 0, base)
    assert rises[key] == 1 and falls[key] == 1
    # The debounced press spans from the first contact to the first break, give or take
    # the bounce and one scan on each end (samples may miss the first contact or break).
    span = sum(ptrain) + hold
    lo, hi = span - CHATTER_MS - scan, span + CHATTER_MS + scan
    kinds = [e[0] for e in events]
    assert all(e[1] == key for e in events)
    G = Gestures
    if (1 << key) & G.REPEAT_KEYS:
        if hi < G.REPEAT_DELAY_MS:
            assert kinds == ['TAP']
        elif lo >= G.REPEAT_DELAY_MS:
            n = len(kinds)
            assert kinds == ['REPEAT'] * n
            assert (lo - G.REPEAT_DELAY_MS) // G.REPEAT_MS <= n
            assert n <= (hi - G.REPEAT_DELAY_MS) // G.REPEAT_MS + 1
        else:
            assert kinds in (['TAP'], ['REPEAT'])
    else:
        want = set()
        for held in (lo, hi):
            if held < G.LONG_MS:
                want.add('TAP')
            elif held < G.HOLD_MS:
                want.add('LONG')
            else:
                want.add('HOLD')
        assert len(kinds) == 1 and kinds[0] in want, (kinds, lo, hi)


@given(
    presses=st.lists(taps, min_size=1, max_size=4),
    scan=st.integers(1, 10),
)
def test_bounce_alone_never_adds_an_edge(presses, scan):
    # The same presses with and without their bounce trains give the same stable edges
    # and the same events: bouncing on its own contributes nothing.
    clean = [(gap, [], sum(p) + hold, []) for gap, p, hold, _r in presses]
    lv_b, _ = signal(presses)
    lv_c, _ = signal(clean)
    ev_b, rises_b, falls_b = run({keys.OK: lv_b}, scan, 0, 0)
    ev_c, rises_c, falls_c = run({keys.OK: lv_c}, scan, 0, 0)
    assert rises_b == rises_c and falls_b == falls_c
    assert [e[0] for e in ev_b] == [e[0] for e in ev_c] == ['TAP'] * len(presses)
