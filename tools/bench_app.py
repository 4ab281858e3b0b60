# Budgets of the whole app on the virtual board, measured on mpy-cross output: under the
# MicroPython unix port the smallest heap that plays a 100-frame game through press scripts,
# the bytes one idle pass allocates and the virtual time from a release to the chip; on the
# 32-bit WebAssembly port the live heap, printed against issue 26's budgets (firmware code,
# board and chip model at most 40 KB, 100 frames at most 2 KB, the whole 100-frame run at most
# 72 KB, on pico_tm1637); the 32-bit figures also go to make bench's summary (bench_summary).
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpy_tools import ROOT, compile_tree, run, smallest_heap  # noqa: E402

# The press-script runs' path: boards, the compiled firmware, the engine, the virtual parts.
HARNESS_PATH = '''
import sys
sys.path.insert(0, %(boards)r)
sys.path.insert(0, %(fw)r)
sys.path.insert(0, %(tools)r)
sys.path.insert(0, %(virtual)r)
'''

# A new simulator on an empty flash folder.
NEW_SIM = '''
import os
d = %(flash)r
try:
    os.mkdir(d)
except OSError:
    for n in os.listdir(d):
        os.remove(d + '/' + n)
class Null:
    def write(self, s):
        pass
sim = sim_engine.Sim(%(board)r, d, Null())
'''

# Setup with the target moved to 99 in the menu, then 100 one-point frames.
PLAY_DEF = '''
def play(lines):
    for _, op, args in sim_engine.parse(lines, sim.board.BUTTONS):
        sim.run(op, args)
'''
PLAY_SETUP = '''
play(['hold OK 3200', 'tap OK', 'hold BLUE 14000', 'hold OK 1000', 'tap OK'])
assert sim.app.ctl.view['target'] == 99, sim.app.ctl.view
'''
PLAY_CHECK = '''
v = sim.app.ctl.view
assert v['frame'] == 101 and v['red'] == 50 and v['blue'] == 50, v
'''
# (%% because these texts go through % substitution with the paths)
PLAY_LOOP = '''
for i in range(100):
    play(['tap ' + ('RED' if i %% 2 else 'BLUE'), 'tap OK'])
'''
PLAY_100 = PLAY_DEF + PLAY_SETUP + PLAY_LOOP + PLAY_CHECK


def frame_line(i):
    """Frame i of PLAY_100 as one line of its own (the 32-bit run plays one call per frame)."""
    return "play(['tap %s', 'tap OK'])" % ('RED' if i % 2 else 'BLUE')

GAME_100 = HARNESS_PATH + 'import sim_engine\n' + NEW_SIM + PLAY_100 + "print('OK')\n"

# The same without the firmware's heap policy (scoreboard.prepare_heap: collect every few KB
# while loading), to show what the policy is worth.
NO_POLICY = '''
import scoreboard
scoreboard.prepare_heap = lambda: None
'''
GAME_100_NO_POLICY = HARNESS_PATH + 'import sim_engine\n' + NO_POLICY + NEW_SIM + PLAY_100 + \
    "print('OK')\n"

# The same 100 frames without the press-script harness: the virtual machine's pins are driven
# directly, so the heap is the firmware's own (plus the stand-in `machine`).
DIRECT_100 = '''
import sys
sys.path.insert(0, %(boards)r)
sys.path.insert(0, %(fw)r)
sys.path.insert(0, %(virtual)r)
import os
import machine
d = '/tmp/sb-bench-direct'
try:
    os.mkdir(d)
except OSError:
    for n in os.listdir(d):
        os.remove(d + '/' + n)
import bare
import scoreboard
scoreboard.prepare_heap()      # as main.py does
from scoreboard.app import App
from scoreboard.store import Store
app = App(bare, Store(d), 0)
t = 0
def tap(pin, ms=80):
    global t
    machine.drive(pin, 0)
    for i in range(ms // 5):
        t += 5
        app.step(t)
    machine.drive(pin, None)
    for i in range(60):
        t += 5
        app.step(t)
tap(12)
for i in range(100):
    # a point pending, cleared with a long OK, then the frame entered blank: 100 frames that
    # exercise pending, undo-or-clear and commit without ending the game at 15
    tap(10 if i %% 2 else 11)
    tap(12, 1000)
    tap(12)
v = app.ctl.view
assert v['frame'] == 101, v
print('OK', v['frame'])
'''

