# The NEC infrared decoder on generated pulse trains: good, jittered, glitched, truncated,
# repeated and overlapping frames. A table of cases, each checked for the exact codes reported;
# the noisy ones for never reporting a code that was not sent.
# runs-on: micropython
from remote_feed import decode
from scoreboard.remote.nec import NEC, REPEAT
from scoreboard.ui.ticks import PERIOD
from virtual import pulses as P

IDLE = P.NEC_IDLE
CODES = (0x10EF, 0x00FF, 0xFF00, 0x0000, 0x40BF, 0x5AA5, 0x1234A7)  # the last: 16-bit address


def test_clean_frames_decode_to_address_and_command():
    for code in CODES:
        assert decode(NEC, P.nec(code, t0=5000)) == [code], hex(code)


def test_address_and_command_bits_go_lsb_first():
    # address 0x01, command 0x80: the first bit sent is address bit 0, the last command bit 7
    ds = P.nec_durations(0x0180)
    bit_spaces = ds[3:3 + 64:2]
    assert bit_spaces[0] == 1687 and bit_spaces[1] == 562  # address 0x01
    assert bit_spaces[8] == 562 and bit_spaces[15] == 1687  # its inverse 0xFE
    assert bit_spaces[23] == 1687 and bit_spaces[16] == 562  # command 0x80
    assert decode(NEC, P.nec(0x0180)) == [0x0180]


def test_extended_address():
    # a 16-bit address whose high byte is not the inverse of the low one
    assert decode(NEC, P.nec(0xA55B10, t0=100, extended=True)) == [0xA55B10]
    # bytes that happen to be inverses (5A, A5) read as the standard 8-bit address 0x5A
    assert decode(NEC, P.nec(0xA55A10, extended=True)) == [0x5A10]
    # an address that fits 8 bits still sent as 16 (00 00): reported as the 16 bits say
    assert decode(NEC, P.nec(0x0010, extended=True)) == [0x0010]


def test_jitter_15_percent():
    rng = P.Rng(7)
    for code in CODES:
        for k in range(20):
            train = P.nec(code, t0=1000 + k, repeats=2, jitter_pct=15, rng=rng)
            assert decode(NEC, train) == [code, REPEAT, REPEAT], (hex(code), k)


def test_a_held_key_repeats_every_108_ms():
    out = decode(NEC, P.nec(0x10EF, repeats=20))
    assert out == [0x10EF] + [REPEAT] * 20


def test_one_lost_repeat_keeps_the_chain_two_do_not():
    train = P.nec(0x10EF) + P.nec_repeats(2 * P.NEC_PERIOD, 2)  # the first repeat lost
    assert decode(NEC, train) == [0x10EF, REPEAT, REPEAT]
    train = P.nec(0x10EF) + P.nec_repeats(3 * P.NEC_PERIOD, 2)  # two lost: the chain breaks
    assert decode(NEC, train) == [0x10EF]


def test_repeats_without_a_frame_are_nothing():
    assert decode(NEC, P.nec_repeats(0, 5)) == []


def test_repeats_off_the_cadence_are_nothing():
    for gap in (60000, 90000, 98000, 125000, 180000, 400000):
        train = P.nec(0x10EF) + P.nec_repeats(gap, 1)
        assert decode(NEC, train) == [0x10EF], gap


def test_across_the_tick_wrap():
    for t0 in (PERIOD - 30000, PERIOD - 1, PERIOD - 60000):
        assert decode(NEC, P.nec(0x10EF, t0=t0, repeats=3)) == [0x10EF] + [REPEAT] * 3, t0


def test_truncated_frames_are_nothing():
    full = P.nec(0x10EF, t0=0)
    span = P.end(full)
    step = span // 40
    t = 1
    while t < span - 200:  # every cut before the stop mark's end
        assert decode(NEC, P.truncate(full, t, IDLE)) == [], t
        t += step


