# The soak (issue 26): GAMES knock-off games of FRAMES frames each, played through press scripts
# on the virtual pico_tm1637 (IR receiver and buzzer included) under the MicroPython unix port,
# on the mpy-cross build. After each bank the live heap is read (gc.collect(), gc.mem_alloc()):
# it must stay flat, nothing kept per frame or per game beyond the game in play and the one
# set-aside game. The virtual buzzer records every tone the firmware plays (tools/virtual/pwm.py,
# for the tests and the simulator's `tones`): that record is the bench's own, not the board's,
# so it is dropped before each reading and its size printed beside the figures.
#
#   python tools/bench_soak.py [GAMES [FRAMES]]     (default 100 games of 100 frames)
import os
import sys

from mpy_tools import ROOT, compile_tree, onboard, run  # noqa: E402  (tools/: this script's folder)

BOARD = 'pico_tm1637'

# The run is tools/onboard/soak.py (MicroPython), with the folders it needs ahead on its path.


def soak(games=100, frames=100, build=None, timeout=3600):
    """[(game, live bytes after its bank, tones recorded in it)] and the live heap before the
    first game, or a reason string."""
    tools = os.path.join(ROOT, 'build', 'bench-soak-tools')
    if build is None:
        build = os.path.join(ROOT, 'build', 'bench-soak')
        compile_tree(os.path.join(ROOT, 'firmware'), build)
    compile_tree(os.path.join(ROOT, 'tools', 'virtual'), os.path.join(tools, 'virtual'))
    compile_tree(os.path.join(ROOT, 'boards'), os.path.join(tools, 'boards'))
    import shutil
    import subprocess
    from mpy_tools import MPY_CROSS
    subprocess.run([MPY_CROSS, '-o', os.path.join(tools, 'sim_engine.mpy'),
                    os.path.join(ROOT, 'tools', 'sim_engine.py')], check=True)
    shutil.rmtree(os.path.join(tools, 'virtual', '__pycache__'), ignore_errors=True)
    path = [os.path.join(tools, 'virtual'), tools, build, os.path.join(tools, 'boards')]
    r = run(onboard('soak'), path, timeout=timeout,
            args=[BOARD, '/tmp/sb-bench-soak-%d' % os.getpid(), games, frames])
    if r.returncode or 'OK' not in r.stdout.split():
        return 'the soak failed: ' + (r.stdout + r.stderr)[-1500:]
    start = None
    banks = []
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ['START']:
            start = int(parts[1])
        elif parts[:1] == ['BANK']:
            banks.append((int(parts[1]), int(parts[2]), int(parts[3])))
    return start, banks


def main():
    args = [int(a) for a in sys.argv[1:3]]
    games = args[0] if args else 100
    frames = args[1] if len(args) > 1 else 100
    got = soak(games, frames)
    if isinstance(got, str):
        print('soak: ' + got)
        return 1
    start, banks = got
    live = [b[1] for b in banks]
    after = live[1:] or live        # the first bank loads what a game over and a bank need
    print('soak on %s (64-bit unix port, .mpy): %d games of %d frames (%d frames), live heap '
          'after each bank, the bench\'s tone record dropped (%d tones a game):'
          % (BOARD, games, frames, games * frames, banks[0][2]))
    print('  before the first game %d; after bank 1 %d; after banks 2..%d: lowest %d, highest %d '
          '(spread %d bytes); after the last bank %d (%+d from bank 2)'
          % (start, live[0], len(live), min(after), max(after), max(after) - min(after),
             live[-1], live[-1] - after[0]))
    step = max(1, len(live) // 10)
    print('  every %dth bank: %s' % (step, ' '.join(str(x) for x in live[::step])))
    per_frame = (live[-1] - after[0]) / float(max(1, (len(after) - 1) * frames))
    print('  kept per frame over the soak: %.2f bytes (goal 0: nothing kept per frame beyond the '
          'game in play)' % per_frame)
    from bench_summary import note
    note('soak', {'games': games, 'frames': frames, 'spread': max(after) - min(after),
                  'drift': live[-1] - after[0]})
    return 0


if __name__ == '__main__':
    sys.exit(main())
