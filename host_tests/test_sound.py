# The buzzer's tone scheduler against a PWM that records what it plays: timed tables on a loop
# clock, tunes cutting each other off by rank, the sound switch, and no allocation.
# runs-on: micropython
from scoreboard import sound
from scoreboard.sound import Sound
from scoreboard.ui.ticks import PERIOD, add
from virtual.pwm import PWM


class Clock:
    def __init__(self, ms=0):
        self.ms = ms

    def __call__(self):
        return self.ms


def rig(start=0, on=True):
    clock = Clock(start)
    pwm = PWM(None, clock=clock)
    return clock, pwm, Sound(pwm, on)


def run(clock, snd, ms, step=1):
    end = add(clock.ms, ms)
    while clock.ms != end:
        clock.ms = add(clock.ms, step)
        snd.update(clock.ms)


def notes(tune, start=0):
    """The tones a tune should record, rests skipped, from `start`."""
    out = []
    t = start
    for hz, ms in tune:
        if hz:
            out.append((hz, t, ms))
        t += ms
    return out


def test_each_sound_plays_its_tune_to_the_end():
    for name, tune in (('click', sound.CLICK), ('chime', sound.CHIME), ('win', sound.WIN),
                       ('refuse', sound.REFUSE)):
        clock, pwm, snd = rig(1000)
        getattr(snd, name)(clock.ms)
        assert snd.playing
        run(clock, snd, 2000)
        assert pwm.tones == notes(tune, 1000), (name, pwm.tones)
        assert not snd.playing and pwm.sounding == 0


def test_the_win_tune_goes_up_and_the_refusal_is_low():
    hz = [f for f, _ in sound.WIN if f]
    assert hz == sorted(hz) and len(hz) >= 3
    assert sound.REFUSE[0][0] < 400 < sound.CHIME[0][0]
    assert sum(ms for _, ms in sound.CLICK) <= 10  # a click, not a beep


def test_a_late_loop_stretches_notes_by_at_most_a_pass():
    clock, pwm, snd = rig(0)
    snd.win(0)
    run(clock, snd, 2000, step=5)
    want = notes(sound.WIN)
    assert [t[0] for t in pwm.tones] == [w[0] for w in want]
    for (hz, _t0, d), (_, _, wd) in zip(pwm.tones, want):
        assert wd <= d < wd + 5, (hz, d, wd)


def test_a_chime_cuts_the_click_off():
    clock, pwm, snd = rig(0)
    snd.click(0)
    run(clock, snd, 3)
    snd.chime(clock.ms)
    run(clock, snd, 1000)
    assert pwm.tones[0] == (sound.CLICK[0][0], 0, 3)
    assert pwm.tones[1:] == notes(sound.CHIME, 3)


def test_a_click_during_the_win_tune_is_dropped():
    clock, pwm, snd = rig(0)
    snd.win(0)
    run(clock, snd, 50)
    snd.click(clock.ms)
    snd.chime(clock.ms)
    run(clock, snd, 2000)
    assert pwm.tones == notes(sound.WIN)


def test_a_win_cuts_a_chime_off_and_a_refusal_a_click():
    clock, pwm, snd = rig(0)
    snd.chime(0)
    run(clock, snd, 10)
    snd.win(clock.ms)
    run(clock, snd, 2000)
    assert pwm.tones == [(sound.CHIME[0][0], 0, 10)] + notes(sound.WIN, 10)
    clock, pwm, snd = rig(0)
    snd.click(0)
    snd.refuse(0)
    run(clock, snd, 1000)
    assert pwm.tones == notes(sound.REFUSE)


def test_sound_off_plays_nothing_and_silences_what_plays():
    clock, pwm, snd = rig(0, on=False)
    snd.click(0)
    snd.win(0)
    run(clock, snd, 1000)
    assert pwm.tones == [] and not snd.playing
    clock, pwm, snd = rig(0)
    snd.win(0)
    run(clock, snd, 60)
    snd.on = False
    assert pwm.sounding == 0 and not snd.playing
    run(clock, snd, 1000)
    assert pwm.tones == [(sound.WIN[0][0], 0, 60)]
    snd.on = True
    snd.click(clock.ms)
    run(clock, snd, 100)
    assert pwm.last_tone == (sound.CLICK[0][0], 1060, sound.CLICK[0][1])


def test_across_the_tick_wrap():
    clock, pwm, snd = rig(PERIOD - 200)
    snd.win(clock.ms)
    run(clock, snd, 2000)
    assert [(hz, d) for hz, _, d in pwm.tones] == [(hz, d) for hz, _, d in notes(sound.WIN)]
    assert not snd.playing


def test_update_never_waits():
    # Every call returns at once: the tune only moves when the clock has moved.
    clock, pwm, snd = rig(0)
    snd.win(0)
    for _ in range(1000):
        snd.update(0)
    assert len(pwm.tones) == 1 and snd.playing


def test_playing_allocates_nothing():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return  # CPython: the unix port checks it

    class Sink:  # a PWM that records nothing (the virtual one keeps a list)
        def __init__(self):
            self.hz = 0
            self.duty = 0

        def freq(self, hz):
            self.hz = hz

        def duty_u16(self, d):
            self.duty = d

    pwm = Sink()
    snd = Sound(pwm)
    snd.win(0)
    snd.update(500)
    heap_lock()
    try:
        snd.click(1000)
        snd.update(1001)
        snd.chime(1002)
        t = 1002
        while t < 3000:
            snd.update(t)
            t += 5
        snd.win(t)
        snd.update(t + 130)
        snd.refuse(t + 200)
    finally:
        heap_unlock()
    assert pwm.hz == sound.WIN[1][0] and pwm.duty == Sound.DUTY


def test_from_board():
    class Board:
        BUZZER = 16

    class Plain:
        pass

    class Pin:
        def __init__(self, n):
            self.n = n

    clock = Clock(0)
    PWM.default_clock = clock
    try:
        snd = sound.from_board(Board, PWM, Pin, on=True)
    finally:
        PWM.default_clock = None
    assert sound.from_board(Plain, PWM, Pin) is None
    assert snd.on and PWM.instances[-1].pin.n == 16
    snd.chime(0)
    run(clock, snd, 500)
    assert PWM.instances[-1].tones == notes(sound.CHIME)
    assert not sound.from_board(Board, PWM, Pin, on=False).on
