# Brightness auto from the light sensor: the integer filter and the hysteresis against noisy,
# ramping and stepping readings on a virtual ADC; no flicker at a threshold.
# runs-on: micropython
from scoreboard.light import Light
from scoreboard.ui.ticks import PERIOD, add
from virtual.adc import ADC
from virtual.pulses import Rng

DARK = 3000
BRIGHT = 45000
STEP = (BRIGHT - DARK) // 8


def rig(value, noise=0, seed=1, start=0, **kw):
    adc = ADC(value=value, noise=noise, rng=Rng(seed))
    return adc, Light(adc, DARK, BRIGHT, **kw), [start]


def run(light, now, ms, step=5):
    """Loop passes for `ms`; the levels seen, one entry per change."""
    seen = []
    end = add(now[0], ms)
    while now[0] != end:
        now[0] = add(now[0], step)
        lv = light.update(now[0])
        if not seen or seen[-1] != lv:
            seen.append(lv)
    return seen


def test_levels_span_dark_to_bright():
    for value, want in ((0, 1), (DARK, 1), (DARK + STEP - 1, 1), (DARK + STEP + STEP // 2, 2),
                        (DARK + 4 * STEP + STEP // 2, 5), (BRIGHT - 1, 8), (BRIGHT, 8),
                        (65535, 8)):
        adc, light, now = rig(value)
        assert run(light, now, 50) == [want], (value, want)


def test_samples_every_100_ms_not_every_pass():
    adc, light, now = rig(20000)
    run(light, now, 1000)
    assert 10 <= adc.reads <= 11


def test_a_noisy_reading_at_a_threshold_never_flickers():
    for k in range(2, 9):
        edge = DARK + (k - 1) * STEP
        for start in (edge - STEP // 2, edge + STEP // 2):  # come from below and from above
            adc, light, now = rig(start, noise=STEP // 5, seed=k)
            run(light, now, 3000)
            adc.value = edge  # then sit exactly at the boundary, noise on top, for 10 min
            seen = run(light, now, 600000, step=20)
            assert len(seen) <= 2, (k, start, seen)  # at most the one change to settle


def test_noise_of_a_third_of_a_step_never_flickers_anywhere():
    rng_seed = 3
    v = DARK - STEP
    while v < BRIGHT + STEP:
        adc, light, now = rig(v, noise=STEP // 3, seed=rng_seed)
        run(light, now, 3000)
        seen = run(light, now, 60000, step=10)
        assert len(seen) == 1 or (len(seen) == 2 and abs(seen[0] - seen[1]) == 1), (v, seen)
        v += STEP // 7
        rng_seed += 1


def test_a_slow_ramp_steps_through_every_level_once_each_way():
    adc, light, now = rig(0, noise=STEP // 6, seed=9)
    run(light, now, 2000)
    ups = []
    v = 0
    while v <= 65535:  # dusk to bright over about 2 min
        adc.value = v
        for lv in run(light, now, 200):
            if not ups or ups[-1] != lv:
                ups.append(lv)
        v += 100
    assert ups == [1, 2, 3, 4, 5, 6, 7, 8], ups
    downs = []
    while v >= 0:
        adc.value = v
        for lv in run(light, now, 200):
            if not downs or downs[-1] != lv:
                downs.append(lv)
        v -= 100
    assert downs == [8, 7, 6, 5, 4, 3, 2, 1], downs


def test_hysteresis_a_level_changes_further_up_than_it_changes_back():
    adc, light, now = rig(DARK + 2 * STEP - STEP // 2)  # level 2
    run(light, now, 2000)
    assert light.level == 2
    edge3 = DARK + 2 * STEP
    adc.value = edge3 + STEP // 4  # past the edge, inside the dead band
    run(light, now, 10000)
    assert light.level == 2
    adc.value = edge3 + STEP // 2
    run(light, now, 10000)
    assert light.level == 3
    adc.value = edge3 - STEP // 4
    run(light, now, 10000)
    assert light.level == 3
    adc.value = edge3 - STEP // 2
    run(light, now, 10000)
    assert light.level == 2


def test_a_flash_or_a_shadow_does_not_move_it():
    adc, light, now = rig(DARK + 3 * STEP + STEP // 2)  # level 4
    run(light, now, 2000)
    for spike in (65535, 0):
        adc.value = spike
        run(light, now, 100)  # one sample
        adc.value = DARK + 3 * STEP + STEP // 2
        assert run(light, now, 3000) == [4]


def test_a_lamp_switched_on_is_followed_within_four_seconds():
    adc, light, now = rig(DARK)
    run(light, now, 1000)
    adc.value = BRIGHT + STEP
    seen = run(light, now, 4000)
    assert seen[-1] == 8 and seen == sorted(seen)


def test_the_first_reading_is_taken_as_it_is():
    adc, light, now = rig(BRIGHT)
    assert light.update(0) == 8 and light.reading == BRIGHT and light.percent == 68


def test_inverted_wiring():
    adc, light, now = rig(65535 - DARK, invert=True)
    assert run(light, now, 50) == [1]
    adc.value = 0
    assert run(light, now, 4000)[-1] == 8


def test_across_the_tick_wrap():
    adc, light, now = rig(DARK, start=PERIOD - 1000)
    run(light, now, 500)
    adc.value = 65535
    assert run(light, now, 4000)[-1] == 8
    assert 44 <= adc.reads <= 46


def test_the_virtual_adc():
    adc = ADC(value=100)
    adc.set_percent(50)
    assert adc.read_u16() == 32767
    adc.set_percent(150)
    assert adc.read_u16() == 65535
    adc = ADC(value=10, noise=100, rng=Rng(1))
    assert all(0 <= adc.read_u16() <= 110 for _ in range(100))


def test_update_allocates_nothing():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return  # CPython: the unix port checks it

    class Fixed:
        def __init__(self):
            self.v = 30000

        def read_u16(self):
            return self.v

    adc = Fixed()
    light = Light(adc, DARK, BRIGHT)
    light.update(0)
    t = 0
    heap_lock()
    try:
        while t < 5000:
            t += 5
            if t == 2000:
                adc.v = 60000
            light.update(t)
    finally:
        heap_unlock()
    assert light.level == 8


def test_from_board():
    from scoreboard import light as light_mod

    class Board:
        LIGHT = 26

    class Plain:
        pass

    class Pin:
        def __init__(self, n):
            self.n = n

    made = []

    class VADC(ADC):
        def __init__(self, pin, **kw):
            ADC.__init__(self, pin, value=65535)
            made.append((pin.n, kw))

    class EspADC(VADC):
        ATTN_11DB = 3

    assert light_mod.from_board(Plain, VADC, Pin) is None
    assert light_mod.from_board(Board, VADC, Pin).update(0) == 8
    light_mod.from_board(Board, EspADC, Pin)
    assert made == [(26, {}), (26, {'atten': 3})]
