# tools/bench_app.py: a 100-frame game through press scripts (its smallest heap).
#   app_game_100.py BOARD FLASH [no-policy]
# no-policy: without the firmware's heap policy (scoreboard.prepare_heap: collect every few KB
# while loading), to show what the policy is worth. The host puts the compiled boards,
# firmware, engine and virtual parts on the path.
import sys

import app_play

board, flash = sys.argv[1], sys.argv[2]
if 'no-policy' in sys.argv[3:]:
    import scoreboard
    scoreboard.prepare_heap = lambda: None
sim = app_play.new_sim(board, flash)
app_play.setup(sim)
for i in range(100):
    app_play.frame(sim, i)
app_play.check(sim)
print('OK')
