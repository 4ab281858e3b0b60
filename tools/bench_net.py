# Budgets of the phone remote (issue 14), measured under the MicroPython unix port on the
# mpy-cross build of firmware/ (microdot included), with real sockets on loopback:
#   - a phone's action to the changed digits at the virtual chip;
#   - a button's change to the event at each of four connected event streams;
#   - the worst gap between scoring passes with four clients busy, and with the Wi-Fi down;
#   - the heap with the web part running and four clients connected, against the same board
#     without the network part, and what a Pico W (about 160 KB free) would have left.
# The clients run in the same process as the board (asyncio streams), so the figures include
# their share of the CPU; the heap figures say what the clients' own objects add.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpy_tools import ROOT, compile_tree, run  # noqa: E402

PICO_W_FREE = 160 * 1024
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

NETWORKED = PATHS + COMMON + '''
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

async def request(method, path, body=None, token=None):
    rd, wr = await asyncio.open_connection('127.0.0.1', PORT)
    data = json.dumps(body).encode() if body is not None else b''
    head = '%%s %%s HTTP/1.1\\r\\nContent-Length: %%d\\r\\n' %% (method, path, len(data))
    if token:
        head += 'Authorization: Bearer %%s\\r\\n' %% token
    wr.write(head.encode() + b'\\r\\n' + data)
    await wr.drain()
    got = b''
    while True:
        c = await rd.read(1024)
        if not c:
            break
        got += c
    wr.close()
    return got.split(b'\\r\\n\\r\\n', 1)[1]

class Client:
    def __init__(self):
        self.times = []
    async def open(self):
        rd, wr = await asyncio.open_connection('127.0.0.1', PORT)
        self.wr = wr
        wr.write(b'GET /api/events HTTP/1.1\\r\\n\\r\\n')
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
    token = json.loads(await request('POST', '/api/pair', {'pin': pin}))['token']
    await request('POST', '/api/press', {'button': 'OK', 'gesture': 'tap'}, token)
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
          '%.1f; the page, %.1f KB, is loaded per answer and let go of) and %.1f KB of objects '
          '(the stand-in network included)' % (code_b / 1024, micro / 1024, ours / 1024,
                                              page / 1024, (extra - code_b) / 1024))
    server_ends = clients_b // 2
    need = FIRMWARE_ALONE + extra + server_ends
    print('a Pico W (about 160 KB free on its stock build), firmware alone about %d KB '
          '(bench_app), the network part and 4 streams\' server ends (about %.1f KB) added: '
          'about %.0f KB left with everything as .mpy files, about %.0f KB with the network '
          'code frozen (manifest.py), more with all of it frozen' % (
              FIRMWARE_ALONE // 1024, server_ends / 1024, (PICO_W_FREE - need) / 1024,
              (PICO_W_FREE - need + code_b) / 1024))
    return 0


if __name__ == '__main__':
    sys.exit(main())
