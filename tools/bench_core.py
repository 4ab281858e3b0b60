# Budgets of the scoring core, measured on mpy-cross output under the MicroPython unix port:
# the smallest heap that plays a 100-frame knock-off game and a whole shove ha'penny game, and
# the bytes a committed frame allocates.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpy_tools import ROOT, compile_tree, run, smallest_heap  # noqa: E402

KNOCKOFF_100 = '''
from scoreboard.core import new_game
g = new_game('knockoff', target=99)
for i in range(100):
    if i % 2:
        g.enter_frame(blue=1)
    else:
        g.enter_frame(red=1)
assert g.frame == 101 and not g.over
g.undo(); g.redo()
print('OK')
'''

SHOVE_GAME = '''
from scoreboard.core import new_game
g = new_game('shovehapenny')
bed = 1
while not g.over:
    for _ in range(5):
        if g.over:
            break
        g.mark(bed)
        bed = bed % 9 + 1
    if not g.over:
        g.end_turn()
g.undo(); g.redo()
print('OK', g.winner)
'''

PER_FRAME = '''
import gc
from scoreboard.core import new_game
g = new_game('knockoff', target=99)
g.enter_frame(red=1)
gc.collect()
gc.disable()
a = gc.mem_alloc()
for i in range(50):
    g.enter_frame(blue=1)
b = gc.mem_alloc()
gc.enable()
gc.collect()
c = gc.mem_alloc()
for i in range(49):
    g.enter_frame(red=1)
gc.collect()
d = gc.mem_alloc()
print('OK', (b - a) // 50, (d - c) // 49)
'''


def main():
    build = os.path.join(ROOT, 'build', 'bench')
    n = compile_tree(os.path.join(ROOT, 'firmware'), build)
    path = [build]
    print('core: %d modules compiled with mpy-cross' % n)
    for name, script in (('100-frame knock-off', KNOCKOFF_100),
                         ("whole shove ha'penny game", SHOVE_GAME)):
        heap = smallest_heap(script, path)
        print('core: smallest heap for a %s: %s bytes (goal 16384)' % (name, heap))
    r = run(PER_FRAME, path)
    parts = r.stdout.split()
    if r.returncode or parts[:1] != ['OK']:
        print('core: per-frame measurement failed:', r.stdout, r.stderr)
        return 1
    print('core: bytes allocated per committed frame: %s (garbage included), %s retained '
          '(the undo log entry)' % (parts[1], parts[2]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