def test_a_half_frame_then_a_whole_one():
    half = P.truncate(P.nec(0x40BF), 30000, IDLE)
    whole = P.nec(0x10EF, t0=45000)
    assert decode(NEC, half + whole) == [0x10EF]


def test_a_missing_edge_drops_the_frame():
    train = P.nec(0x10EF)
    k = 10
    while k < len(train) - 1:
        cut = train[:k] + train[k + 1:]
        out = decode(NEC, cut)
        assert out == [], k  # one edge missing: the levels no longer alternate
        k += 7


def test_glitches_never_make_a_wrong_code():
    rng = P.Rng(11)
    good = 0
    for trial in range(200):
        code = CODES[trial % len(CODES)]
        train = P.nec(code, t0=1000, repeats=1, jitter_pct=10, rng=rng)
        train = P.glitch(train, IDLE, 1 + trial % 4, rng, min_us=5, max_us=250)
        out = decode(NEC, train)
        for c in out:
            assert c in (code, REPEAT), (trial, hex(c))
        if out and out[0] == code:
            good += 1
    assert good < 200  # the glitches did break frames (the table tests something)


def test_glitches_before_and_after_leave_the_frame():
    rng = P.Rng(3)
    for trial in range(50):
        frame = P.nec(0x10EF, t0=50000)
        noisy = P.glitch(frame, IDLE, 5, rng, 5, 250, t0=0, t1=40000)
        noisy = P.glitch(noisy, IDLE, 5, rng, 5, 250, t0=P.end(frame) + 500,
                         t1=P.end(frame) + 30000)
        assert decode(NEC, noisy) == [0x10EF], trial


def test_noise_alone_is_nothing():
    rng = P.Rng(5)
    for trial in range(30):
        assert decode(NEC, P.noise(0, 500000, rng, IDLE, 20, 3000)) == [], trial


def test_two_remotes_one_after_the_other():
    a = P.nec(0x10EF, t0=0)
    b = P.nec(0x20DF, t0=P.end(a) + 20000)
    assert decode(NEC, a + b) == [0x10EF, 0x20DF]


def test_two_remotes_at_once_never_make_a_wrong_code():
    rng = P.Rng(9)
    for trial in range(60):
        a = P.nec(0x10EF, t0=0, repeats=3, jitter_pct=5, rng=rng)
        b = P.nec(0x20DF, t0=rng.between(0, 300000), repeats=2, jitter_pct=5, rng=rng)
        for c in decode(NEC, P.either(a, b, IDLE)):
            assert c in (0x10EF, 0x20DF, REPEAT), (trial, hex(c))


def test_a_held_remotes_repeats_are_not_credited_to_another_remotes_frame():
    # Remote A is held (repeat codes every 108 ms); remote B's frame fits between two of them.
    # A's next repeat must not read as B's key held.
    a = P.nec(0x10EF, t0=0, repeats=6)
    for off in (12500, 15000, 20000, 25000, 28000):
        b = P.nec(0x20DF, t0=P.NEC_PERIOD * 2 + off)
        out = decode(NEC, P.either(a, b, IDLE))
        i = out.index(0x20DF)
        assert REPEAT not in out[i + 1:], (off, out)


def test_the_active_high_sense():
    inv = [(t, 1 - v) for t, v in P.nec(0x10EF, t0=100)]
    assert decode(NEC, inv, active_low=False) == [0x10EF]
    assert decode(NEC, inv) == []


def test_receiver_shaped_trains():
    # A VS1838B's output: marks stretched, spaces shortened by the same, plus jitter.
    rng = P.Rng(41)
    for skew in (-100, -50, 60, 120, 160):
        for code in CODES:
            train = P.skew(P.nec(code, t0=500, repeats=2, jitter_pct=8, rng=rng), IDLE, skew)
            assert decode(NEC, train) == [code, REPEAT, REPEAT], (skew, hex(code))
