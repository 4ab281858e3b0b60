# The 2**29 tick clock: diff/add/mask against a reference, and raw device clocks that wrap.
# runs-on: micropython
from scoreboard.ui import ticks
from scoreboard.ui.ticks import MASK, PERIOD, add, diff, mask

HALF = PERIOD // 2

# Values at and around every boundary that matters.
EDGES = (0, 1, 2, 599, 600, HALF - 2, HALF - 1, HALF, HALF + 1, PERIOD - 601, PERIOD - 2,
         PERIOD - 1)


def ref_diff(a, b):
    """MicroPython's ticks_diff for period PERIOD, written the obvious way."""
    d = (a - b) % PERIOD
    if d >= HALF:
        d -= PERIOD
    return d


def test_constants():
    assert PERIOD == 1 << 29
    assert MASK == PERIOD - 1
    assert ticks.PERIOD == 536870912


def test_diff_matches_reference_at_the_edges():
    for a in EDGES:
        for b in EDGES:
            d = diff(a, b)
            assert d == ref_diff(a, b), (a, b, d)
            assert -HALF <= d < HALF


def test_diff_range_is_that_of_ticks_diff():
    assert diff(HALF, 0) == -HALF  # exactly half a period apart reads as "before"
    assert diff(HALF - 1, 0) == HALF - 1
    assert diff(0, HALF) == -HALF
    assert diff(0, PERIOD - 1) == 1  # across the wrap
    assert diff(PERIOD - 1, 0) == -1


def test_no_intermediate_leaves_the_small_int_range():
    # diff computes ((a & MASK) - (b & MASK) + HALF): its extremes, for any inputs.
    lo = 0 - MASK + HALF
    hi = MASK - 0 + HALF
    assert -(1 << 30) < lo and hi < (1 << 30)
    # add: t < PERIOD and |d| < HALF.
    assert (MASK + HALF) < (1 << 30)


def test_add_then_diff_round_trips():
    for t in EDGES:
        for d in (-HALF, -HALF + 1, -3000, -1, 0, 1, 150, 600, 3000, HALF - 1):
            u = add(t, d)
            assert 0 <= u < PERIOD
            assert diff(u, t) == d, (t, d)
            assert diff(t, u) == -d or d == -HALF, (t, d)


def test_add_wraps():
    assert add(PERIOD - 100, 150) == 50
    assert add(50, -150) == PERIOD - 100


def test_mask_of_a_clock_wrapping_at_2_30():
    # rp2/esp32 ticks_ms() wraps at 2**30: masked readings keep their differences across it.
    raw_period = 1 << 30
    start = raw_period - 1000
    prev_raw = start
    for step in (1, 7, 150, 600, 999, 1000, 1001, 3000, 20000):
        raw = (start + step) % raw_period
        assert diff(mask(raw), mask(start)) == step, step
        assert diff(mask(start), mask(raw)) == -step, step
        prev_raw = raw
    assert prev_raw < start  # it did wrap


def test_mask_of_a_clock_wrapping_at_2_62():
    # the unix port's ticks_ms() period.
    raw_period = 1 << 62
    start = raw_period - 5
    for step in (1, 5, 6, 600, 3000):
        raw = (start + step) % raw_period
        assert diff(mask(raw), mask(start)) == step


def test_a_walk_across_the_2_29_wrap():
    # 5 ms scans straddling the wrap: every step and every span measures right.
    t0 = add(0, -500)
    t = t0
    n = 0
    while n < 200:
        u = add(t, 5)
        assert diff(u, t) == 5
        assert diff(u, t0) == 5 * (n + 1)
        t = u
        n += 1
    assert t == 500


def test_diff_masks_unmasked_arguments():
    # Mixing a raw reading with a masked one still measures right.
    raw = (1 << 30) + 123
    assert diff(raw, mask(raw) - 100) == 100


def test_the_virtual_receivers_clock_has_the_firmwares_mask():
    from virtual.irqpin import MASK as VIRTUAL_MASK
    assert VIRTUAL_MASK == MASK