# Where the heap of a press-script run goes, live bytes after gc.collect() at each stage: the
# harness (stand-in machine, script engine), the firmware's code as the board loads it, the
# app's own objects after boot, and what a played game adds. A list of code texts with the
# measurements between them: one script on the unix port, one call each on the 32-bit port.
# Issue 26's budgets count on the 32-bit port's live heap, for pico_tm1637: the firmware code,
# board and chip model at most 40 KB, 100 frames at most 2 KB, the whole 100-frame run at most
# 72 KB (issue 10's was 60 KB).
BUDGET_CODE = 40 * 1024
BUDGET_FRAMES = 2 * 1024
BUDGET_RUN = 72 * 1024
MEASURE = "gc.collect()\n_m[%r] = gc.mem_alloc()\n"
# The virtual buzzer (tools/virtual/pwm.py) records every tone the firmware plays, for the tests
# and the simulator's `tones`: about 240 bytes a frame on a 32-bit port (a click per tap, the
# chime per entry), the bench's own objects, not the board's. Dropped before the reading after
# the frames, and its size printed beside them. The lists are replaced, not cleared: on the
# WebAssembly port a cleared list's old items block still holds (and keeps alive) what it held.
DROP_RECORDS = '''
for _p in machine.PWM.instances:
    _p.tones = []
sim._tones_old = []
_p = None
'''
# On the 32-bit port even a dropped record stays in its reading (that port's collector is
# conservative, and something there still points into the old list), so the 32-bit runs
# record no tones during the frames at all (PWM.record); the unix run keeps the record, to
# print its size.
STOP_RECORDS = "machine.PWM.record = not %(h32)r\n"
FIRMWARE_IMPORTS = '''
import scoreboard.app
import scoreboard.store
import scoreboard.core.knockoff
def load_board(name):
    # the board file, its display drivers and layouts (built once, as the app's boot builds
    # them), and the chip models its wiring names (the virtual board)
    b = __import__(name)
    b.displays()
    virtual_board.VirtualBoard(b)
load_board(%(board)r)
'''
REPORT = '''
m = _m
print('%%s live heap on %%s: harness %%d, firmware code + board + chip model %%d, app objects '
      'after boot %%d, the setup through the menu (target 99; the menu code stays loaded) %%d, '
      '100 frames %%d (total %%d; the record of the tones the virtual buzzer played in them, '
      '%%d bytes more, dropped before the reading)' %% (
          %(label)r, %(board)r, m['t1'] - m['t0'], m['t2'] - m['t1'], m['t3'] - m['t2'],
          m['t3s'] - m['t3'], m['t4'] - m['t3s'], m['t4'], m['t4r'] - m['t4']))
if %(h32)r:
    print('H32', %(board)r, m['t1'] - m['t0'], m['t2'] - m['t1'], m['t3'] - m['t2'],
          m['t4'] - m['t3s'], m['t4'], m['t4r'] - m['t4'], m['t3s'] - m['t3'])
if %(budgets)r:
    for what, got, goal in (('firmware code + board + chip model', m['t2'] - m['t1'], %(code)d),
                            ('100 frames', m['t4'] - m['t3s'], %(frames)d),
                            ('whole 100-frame run', m['t4'], %(run)d)):
        print('%%s budget on %%s (issue 26): %%s %%d bytes, goal at most %%d: %%s' %% (
            %(label)r, %(board)r, what, got, goal,
            'met' if got <= goal else 'over by %%d' %% (got - goal)))
'''


def breakdown_steps(frames):
    return [HARNESS_PATH + 'import gc\nimport os\n_m = {}\n', MEASURE % 't0',
            'import machine\nimport sim_engine\nimport virtual_board\n', MEASURE % 't1',
            FIRMWARE_IMPORTS, MEASURE % 't2', NEW_SIM + PLAY_DEF, MEASURE % 't3',
            PLAY_SETUP, DROP_RECORDS, STOP_RECORDS, MEASURE % 't3s'] + frames + [
                MEASURE % 't4r', DROP_RECORDS, MEASURE % 't4', PLAY_CHECK + REPORT]


BREAKDOWN = ''.join(breakdown_steps([PLAY_LOOP]))

# How much of the firmware's code cost is bytecode, and how much the objects every function,
# class and module needs in RAM: the same imports from .mpy files and from a ROMFS image (built
# by `mpremote romfs build`) mounted with vfs.VfsRom, where bytecode and constants stay in the
# image and run in place, as on a board whose MicroPython has a ROMFS partition.
CODE_IMPORTS = ('import scoreboard.app, scoreboard.store, scoreboard.core.knockoff, '
                'scoreboard.render.segments, scoreboard.drivers.tm1637')
