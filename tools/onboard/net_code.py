# tools/bench_net.py: the code of the network part alone, as a board loads it from .mpy files
# (frozen with manifest.py, it stays in flash instead): microdot, scoreboard.net, the page.
import gc

import net_common  # noqa: F401  (the harness, loaded before the readings)
import scoreboard

scoreboard.prepare_heap()
import scoreboard.app  # noqa: E402, F401
import scoreboard.store  # noqa: E402, F401
import scoreboard.ui.controller  # noqa: E402, F401

gc.collect()
a = gc.mem_alloc()
import microdot  # noqa: E402, F401

gc.collect()
b = gc.mem_alloc()
import scoreboard.net.run  # noqa: E402, F401
import scoreboard.net.wifi  # noqa: E402, F401
import scoreboard.net.web  # noqa: E402, F401
import scoreboard.net.pairing  # noqa: E402, F401

gc.collect()
c = gc.mem_alloc()
import scoreboard.net.page  # noqa: E402, F401

gc.collect()
print('HEAP code', b - a, c - b, gc.mem_alloc() - c)
