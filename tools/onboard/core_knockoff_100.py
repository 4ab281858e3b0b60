# tools/bench_core.py: a 100-frame knock-off game to 99, undone and redone (its smallest heap).
from scoreboard.core import new_game

g = new_game('knockoff', target=99)
for i in range(100):
    if i % 2:
        g.enter_frame(blue=1)
    else:
        g.enter_frame(red=1)
assert g.frame == 101 and not g.over
g.undo()
g.redo()
print('OK')
