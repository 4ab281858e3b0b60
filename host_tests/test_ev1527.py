# The EV1527 keyfob decoder on generated pulse trains: good, jittered, glitched, truncated,
# repeated and overlapping presses, at the base periods fobs use; a code only after two
# identical frames in a row.
# runs-on: micropython
from remote_feed import decode
from scoreboard.remote.ev1527 import EV1527
from scoreboard.ui.ticks import PERIOD
from virtual import pulses as P

IDLE = P.RF_IDLE
CODES = (0xABCDE1, 0xABCDE2, 0x000001, 0xFFFFF8, 0x5A5A54, 0x123458)
BASES = (280, 300, 350, 400, 450)


def test_a_press_reports_from_the_second_frame_on():
    for code in CODES:
        for base in BASES:
            # 4 frames: frame 2 confirms frame 1, 3 confirms 2; the 4th ends in silence
            assert decode(EV1527, P.ev1527(code, t0=1000, frames=4, base=base)) == [code] * 2, \
                (hex(code), base)


def test_the_last_frame_counts_once_an_edge_soon_ends_its_silence():
    press = P.ev1527(0xABCDE1, frames=3)
    assert decode(EV1527, press + [(P.end(press) + 10000, 1)]) == [0xABCDE1] * 2
    # an edge long after: the press is over, its last frame is not reported that late
    assert decode(EV1527, press + [(P.end(press) + 50000, 1)]) == [0xABCDE1]


def test_one_frame_is_never_enough():
    for code in CODES:
        train = P.ev1527(code, frames=1)
        train.append((P.end(train) + 40000, 1))  # silence, then the receiver's noise
        assert decode(EV1527, train) == [], hex(code)


def test_frame_layout_sync_then_msb_first():
    ds = P.ev1527_durations(0x800001, base=100)
    assert ds[:2] == [100, 3100]
    assert ds[2:4] == [300, 100]  # bit 23 (MSB): a 1
    assert ds[4:6] == [100, 300]  # bit 22: a 0
    assert ds[-2:] == [300, 100]  # bit 0: a 1
    assert len(ds) == 2 + 48


def test_jitter_15_percent():
    rng = P.Rng(21)
    for code in CODES:
        for base in BASES:
            for k in range(4):
                train = P.ev1527(code, t0=k, frames=5, base=base, jitter_pct=15, rng=rng)
                out = decode(EV1527, train)
                assert out == [code] * 3, (hex(code), base, k, [hex(c) for c in out])


def test_across_the_tick_wrap():
    for t0 in (PERIOD - 50000, PERIOD - 1):
        assert decode(EV1527, P.ev1527(0xABCDE1, t0=t0, frames=5)) == [0xABCDE1] * 3


def test_two_different_frames_in_a_row_are_nothing():
    a = P.ev1527(0xABCDE1, frames=1)
    b = P.ev1527(0xABCDE2, t0=P.end(a) + 3 * 350, frames=1)
    c = P.ev1527(0xABCDE1, t0=P.end(b) + 3 * 350, frames=1)
    train = a + b + c
    train.append((P.end(train) + 40000, 1))
    assert decode(EV1527, train) == []


def test_frames_too_far_apart_do_not_pair():
    a = P.ev1527(0xABCDE1, frames=1)
    b = P.ev1527(0xABCDE1, t0=P.end(a) + 300000, frames=1)
    train = a + b
    train.append((P.end(train) + 40000, 1))
    assert decode(EV1527, train) == []


def test_truncated_presses_never_make_a_wrong_code():
    full = P.ev1527(0xABCDE3, frames=3)
    span = P.end(full)
    t = 1
    while t < span:
        cut = P.truncate(full, t, IDLE)
        cut.append((t + 60000, 1))
        for c in decode(EV1527, cut):
            assert c == 0xABCDE3, (t, hex(c))
        t += 997


def test_a_half_frame_is_nothing():
    frame = P.ev1527(0xABCDE1, frames=2)
    half = P.truncate(frame, P.end(frame) * 3 // 4, IDLE)
    half.append((P.end(half) + 40000, 1))
    assert decode(EV1527, half) == []


def test_glitches_never_make_a_wrong_code():
    rng = P.Rng(13)
    good = 0
    for trial in range(150):
        code = CODES[trial % len(CODES)]
        train = P.ev1527(code, frames=4, base=BASES[trial % len(BASES)], jitter_pct=10, rng=rng)
        train = P.glitch(train, IDLE, 1 + trial % 5, rng, min_us=5, max_us=150)
        out = decode(EV1527, train)
        for c in out:
            assert c == code, (trial, hex(c))
        if out:
            good += 1
    assert 0 < good < 150


def test_in_a_noisy_receiver():
    # A superheterodyne receiver with no carrier outputs noise; the fob's press rises above it.
    rng = P.Rng(17)
    found = 0
    for trial in range(40):
        before = P.noise(0, 200000, rng, IDLE, 30, 700)
        press = P.ev1527(0x5A5A54, t0=200500, frames=6, jitter_pct=10, rng=rng)
        after = P.noise(P.end(press) + 300, P.end(press) + 200000, rng, IDLE, 30, 700)
        out = decode(EV1527, before + press + after)
        for c in out:
            assert c == 0x5A5A54, (trial, hex(c))
        found += len(out) > 0
    assert found == 40


def test_noise_alone_is_nothing():
    rng = P.Rng(19)
    for trial in range(20):
        assert decode(EV1527, P.noise(0, 2000000, rng, IDLE, 20, 2000)) == [], trial


def test_two_fobs_at_once_never_make_a_wrong_code():
    rng = P.Rng(23)
    for trial in range(60):
        a = P.ev1527(0xABCDE1, frames=6, base=350, jitter_pct=5, rng=rng)
        b = P.ev1527(0x123458, t0=rng.between(0, 250000), frames=6,
                     base=rng.between(280, 420), jitter_pct=5, rng=rng)
        for c in decode(EV1527, P.either(a, b, IDLE)):
            assert c in (0xABCDE1, 0x123458), (trial, hex(c))


def test_two_fobs_one_after_the_other():
    a = P.ev1527(0xABCDE1, frames=4)
    b = P.ev1527(0x123458, t0=P.end(a) + 100000, frames=4, base=300)
    assert decode(EV1527, a + b) == [0xABCDE1] * 2 + [0x123458] * 2


def test_receiver_shaped_trains():
    # A superheterodyne receiver at a weak signal: highs longer, lows shorter (or the reverse).
    rng = P.Rng(43)
    for skew in (-80, -40, 40, 80):
        for code in CODES:
            for base in (300, 350, 400):
                train = P.skew(P.ev1527(code, frames=4, base=base, jitter_pct=8, rng=rng), IDLE,
                               skew)
                assert decode(EV1527, train) == [code] * 2, (skew, hex(code), base)
