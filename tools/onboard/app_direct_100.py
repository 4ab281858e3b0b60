# tools/bench_app.py: 100 frames on the bare board without the press-script harness, the
# virtual machine's pins driven directly, so the heap is the firmware's own (plus the stand-in
# `machine`). The host puts the compiled boards, firmware and virtual parts on the path.
import os

import machine

d = '/tmp/sb-bench-direct'
try:
    os.mkdir(d)
except OSError:
    for n in os.listdir(d):
        os.remove(d + '/' + n)
import bare  # noqa: E402
import scoreboard  # noqa: E402

scoreboard.prepare_heap()      # as main.py does
from scoreboard.app import App  # noqa: E402
from scoreboard.store import Store  # noqa: E402

app = App(bare, Store(d), 0)
t = 0


def tap(pin, ms=80):
    global t
    machine.drive(pin, 0)
    for _ in range(ms // 5):
        t += 5
        app.step(t)
    machine.drive(pin, None)
    for _ in range(60):
        t += 5
        app.step(t)


tap(12)
for i in range(100):
    # a point pending, cleared with a long OK, then the frame entered blank: 100 frames that
    # exercise pending, undo-or-clear and commit without ending the game at 15
    tap(10 if i % 2 else 11)
    tap(12, 1000)
    tap(12)
v = app.ctl.view
assert v['frame'] == 101, v
print('OK', v['frame'])
