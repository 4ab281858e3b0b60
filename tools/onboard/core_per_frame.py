# tools/bench_core.py: the bytes a committed frame allocates, garbage included (50 frames with
# the collector off), and the bytes it keeps (49 frames, collected before and after).
import gc

from scoreboard.core import new_game

g = new_game('knockoff', target=99)
g.enter_frame(red=1)
gc.collect()
gc.disable()
a = gc.mem_alloc()
for _ in range(50):
    g.enter_frame(blue=1)
b = gc.mem_alloc()
gc.enable()
gc.collect()
c = gc.mem_alloc()
for _ in range(49):
    g.enter_frame(red=1)
gc.collect()
d = gc.mem_alloc()
print('OK', (b - a) // 50, (d - c) // 49)
