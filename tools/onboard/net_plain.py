# tools/bench_net.py: the board without its network part, the App as app.main runs it: the
# heap it adds over 200 passes.
import gc

from net_common import attach, flash
import scoreboard

scoreboard.prepare_heap()
import wlan_tm1637 as board  # noqa: E402
from scoreboard.app import App  # noqa: E402
from scoreboard.store import Store  # noqa: E402

chips = attach(board)
store = Store(flash('plain'))
gc.collect()
base = gc.mem_alloc()
app = App(board, store, 0)
for i in range(200):
    app.step(i * 5)
gc.collect()
print('HEAP plain', gc.mem_alloc() - base)
