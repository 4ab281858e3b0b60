# tools/bench_core.py: a whole shove ha'penny game, bed after bed, undone and redone at the end
# (its smallest heap).
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
g.undo()
g.redo()
print('OK', g.winner)
