# Random pulse trains through the remote decoders (CPython only: hypothesis). Whatever the
# jitter, glitches, noise or a second remote, a decoder reports only codes that were sent;
# clean presses are reported exactly.
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from remote_feed import decode
from scoreboard.remote.ev1527 import EV1527
from scoreboard.remote.nec import NEC, REPEAT
from virtual import pulses as P

settings.register_profile('ci', max_examples=150, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile('fuzz', max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))

nec_codes = st.one_of(st.integers(0, 0xFFFF), st.integers(0x10000, 0xFFFFFF))
rf_codes = st.integers(0, 0xFFFFFF)


def nec_press(code, t0, repeats, seed, jitter=15):
    return P.nec(code, t0=t0, repeats=repeats, jitter_pct=jitter, rng=P.Rng(seed))


def nec_expected(code):
    # an extended code whose address bytes happen to be inverses reads as the 8-bit address
    a = code >> 8
    if a > 0xFF and (a & 0xFF) ^ (a >> 8) == 0xFF:
        return (a & 0xFF) << 8 | (code & 0xFF)
    return code


@given(st.lists(st.tuples(nec_codes, st.integers(0, 5), st.integers(20000, 300000)),
                min_size=1, max_size=4), st.integers(0, 2**29 - 1), st.integers(1, 10**6))
def test_nec_clean_presses_decode_exactly(presses, t0, seed):
    train = []
    want = []
    t = t0
    for code, reps, gap in presses:
        train += nec_press(code, t, reps, seed)
        want += [nec_expected(code)] + [REPEAT] * reps
        t = P.end(train) + gap
    assert decode(NEC, train) == want


@given(st.lists(nec_codes, min_size=1, max_size=3), st.integers(1, 10**6),
       st.lists(st.tuples(st.floats(0, 1), st.integers(5, 280)), max_size=12))
def test_nec_glitches_never_make_a_code_not_sent(codes, seed, glitches):
    train = []
    t = 0
    for c in codes:
        train += nec_press(c, t, 2, seed)
        t = P.end(train) + 30000
    ts = P.toggles(train, P.NEC_IDLE)
    span = P.end(train)
    for where, width in glitches:
        g = int(where * span)
        ts += [g, g + width]
    sent = {nec_expected(c) for c in codes} | {REPEAT}
    for c in decode(NEC, P.from_toggles(ts, P.NEC_IDLE)):
        assert c in sent


@given(st.lists(st.integers(1, 20000), min_size=1, max_size=400))
def test_random_edges_are_no_code(durations):
    for idle, cls in ((P.NEC_IDLE, NEC), (P.RF_IDLE, EV1527)):
        train = []
        t = 0
        lv = idle
        for d in durations:
            t += d
            lv = 1 - lv
            train.append((t, lv))
        assert [c for c in decode(cls, train) if c != REPEAT] == []


plausible_nec = st.sampled_from((562, 562, 562, 1687, 9000, 4500, 2250, 40000))


@given(st.lists(plausible_nec, min_size=1, max_size=300), st.integers(1, 10**6))
def test_plausible_nec_intervals_without_a_valid_frame_are_no_code(durations, seed):
    # Intervals of the right lengths in random order: a frame only if one is really there.
    rng = P.Rng(seed)
    train = P._marks(0, durations, P.NEC_IDLE, 10, rng)
    for c in decode(NEC, train):
        if c == REPEAT:
            continue
        pat = P.nec_durations(c)  # then the train holds that frame's intervals, in order
        assert any(durations[i:i + len(pat)] == pat for i in range(0, len(durations), 2)), c


@given(rf_codes, st.integers(3, 8), st.integers(250, 450), st.integers(0, 2**29 - 1),
       st.integers(1, 10**6))
def test_rf_clean_presses_decode_exactly(code, frames, base, t0, seed):
    train = P.ev1527(code, t0=t0, frames=frames, base=base, jitter_pct=15, rng=P.Rng(seed))
    assert decode(EV1527, train) == [code] * (frames - 2)


