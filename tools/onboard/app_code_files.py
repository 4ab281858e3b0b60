# tools/bench_app.py: the live heap the firmware's code for a TM1637 board takes, imported from
# the .mpy files of the build (the host puts the build on the path).
import gc

gc.collect()
a = gc.mem_alloc()
import scoreboard.app  # noqa: E402, F401  (in this order, as a TM1637 board loads them)
import scoreboard.store  # noqa: E402, F401
import scoreboard.core.knockoff  # noqa: E402, F401
import scoreboard.render.segments  # noqa: E402, F401
import scoreboard.drivers.tm1637  # noqa: E402, F401

gc.collect()
print('files', gc.mem_alloc() - a)
