# tools/bench_app.py: where the heap of a press-script run goes, live bytes after gc.collect()
# at each stage: the harness (stand-in machine, script engine), the firmware's code as the
# board loads it, the app's own objects after boot, the setup through the menu, and what 100
# played frames add.
#   app_breakdown.py LABEL BOARD FLASH BUDGETS(0|1) H32(0|1)
# The unix port runs the file whole. On the 32-bit WebAssembly port (tools/wasm32) the host
# cuts it at the `# -- step` lines into calls of their own, the `# -- frames` part into one
# call per frame: that port frees garbage only once the call that made it has returned.
# Issue 26's budgets count on the 32-bit port's live heap, for pico_tm1637: the firmware code,
# board and chip model at most 40 KB, 100 frames at most 2 KB, the whole 100-frame run at most
# 72 KB. With H32 the figures are also printed on an `H32` line, for make bench's summary.
#
# The virtual buzzer (tools/virtual/pwm.py) records every tone the firmware plays, for the
# tests and the simulator's `tones`: about 240 bytes a frame on a 32-bit port (a click per
# tap, the chime per entry), the bench's own objects, not the board's. The record is dropped
# before each reading after the boot (the lists replaced, not cleared: on the WebAssembly port
# a cleared list's old items block still holds what it held), and its size after the frames is
# printed. On the 32-bit port even a dropped record stays in its reading (its collector is
# conservative), so there the buzzer records no tones from the setup on (PWM.record = False).
import gc
import os  # noqa: F401  (loaded with the harness, as the simulator needs it)
import sys

LABEL, BOARD, FLASH = sys.argv[1], sys.argv[2], sys.argv[3]
BUDGETS = sys.argv[4] == '1'
H32 = sys.argv[5:6] == ['1']
BUDGET_CODE = 40 * 1024
BUDGET_FRAMES = 2 * 1024
BUDGET_RUN = 72 * 1024
# After romfs_mount.py (the firmware in a ROMFS image): what the image holds in the heap, flash
# on a board, taken out of the whole run's figure.
IMAGE = globals().get('_IMAGE', 0)
_m = {}


def drop_records():
    for p in machine.PWM.instances:
        p.tones = []
    sim._tones_old = []


# -- step
gc.collect()
_m['t0'] = gc.mem_alloc()
# -- step
import machine  # noqa: E402
import sim_engine  # noqa: E402, F401
import virtual_board  # noqa: E402, F401
# the simulator's virtual IR/RF receiver (its pin, pulse trains, the clock): the harness's,
# loaded when it boots a board with a receiver, so counted here, not in the boot
import irqoff  # noqa: E402, F401
import virtual.irqpin  # noqa: E402, F401
import virtual.pulses  # noqa: E402, F401
import virtual.receiver  # noqa: E402, F401
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
machine.PWM.record = not H32
app_play.setup(sim)
# -- step
drop_records()
# -- step
gc.collect()
_m['t3s'] = gc.mem_alloc()
# -- frames
for i in range(100):
    app_play.frame(sim, i)
# -- step
gc.collect()
_m['t4r'] = gc.mem_alloc()
# -- step
drop_records()
# -- step
gc.collect()
_m['t4'] = gc.mem_alloc()
# -- step
app_play.check(sim)
m = _m
total = m['t4'] - IMAGE
print('%s live heap on %s: harness %d, firmware code + board + chip model %d, app objects '
      'after boot %d, the setup through the menu (target 99) %d, 100 frames %d (total %d%s; %s)'
      % (LABEL, BOARD, m['t1'] - m['t0'], m['t2'] - m['t1'], m['t3'] - m['t2'],
         m['t3s'] - m['t3'], m['t4'] - m['t3s'], total,
         ', the ROMFS image\'s %d bytes not counted' % IMAGE if IMAGE else '',
         'the virtual buzzer recording no tones' if H32 else
         'the record of the tones the virtual buzzer played in them, %d bytes more, dropped '
         'before the reading' % (m['t4r'] - m['t4'])))
if H32:
    print('H32', BOARD, m['t1'] - m['t0'], m['t2'] - m['t1'], m['t3'] - m['t2'],
          m['t4'] - m['t3s'], total, m['t4r'] - m['t4'], m['t3s'] - m['t3'])
if BUDGETS:
    for what, got, goal in (('firmware code + board + chip model', m['t2'] - m['t1'],
                             BUDGET_CODE), ('100 frames', m['t4'] - m['t3s'], BUDGET_FRAMES),
                            ('whole 100-frame run', total, BUDGET_RUN)):
        print('%s budget on %s (issue 26): %s %d bytes, goal at most %d: %s' % (
            LABEL, BOARD, what, got, goal,
            'met' if got <= goal else 'over by %d' % (got - goal)))
# -- step
# How much of the boot figure is the harness's chips: the simulator built the board's virtual
# chips (virtual_board.VirtualBoard) with the app; a second set, built now and kept, costs as
# much again.
_chips = virtual_board.VirtualBoard(sim.board)
# -- step
gc.collect()
_m['t5'] = gc.mem_alloc()
# -- step
print('%s the virtual chips the simulator built with the app on %s (the harness\'s, counted in '
      'the boot figure): %d' % (LABEL, BOARD, _m['t5'] - _m['t4']))
if H32:
    print('H32C', BOARD, _m['t5'] - _m['t4'])
