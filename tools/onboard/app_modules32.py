# tools/bench_app.py modules: where the firmware code figure goes, module by module, on the
# 32-bit WebAssembly port: the host runs this file cut at its `# -- step` lines, one call each,
# and at `# -- modules` three calls per module of its MODULE_ORDER (the reading, the import,
# a collection: that port frees an import's garbage only once its call has returned).
#   argv: BOARD
import gc
import os  # noqa: F401  (loaded with the harness)
import sys

import machine  # noqa: F401
import sim_engine  # noqa: F401
import virtual_board

BOARD = sys.argv[1]
_m = []


def measure_as(name):
    gc.collect()
    _m.append((name, gc.mem_alloc()))


# -- modules
# -- step
measure_as(BOARD)
# -- step
board = __import__(BOARD)
board.displays()
# -- step
gc.collect()
# -- step
measure_as('displays()')
# -- step
virtual_board.VirtualBoard(board)
# -- step
gc.collect()
# -- step
measure_as('chip model')
# -- step
t = 0
for i in range(1, len(_m)):
    d = _m[i][1] - _m[i - 1][1]
    t += d
    print('app (32-bit): %-28s %6d' % (_m[i][0], d))
print('app (32-bit): %-28s %6d' % ('firmware code + board + chips', t))
