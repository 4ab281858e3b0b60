# tools/bench_app.py, tools/bench_net.py: the first calls of a 32-bit run whose firmware is in a
# ROMFS image (vfs.VfsRom, built by `mpremote romfs build`), mounted at /rom: its bytecode and
# constants run in place, as frozen bytecode or a ROMFS partition keeps them in a board's
# flash. The image is read into the heap here, before the run's first reading; what it holds
# there (_IMAGE, the image and its mount) is flash on a board, so the runs do not count it.
# The host runs it cut at its `# -- step` lines, as the run after it.
import gc

import vfs

gc.collect()
_before_image = gc.mem_alloc()
# -- step
with open('/romfs/code.img', 'rb') as f:
    _img = f.read()
vfs.mount(vfs.VfsRom(_img), '/rom')
# -- step
gc.collect()
_IMAGE = gc.mem_alloc() - _before_image
