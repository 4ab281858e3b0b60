# tools/bench_app.py: where the heap of a press-script run goes, live bytes after gc.collect()
# at each stage: the harness (stand-in machine, script engine), the firmware's code as the
# board loads it, the app's own objects after boot, and what a played game adds.
#   app_breakdown.py LABEL BOARD FLASH BUDGETS(0|1)
# The unix port runs the file whole. On the 32-bit WebAssembly port (tools/wasm32) the host
# cuts it at the `# -- step` lines into calls of their own, the `# -- frames` part into one
# call per frame: that port frees garbage only once the call that made it has returned.
# Issue 10's budgets count on the 32-bit port's live heap, for pico_tm1637: the firmware code,
# board and chip model at most 40 KB, the whole 100-frame run at most 60 KB.
import gc
import os  # noqa: F401  (loaded with the harness, as the simulator needs it)
import sys

LABEL, BOARD, FLASH = sys.argv[1], sys.argv[2], sys.argv[3]
BUDGETS = sys.argv[4] == '1'
BUDGET_CODE = 40 * 1024
BUDGET_RUN = 60 * 1024
_m = {}
# -- step
gc.collect()
_m['t0'] = gc.mem_alloc()
# -- step
import machine  # noqa: E402, F401
import sim_engine  # noqa: E402, F401
import virtual_board  # noqa: E402, F401
# -- step
gc.collect()
_m['t1'] = gc.mem_alloc()
# -- step
import app_firmware  # noqa: E402

app_firmware.load_board(BOARD)
# -- step
gc.collect()
_m['t2'] = gc.mem_alloc()
# -- step
import app_play  # noqa: E402

sim = app_play.new_sim(BOARD, FLASH)
# -- step
gc.collect()
_m['t3'] = gc.mem_alloc()
# -- step
app_play.setup(sim)
# -- frames
for i in range(100):
    app_play.frame(sim, i)
# -- step
gc.collect()
_m['t4'] = gc.mem_alloc()
# -- step
app_play.check(sim)
m = _m
print('%s live heap on %s: harness %d, firmware code + board + chip model %d, app objects '
      'after boot %d, 100 frames %d (total %d)' % (LABEL, BOARD, m['t1'] - m['t0'],
      m['t2'] - m['t1'], m['t3'] - m['t2'], m['t4'] - m['t3'], m['t4']))
if BUDGETS:
    for what, got, goal in (('firmware code + board + chip model', m['t2'] - m['t1'],
                             BUDGET_CODE), ('whole 100-frame run', m['t4'], BUDGET_RUN)):
        print('%s budget on %s (issue 10): %s %d bytes, goal at most %d: %s' % (
            LABEL, BOARD, what, got, goal,
            'met' if got <= goal else 'over by %d' % (got - goal)))
