# tools/bench_app.py: the firmware code figure with the firmware and board files in a ROMFS
# image (vfs.VfsRom) on the 32-bit WebAssembly port: bytecode and constants run in place, as
# frozen bytecode or a ROMFS partition would on a board; the image is read before the first
# reading, so it is not counted (on a board it is flash). What is left is the objects every
# module, function and class needs. The host runs it cut at its `# -- step` lines.
#   argv: BOARD
import gc
import sys

import vfs

with open('/romfs/code.img', 'rb') as f:
    _img = f.read()
vfs.mount(vfs.VfsRom(_img), '/rom')
sys.path.insert(0, '/rom')   # (the image is where the firmware's modules are)
import machine  # noqa: E402, F401
import virtual_board  # noqa: E402, F401

BOARD = sys.argv[1]
_m = {}
# -- step
gc.collect()
_m['t1'] = gc.mem_alloc()
# -- step
import app_firmware  # noqa: E402

app_firmware.load_board(BOARD)
# -- step
gc.collect()
# -- step
gc.collect()
_m['t2'] = gc.mem_alloc()
# -- step
print('app (32-bit): firmware code + board + chip model with the bytecode in place (ROMFS '
      'image of %d bytes, not counted): %d' % (len(_img), _m['t2'] - _m['t1']))