FROM_FILES = '''
import gc
import sys
sys.path.insert(0, %(fw)r)
gc.collect()
a = gc.mem_alloc()
%(imports)s
gc.collect()
print('files', gc.mem_alloc() - a)
'''
FROM_ROMFS = '''
import gc
import sys
import vfs
with open(%(image)r, 'rb') as f:
    img = f.read()
vfs.mount(vfs.VfsRom(img), '/rom')
sys.path.insert(0, '/rom')
gc.collect()
a = gc.mem_alloc()
%(imports)s
gc.collect()
print('romfs', gc.mem_alloc() - a, len(img))
'''


def code_in_place(build):
    import subprocess
    image = os.path.join(ROOT, 'build', 'bench-app.romfs')
    mpremote = os.path.join(os.path.dirname(sys.executable), 'mpremote')
    subprocess.run([mpremote, 'romfs', '--no-mpy', '-o', image, 'build', build], check=True,
                   capture_output=True)
    files = run(FROM_FILES % {'fw': build, 'imports': CODE_IMPORTS}).stdout.split()
    rom = run(FROM_ROMFS % {'image': image, 'imports': CODE_IMPORTS}).stdout.split()
    if len(files) != 2 or len(rom) != 3:
        print('app: code in place: could not measure', files, rom)
        return
    print('app: firmware code for a TM1637 board, live heap: %s bytes from .mpy files, %s bytes '
          'with its bytecode run in place from a ROMFS image (%s bytes, not counted)'
          % (files[1], rom[1], rom[2]))


# The same breakdown on a 32-bit MicroPython: the WebAssembly port from npm (pinned in
# tools/wasm32/package.json), run by node, with 4-byte objects and 16-byte heap blocks as on an
# RP2040 or ESP32. It grows its heap on demand, so it gives live figures, not a smallest heap.
BOARDS32 = ('bare', 'pico_tm1637', 'pico_w_tm1637')
WASM_PKG = os.path.join(ROOT, 'tools', 'wasm32')


def wasm32_breakdown(build, tools, modules=False):
    import json
    import shutil
    import subprocess
    node, npm = shutil.which('node'), shutil.which('npm')
    if not (node and npm):
        print('app: 32-bit figures skipped: no node/npm on this machine')
        return
    prefix = os.path.join(ROOT, 'build', 'wasm32')
    os.makedirs(prefix, exist_ok=True)
    shutil.copy(os.path.join(WASM_PKG, 'package.json'), prefix)
    r = subprocess.run([npm, 'install', '--no-audit', '--no-fund', '--silent'], cwd=prefix,
                       capture_output=True, text=True)
    if r.returncode:
        print('app: 32-bit figures skipped: npm install failed: ' + r.stderr.strip()[-300:])
        return
    frames = [frame_line(i) + '\n' for i in range(100)]
    from bench_summary import note
    for board in ('pico_tm1637',) if modules else BOARDS32:
        subst = {'tools': '/tools', 'fw': '/fw', 'virtual': '/tools/virtual', 'board': board,
                 'boards': '/tools/' + ('fixtures' if board == 'bare' else 'boards'),
                 'flash': '/flash', 'label': 'app (32-bit, WebAssembly port):',
                 'budgets': board == 'pico_tm1637', 'code': BUDGET_CODE, 'run': BUDGET_RUN,
                 'frames': BUDGET_FRAMES, 'h32': True}
        job = {'heap': 1 << 20, 'copy': [[build, '/fw'], [tools, '/tools']],
               'steps': [step % subst for step in (module_steps(board) if modules else
                                                   breakdown_steps(frames))]}
        path = os.path.join(prefix, 'steps-%s.json' % board)
        with open(path, 'w') as f:
            json.dump(job, f)
        r = subprocess.run([node, '--expose-gc', os.path.join(WASM_PKG, 'run_steps.mjs'),
                            os.path.join(prefix, 'node_modules'), path],
                           capture_output=True, text=True, timeout=900)
        if r.returncode:
            sys.stdout.write('app: 32-bit run failed on %s: %s\n' % (board, r.stderr[-1000:]))
            continue
        for line in r.stdout.splitlines():
            f = line.split()
            if f[:1] == ['H32']:
                harness, code, boot, frames_b, total, records, setup = [int(x) for x in f[2:9]]
                note('h32 ' + board, {'harness': harness, 'code': code, 'boot': boot,
                                      'frames': frames_b, 'total': total, 'records': records,
                                      'setup': setup})
            else:
                sys.stdout.write(line + '\n')
    wasm32_romfs(build, tools, node, prefix)


