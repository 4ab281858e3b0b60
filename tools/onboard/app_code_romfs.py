# tools/bench_app.py: the same imports as app_code_files.py from a ROMFS image (argv[1], built
# by `mpremote romfs build`) mounted with vfs.VfsRom: bytecode and constants stay in the image
# and run in place, as on a board whose MicroPython has a ROMFS partition.
import gc
import sys

import vfs

with open(sys.argv[1], 'rb') as f:
    img = f.read()
vfs.mount(vfs.VfsRom(img), '/rom')  # type: ignore[attr-defined]  # newer than the stubs
sys.path.insert(0, '/rom')   # (the board's own path: the image is where its modules are)
gc.collect()
a = gc.mem_alloc()
import scoreboard.app  # noqa: E402, F401  (in this order, as a TM1637 board loads them)
import scoreboard.store  # noqa: E402, F401
import scoreboard.core.knockoff  # noqa: E402, F401
import scoreboard.render.segments  # noqa: E402, F401
import scoreboard.drivers.tm1637  # noqa: E402, F401

gc.collect()
print('romfs', gc.mem_alloc() - a, len(img))
