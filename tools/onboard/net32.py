# tools/bench_net.py on a 32-bit MicroPython (the WebAssembly port, tools/wasm32): the board
# with and without its network part, the connections as in-memory pipes (that port has no
# sockets: tools/wasm32/loopback.py). Each figure is the live heap counted from before the
# firmware's first import (harness, stand-ins and chip model not counted; the board file is).
#   argv: plain | net
# The host runs it cut into calls (mpy_tools.chunks): every `# -- step` part, then only the
# `# -- plain` or the `# -- net` part; `# -- read KEY` is three readings of the live heap, 100 ms
# apart (the scoring task and the streams run between calls, and a reading taken while one of
# them holds a temporary is that much high), the least kept as _m[KEY]; at `# -- await NAME`
# the call before it is the body of the coroutine function NAME, run at the top level (that
# port awaits at the top level of a call: the code is gone once its call has returned).
import gc
import json
import os
import sys
import time

import asyncio
import loopback
import machine  # noqa: F401
import net_clients
import network
import virtual_board
from net_clients import Client, request

loopback.install()
network.reset()
try:
    os.mkdir('/flash')
except OSError:
    pass
NET = sys.argv[1] == 'net'
if NET:
    with open('/flash/net.json', 'w') as f:
        f.write(json.dumps({'ssid': 'bench', 'password': 'password1'}))
_m = {}
_r = []
PORT = net_clients.PORT = 80
us = time.ticks_us
chips = []


def picture():
    return [c.digits() for c in chips if c.kind == 'segments']


def reading():
    gc.collect()
    _r.append(gc.mem_alloc())


def keep(key):
    _m[key] = min(_r)
    del _r[:]


# -- read start
# -- step
import pico_w_tm1637 as board  # noqa: E402
# -- read board
# -- step
chips = virtual_board.VirtualBoard(board).chips()
# -- read chips
# -- plain
# -- step
import scoreboard  # noqa: E402

scoreboard.prepare_heap()
import scoreboard.app  # noqa: E402, F401
import scoreboard.store  # noqa: E402, F401
import scoreboard.ui.controller  # noqa: E402, F401
# -- read code_app
# -- step
from scoreboard.app import App  # noqa: E402
from scoreboard.store import Store  # noqa: E402

app = App(board, Store('/flash'), time.ticks_ms())
for _ in range(400):
    app.step(time.ticks_ms())
# -- read plain
# -- step
print('W32 plain', _m['plain'] - _m['chips'] + _m['board'] - _m['start'],
      _m['code_app'] - _m['chips'] + _m['board'] - _m['start'])
# -- net
# -- step
import scoreboard  # noqa: E402, F811

scoreboard.prepare_heap()
import scoreboard.app  # noqa: E402, F401, F811
import scoreboard.store  # noqa: E402, F401, F811
import scoreboard.ui.controller  # noqa: E402, F401, F811
# -- read code_app
# -- step
import microdot  # noqa: E402, F401
# -- read code_microdot
# -- step
from scoreboard.net.run import Runner  # noqa: E402
from scoreboard.store import Store  # noqa: E402, F811
import scoreboard.net.wifi  # noqa: E402, F401
# -- read code
# -- step
r = Runner(board, Store('/flash'), '/flash', network=network, port=80,
           log=lambda t: None, make=scoreboard.app.App)
# -- read built
# -- step


async def started():
    r.start()
    for _ in range(300):
        await asyncio.sleep_ms(10)
        if r.wifi.state == 'up' and loopback.server is not None and picture()[0] != [255] * 4:
            break
# -- await started
# -- read idle
# -- step


async def streams():
    global code, body, token, clients, c
    code, _ = await request('POST', '/api/pair', {})
    code, body = await request('POST', '/api/pair', {'pin': r.pairing.pin})
    token = json.loads(body)['token']
    clients = [Client() for _ in range(4)]
    for c in clients:
        await c.open()
    await asyncio.sleep_ms(200)
# -- await streams
# -- read streams
# -- step


async def played():
    # seed 000's first frames from the phone, seen on the chips and by every stream
    global before, red, blue, code, body, view
    before = picture()
    for red, blue in ((3, 0), (0, 2), (4, 0), (0, 1)):
        code, body = await request('POST', '/api/action',
                                   {'do': 'frame', 'red': red, 'blue': blue}, token)
        assert code == 200, body
    await asyncio.sleep_ms(100)
    assert picture() != before
    assert all(len(c.times) >= 5 for c in clients), [len(c.times) for c in clients]
    view = json.loads((await request('GET', '/api/view'))[1])
    assert (view["red"], view["blue"]) == (7, 3), view
# -- await played
# -- read played
# -- step
from scoreboard.net import web  # noqa: E402

pg = web.pages()
text = pg.page()
first = next(text)
# -- read page
# -- step


async def page():
    global pg, text, first, code, body
    text.close()
    del pg, text, first
    code, body = await request('GET', '/')
    assert code == 200 and len(body) > 5000
    print('W32 page_len', len(body))
    del body
    await asyncio.sleep_ms(300)
# -- await page
# -- read after_page
# -- step
# a board with `mqtt` settings also loads the venue link (its objects not counted here)
import scoreboard.net.venue  # noqa: E402, F401
import scoreboard.net.mqtt  # noqa: E402, F401
import scoreboard.net.outbox  # noqa: E402, F401
# -- read venue
# -- step


def f(k):
    return _m[k] - _m['chips'] + _m['board'] - _m['start']


print('W32 net', f('idle'), f('streams'), f('played'), _m['page'] - _m['played'],
      f('after_page'))
print('W32 venue', _m['venue'] - _m['after_page'])
print('W32 parts', f('code_app'), _m['code_microdot'] - _m['code_app'],
      _m['code'] - _m['code_microdot'], _m['built'] - _m['code'], _m['idle'] - _m['built'])
print('W32 ok')
