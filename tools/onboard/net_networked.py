# tools/bench_net.py: the board with its network part (the Runner: scoring task, HTTP server,
# Wi-Fi task) on the stand-in network and real sockets on 127.0.0.1 port argv[1], four event
# streams and a phone acting: the heap, a phone's action to the chip, a button to the streams,
# and the worst gap between scoring passes with clients busy and with the Wi-Fi down.
#   argv: PORT
import gc
import json
import sys
import time

import asyncio
import machine
import network
import net_clients
from asyncio import sleep_ms
from net_clients import Client, request
from net_common import attach, flash, picture, since, us
import scoreboard

scoreboard.prepare_heap()
import wlan_tm1637 as board  # noqa: E402
from scoreboard.app import App  # noqa: E402, F401  (loaded before the first reading)
from scoreboard.store import Store  # noqa: E402

PORT = net_clients.PORT = int(sys.argv[1])
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
    return '%.1f %.1f %.1f' % (xs[len(xs) // 2] / 1000, xs[-1] / 1000, xs[0] / 1000)


def boot():
    global r
    from scoreboard.net.run import Runner
    r = Runner(board, store, d, network=network, host='127.0.0.1', port=PORT,
               log=lambda t: None, make=App)
    r.chips = chips
    wake = r.hub.wake

    def _wake():
        changed.append(us())
        wake()
    r.hub.wake = _wake


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
    for _ in range(20):
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
    for _ in range(20):
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
