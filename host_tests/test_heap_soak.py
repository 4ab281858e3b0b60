# runs-on: micropython
# Nothing is kept per frame or per game (issue 26): short games of knock-off played through press
# scripts on pico_tm1637 (its IR receiver and buzzer included), the live heap read after each
# bank, stays within a small bound. The long version is a bench: tools/bench_soak.py (100 games
# of 100 frames). Under CPython the games are played and checked, the heap is not measured.
import gc

import app_probe

GAMES = 8
BOUND = 512     # bytes the live heap after a bank may wander (the collector's rounding)


def game():
    # red 4 four times: 16, past the default line of 15, the game over at its 4th frame
    return (['tap RED'] * 4 + ['tap OK']) * 4


def drop_tone_record():
    # the virtual buzzer's record of every tone played is the test's, not the board's
    import machine
    for p in machine.PWM.instances:
        p.tones = []


def test_the_live_heap_after_each_bank_stays_flat_on_pico_tm1637():
    sim = app_probe.new_sim('pico_tm1637')
    app_probe.play(sim, ['tap OK'])
    measure = hasattr(gc, 'mem_alloc')
    live = []
    for g in range(GAMES):
        app_probe.play(sim, game())
        v = sim.app.ctl.view
        assert v['screen'] == 'over' and v['winner'] == 'red', v
        app_probe.play(sim, ['tap OK'])          # bank it: games won +1, the next setup
        v = sim.app.ctl.view
        assert v['screen'] == 'setup' and v['games']['red'] == g + 1, v
        if measure:
            drop_tone_record()
            sim._tones_old = []
            gc.collect()
            live.append(gc.mem_alloc())
        app_probe.play(sim, ['tap OK'])          # start the next game
    if measure:
        later = live[2:]      # the first banks load what a game over and a bank need
        assert max(later) - min(later) <= BOUND, live
