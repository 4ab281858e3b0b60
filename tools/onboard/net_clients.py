# tools/bench_net.py's phone and event-stream clients, on asyncio streams (on the 32-bit port,
# tools/wasm32/loopback.py's in-memory pipes stand in for them). Set PORT before use.
import json
import time

import asyncio

PORT = 80


async def request(method, path, body=None, token=None):
    """A phone's request: (status, body) once the board has closed the answer."""
    rd, wr = await asyncio.open_connection('127.0.0.1', PORT)
    data = json.dumps(body).encode() if body is not None else b''
    head = '%s %s HTTP/1.1\r\nContent-Length: %d\r\n' % (method, path, len(data))
    if method == 'POST':
        head += 'Content-Type: application/json\r\n'    # every POST (DESIGN section 10)
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


class Client:
    """An event stream's client: it notes the time (ticks_us) of every event it reads."""

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
                self.times.append(time.ticks_us())