@given(rf_codes, st.integers(1, 10**6), st.integers(250, 450),
       st.lists(st.tuples(st.floats(0, 1), st.integers(5, 120)), max_size=12))
def test_rf_glitches_never_make_a_code_not_sent(code, seed, base, glitches):
    train = P.ev1527(code, frames=5, base=base, jitter_pct=10, rng=P.Rng(seed))
    ts = P.toggles(train, P.RF_IDLE)
    span = P.end(train)
    for where, width in glitches:
        g = int(where * span)
        ts += [g, g + width]
    for c in decode(EV1527, P.from_toggles(ts, P.RF_IDLE)):
        assert c == code


@given(rf_codes, rf_codes, st.integers(0, 400000), st.integers(250, 450), st.integers(1, 10**6))
def test_two_fobs_at_once_make_only_their_codes(a, b, offset, base_b, seed):
    rng = P.Rng(seed)
    ta = P.ev1527(a, frames=6, jitter_pct=10, rng=rng)
    tb = P.ev1527(b, t0=offset, frames=6, base=base_b, jitter_pct=10, rng=rng)
    for c in decode(EV1527, P.either(ta, tb, P.RF_IDLE)):
        assert c in (a, b)


@given(nec_codes, nec_codes, st.integers(0, 600000), st.integers(0, 6), st.integers(0, 6),
       st.integers(1, 10**6))
def test_two_ir_remotes_at_once_make_only_their_codes(a, b, offset, ra, rb, seed):
    ta = nec_press(a, 0, ra, seed, 8)
    tb = nec_press(b, offset, rb, seed + 1, 8)
    sent = (nec_expected(a), nec_expected(b), REPEAT)
    for c in decode(NEC, P.either(ta, tb, P.NEC_IDLE)):
        assert c in sent


# --- the key adapter --------------------------------------------------------------------------

def _presses(draw_list, kind):
    from test_remote_keys import IR_CODES, RF_CODES, Rig
    from scoreboard.ui import keys as K

    codes = IR_CODES if kind == 'ir' else RF_CODES
    by_name = {}
    for c, n in codes.items():
        by_name[n.upper().replace('-', '_')] = c
    names = sorted(by_name)
    rig = Rig(NEC if kind == 'ir' else EV1527, codes,
              P.NEC_IDLE if kind == 'ir' else P.RF_IDLE)
    t = 50
    want = []
    for which, hold, gap in draw_list:
        name = names[which % len(names)]
        code = by_name[name]
        if kind == 'ir':
            rig.send(P.nec(code, t0=t * 1000, repeats=hold // 108))
            t += 70 + (hold // 108) * 108
        else:
            frames = 4 + hold * 1000 // (128 * 350)
            rig.send(P.ev1527(code, t0=t * 1000, frames=frames))
            t += frames * 128 * 350 // 1000
        want.append(K.BIT(K.index(name)))
        t += gap
    rig.run(t + 600)
    return rig, want


# Gaps either short (a fob's same key again inside the release time is the same press) or
# clearly longer than the release time.
press_lists = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1500),
                                 st.one_of(st.integers(0, 80), st.integers(300, 600))),
                       min_size=1, max_size=6)


@given(press_lists, st.sampled_from(('ir', 'rf')))
def test_each_press_is_its_key_down_once(draws, kind):
    # Presses of bound keys, held for a while, one after another (gaps from none at all):
    # each makes its key go down exactly once, no other key ever goes down, and the remote
    # ends with every key up.
    rig, want = _presses(draws, kind)
    downs = []
    prev = 0
    for _, b in rig.changes:
        new = b & ~prev
        if new:
            downs.append(new)
        prev = b
    assert prev == 0
    if kind == 'ir':
        assert downs == want  # every NEC frame is a fresh press
    else:
        # EV1527: the same key again within the release time is one long press
        merged = [w for i, w in enumerate(want) if i == 0 or want[i - 1] != w or
                  draws[i - 1][2] >= 300]
        assert downs == merged
