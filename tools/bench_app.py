# Budgets of the whole app on the virtual board (issue 3), measured under the MicroPython unix
# port on mpy-cross output: the smallest heap that plays a 100-frame game through press
# scripts, the bytes one idle pass allocates, and the virtual time from a release to the chip.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpy_tools import ROOT, compile_tree, run, smallest_heap  # noqa: E402

GAME_100 = '''
import sys
sys.path.insert(0, %(tools)r)
import sim_engine
sim_engine.setup_path(%(root)r)
sys.path.insert(0, %(fw)r)
import os
d = '/tmp/sb-bench-app'
try:
    os.mkdir(d)
except OSError:
    for n in os.listdir(d):
        os.remove(d + '/' + n)
class Null:
    def write(self, s):
        pass
sim = sim_engine.Sim(%(board)r, d, Null())
lines = ['hold OK 3200', 'tap OK', 'hold BLUE 14000', 'hold OK 1000', 'tap OK']
for _, op, args in sim_engine.parse(lines, sim.board.BUTTONS):
    sim.run(op, args)
assert sim.app.ctl.view['target'] == 99, sim.app.ctl.view
for i in range(100):
    b = 'RED' if i %% 2 else 'BLUE'
    for _, op, args in sim_engine.parse(['tap ' + b, 'tap OK'], sim.board.BUTTONS):
        sim.run(op, args)
v = sim.app.ctl.view
assert v['frame'] == 101 and v['red'] == 50 and v['blue'] == 50, v
print('OK')
'''

IDLE = '''
import sys
sys.path.insert(0, %(tests)r)
sys.path.insert(0, %(fw)r)
import app_probe
for board in app_probe.boards():
    sim = app_probe.sim_for(board)
    b = app_probe.idle_bytes_per_step(sim)
    lat = app_probe.latency_ms(sim)
    print('app: %%-22s idle pass allocates %%s bytes; release to changed chip: %%s ms' %% (
        board, b, lat))
'''


def main():
    build = os.path.join(ROOT, 'build', 'bench-app')
    compile_tree(os.path.join(ROOT, 'firmware'), build)
    subst = {'tools': os.path.join(ROOT, 'tools'), 'root': ROOT, 'fw': build,
             'tests': os.path.join(ROOT, 'host_tests')}
    for board in ('bare', 'pico_tm1637'):
        if board == 'bare':
            path = [os.path.join(ROOT, 'host_tests', 'fixtures', 'boards')]
        else:
            path = []
        script = GAME_100 % dict(subst, board=board)
        heap = smallest_heap(script, path, hi=4 << 20)
        print('app: smallest heap for a 100-frame game through press scripts on %s: %s bytes '
              '(goal 32768, limit 65536)' % (board, heap))
    r = run(IDLE % subst, [], timeout=600)
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr[-2000:])
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
