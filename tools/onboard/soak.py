# tools/bench_soak.py: GAMES knock-off games of FRAMES frames through press scripts on BOARD,
# the live heap read after each bank (the virtual buzzer's tone record, the bench's own, dropped
# before each reading). The host puts the compiled boards, firmware, engine and virtual parts
# on the path.
#   soak.py BOARD FLASH GAMES FRAMES
import gc
import os
import sys

import machine
import sim_engine

BOARD, FLASH = sys.argv[1], sys.argv[2]
GAMES, FRAMES = int(sys.argv[3]), int(sys.argv[4])


class Null:
    def write(self, s):
        pass


try:
    os.mkdir(FLASH)
except OSError:
    for n in os.listdir(FLASH):
        os.remove(FLASH + '/' + n)
sim = sim_engine.Sim(BOARD, FLASH, Null())
BUTTONS = sim.board.BUTTONS


def play(lines):
    for _, op, args in sim_engine.parse(lines, BUTTONS):
        sim.run(op, args)


def game_lines(frames):
    # frames - 2 frames of which 14, evenly spread, score one point (red and blue in turn: 7
    # each), the others blank; then red 4 and red 4: 15, the game is over at its last frame
    # (frames >= 16)
    out = []
    k = 0
    step = (frames - 2) // 14
    for i in range(1, frames - 1):
        if i % step == 0 and k < 14:
            k += 1
            out.append('tap ' + ('RED' if k % 2 else 'BLUE'))
        out.append('tap OK')
    for _ in range(2):
        out += ['tap RED'] * 4 + ['tap OK']
    return out


def drop_records():
    # the virtual buzzer's record of the tones played (the bench's, not the firmware's)
    n = 0
    for p in machine.PWM.instances:
        n += len(p.tones)
        p.tones = []        # (replaced, not cleared: see app_breakdown.py)
    sim._tones_old = []
    return n


play(['tap OK'])                   # setup: start the first game
drop_records()
gc.collect()
print('START', gc.mem_alloc())
lines = game_lines(FRAMES)
for g in range(GAMES):
    play(lines)
    v = sim.app.ctl.view
    assert v['screen'] == 'over' and v['frame'] == FRAMES + 1, v
    play(['tap OK'])               # bank: games won +1, the new game's setup
    v = sim.app.ctl.view
    assert v['screen'] == 'setup' and v['games']['red'] == g + 1, v
    tones = drop_records()
    gc.collect()
    print('BANK', g + 1, gc.mem_alloc(), tones)
    play(['tap OK'])               # start the next game
print('OK')