# Where the firmware code figure goes, module by module: each module imported in a call of its
# own, dependencies first, with the live heap read after each (so a figure is that module's own
# code objects, globals and what its import builds; a module another one imports lazily is
# not counted). `python tools/bench_app.py modules` prints only this.
MODULE_ORDER = (
    'scoreboard', 'scoreboard.compat', 'scoreboard.core', 'scoreboard.core.base',
    'scoreboard.core.knockoff', 'scoreboard.ui', 'scoreboard.ui.ticks', 'scoreboard.ui.keys',
    'scoreboard.ui.debounce', 'scoreboard.ui.gestures', 'scoreboard.ui.input',
    'scoreboard.ui.match', 'scoreboard.ui.state', 'scoreboard.ui.controller',
    'scoreboard.store', 'scoreboard.drivers', 'scoreboard.drivers.buttons', 'scoreboard.app',
    'scoreboard.render', 'scoreboard.render.font7', 'scoreboard.render.vocab',
    'scoreboard.render.segments', 'scoreboard.drivers.tm1637', '%(board)s')
# (the import in one call, the reading in the next: this port frees the import's garbage only
# once its call has returned)
MEASURE_AS = "gc.collect()\n_m.append((%r, gc.mem_alloc()))\n"
SETTLE = "gc.collect()\n"
MODULE_TAIL = """
t = 0
for i in range(1, len(_m)):
    d = _m[i][1] - _m[i - 1][1]
    t += d
    print('app (32-bit): %%-28s %%6d' %% (_m[i][0], d))
print('app (32-bit): %%-28s %%6d' %% ('firmware code + board + chips', t))
"""


def module_steps(board):
    steps = [HARNESS_PATH + 'import gc\nimport os\nimport machine\nimport sim_engine\n'
             'import virtual_board\n_m = []\n']
    prev = 'start'
    for name in MODULE_ORDER:
        name = name % {'board': board}
        steps += [MEASURE_AS % prev, 'import %s\n' % name, SETTLE]
        prev = name
    steps += [MEASURE_AS % prev, board + '.displays()\n', SETTLE, MEASURE_AS % 'displays()',
              'virtual_board.VirtualBoard(%s)\n' % board, SETTLE, MEASURE_AS % 'chip model']
    return steps + [MODULE_TAIL]


# The code figure again with the firmware and board files in a ROMFS image (vfs.VfsRom) on the
# 32-bit port: bytecode and constants run in place, as frozen bytecode or a ROMFS partition
# would on a board; the image is read before the first reading, so it is not counted (on a
# board it is flash). What is left is the objects every module, function and class needs.
ROMFS_STEPS = [
    """import sys
import gc
import vfs
with open('/romfs/code.img', 'rb') as f:
    _img = f.read()
vfs.mount(vfs.VfsRom(_img), '/rom')
sys.path.insert(0, '/tools/virtual')
sys.path.insert(0, '/rom')
import machine
import virtual_board
_m = {}
""", MEASURE % 't1', FIRMWARE_IMPORTS, 'gc.collect()\n', MEASURE % 't2',
    "print('app (32-bit): firmware code + board + chip model with the bytecode in place (ROMFS "
    "image of %%d bytes, not counted): %%d' %% (len(_img), _m['t2'] - _m['t1']))\n"]


def wasm32_romfs(build, tools, node, prefix):
    import json
    import shutil
    import subprocess
    tree = os.path.join(prefix, 'romfs-tree')
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(build, tree)
    shutil.copy(os.path.join(tools, 'boards', 'pico_tm1637.mpy'), tree)
    image_dir = os.path.join(prefix, 'romfs')
    os.makedirs(image_dir, exist_ok=True)
    mpremote = os.path.join(os.path.dirname(sys.executable), 'mpremote')
    r = subprocess.run([mpremote, 'romfs', '--no-mpy', '-o', os.path.join(image_dir, 'code.img'),
                        'build', tree], capture_output=True, text=True)
    if r.returncode:
        print('app (32-bit): ROMFS figure skipped: ' + r.stderr.strip()[-300:])
        return
    job = {'heap': 1 << 20, 'copy': [[image_dir, '/romfs'], [tools, '/tools']],
           'steps': [step % {'board': 'pico_tm1637'} for step in ROMFS_STEPS]}
    path = os.path.join(prefix, 'steps-romfs.json')
    with open(path, 'w') as f:
        json.dump(job, f)
    r = subprocess.run([node, '--expose-gc', os.path.join(WASM_PKG, 'run_steps.mjs'),
                        os.path.join(prefix, 'node_modules'), path],
                       capture_output=True, text=True, timeout=900)
    sys.stdout.write(r.stdout if r.returncode == 0 else
                     'app (32-bit): ROMFS run failed: %s\n' % r.stderr[-1000:])
    last = r.stdout.split()[-1:] if r.returncode == 0 else []
    if last and last[0].isdigit():
        from bench_summary import note
        note('h32 romfs', int(last[0]))


IDLE = '''
import sys
sys.path.insert(0, %(tests)r)
sys.path.insert(0, %(fw)r)
import app_probe
for board in app_probe.boards():
    sim = app_probe.sim_for(board)
    b = app_probe.idle_bytes_per_step(sim)
    lat = app_probe.latency_ms(sim)
    # latency_ms steps the loop once per virtual ms: the count is loop passes, and the device
    # runs one pass every LOOP_MS (5 ms)
    print('app: %%-22s idle pass allocates %%s bytes; release to changed digits at the chip: '
          '%%s loop pass(es), <= %%s ms' %% (board, b, lat, lat and lat * 5))
'''


def main():
    # Everything the run needs is compiled with mpy-cross, harness included, so the figure is
    # the heap of running code, not of the compiler.
    build = os.path.join(ROOT, 'build', 'bench-app')
    compile_tree(os.path.join(ROOT, 'firmware'), build)
    tools = os.path.join(ROOT, 'build', 'bench-tools')
    compile_tree(os.path.join(ROOT, 'tools', 'virtual'), os.path.join(tools, 'virtual'))
    compile_tree(os.path.join(ROOT, 'boards'), os.path.join(tools, 'boards'))
    compile_tree(os.path.join(ROOT, 'host_tests', 'fixtures', 'boards'),
                 os.path.join(tools, 'fixtures'))
    import shutil
    import subprocess
    from mpy_tools import MPY_CROSS
    subprocess.run([MPY_CROSS, '-o', os.path.join(tools, 'sim_engine.mpy'),
                    os.path.join(ROOT, 'tools', 'sim_engine.py')], check=True)
    shutil.rmtree(os.path.join(tools, 'virtual', '__pycache__'), ignore_errors=True)
    if sys.argv[1:] == ['modules']:
        wasm32_breakdown(build, tools, modules=True)
        return 0
    subst = {'tools': tools, 'root': ROOT, 'fw': build,
             'virtual': os.path.join(tools, 'virtual'),
             'tests': os.path.join(ROOT, 'host_tests')}
    for board in ('bare', 'pico_tm1637'):
        boards = os.path.join(tools, 'fixtures' if board == 'bare' else 'boards')
        path = []
        script = GAME_100 % dict(subst, board=board, boards=boards, flash='/tmp/sb-bench-app')
        heap = smallest_heap(script, path, hi=4 << 20)
        print('app: smallest heap for a 100-frame game through press scripts on %s: %s bytes '
              '(goal 32768, limit 65536)' % (board, heap))
    board = 'pico_tm1637'
    script = GAME_100_NO_POLICY % dict(subst, board=board, boards=os.path.join(tools, 'boards'),
                                       flash='/tmp/sb-bench-app')
    print('app: the same on %s without the heap policy (no collections while loading): %s bytes'
          % (board, smallest_heap(script, [], hi=4 << 20)))
    for board in ('bare', 'pico_tm1637'):
        boards = os.path.join(tools, 'fixtures' if board == 'bare' else 'boards')
        r = run(BREAKDOWN % dict(subst, board=board, boards=boards, label='app:',
                                 flash='/tmp/sb-bench-breakdown', budgets=False,
                                 code=BUDGET_CODE, run=BUDGET_RUN, frames=BUDGET_FRAMES,
                                 h32=False), [])
        sys.stdout.write(r.stdout if r.returncode == 0 else r.stdout + r.stderr[-2000:])
    code_in_place(build)
    wasm32_breakdown(build, tools)
    script = DIRECT_100 % dict(subst, boards=os.path.join(tools, 'fixtures'))
    heap = smallest_heap(script, [], hi=4 << 20)
    print('app: smallest heap for the firmware alone (bare board, pins driven directly, no '
          'script harness): %s bytes' % heap)
    r = run(IDLE % subst, [], timeout=600)
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr[-2000:])
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
