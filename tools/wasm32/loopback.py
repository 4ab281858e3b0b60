# Connections in memory for the 32-bit heap figures of the network part (tools/bench_net.py):
# the WebAssembly port has no sockets, and its asyncio (run by the JavaScript event loop) no
# streams. These pipes stand in for both: asyncio.start_server (as microdot calls it) keeps the
# firmware's connection handler, and open_connection() hands the handler one end of a new pair
# of pipes and the bench's client the other. Each end has what the firmware and microdot use of
# an asyncio stream: read, readline, awrite (write + drain), close, wait_closed,
# get_extra_info. Bytes in flight are what lwIP would hold outside the MicroPython heap on a
# board; here they are in it, and the bench reads the heap when nothing is in flight.
import asyncio


class Pipe:
    def __init__(self):
        self.data = b''
        self.closed = False
        self.ev = asyncio.Event()

    def put(self, b):
        if self.closed:
            raise OSError(32)            # EPIPE, as a closed socket says
        self.data += b
        self.ev.set()

    def shut(self):
        self.closed = True
        self.ev.set()


class End:
    def __init__(self, inbox, outbox, peer):
        self.inbox = inbox
        self.outbox = outbox
        self.peer = peer

    async def _wait(self):
        p = self.inbox
        while not p.data and not p.closed:
            p.ev.clear()
            await p.ev.wait()

    async def read(self, n=-1):
        await self._wait()
        p = self.inbox
        if n < 0 or n >= len(p.data):
            d, p.data = p.data, b''
        else:
            d, p.data = p.data[:n], p.data[n:]
        return d

    async def readline(self):
        p = self.inbox
        while True:
            i = p.data.find(b'\n')
            if i >= 0:
                d, p.data = p.data[:i + 1], p.data[i + 1:]
                return d
            if p.closed:
                d, p.data = p.data, b''
                return d
            p.ev.clear()
            await p.ev.wait()

    def write(self, b):
        self.outbox.put(b.encode() if isinstance(b, str) else bytes(b))

    async def drain(self):
        await asyncio.sleep_ms(0)

    async def awrite(self, b):
        self.write(b)
        await self.drain()

    def close(self):
        self.outbox.shut()
        self.inbox.shut()

    async def wait_closed(self):
        await asyncio.sleep_ms(0)

    async def aclose(self):
        self.close()

    def get_extra_info(self, what):
        return self.peer if what == 'peername' else None


class Server:
    def __init__(self, handler):
        self.handler = handler
        self.ev = asyncio.Event()

    async def wait_closed(self):
        await self.ev.wait()

    def close(self):
        self.ev.set()


server = None


async def start_server(handler, host, port, **kw):
    global server
    server = Server(handler)
    return server


async def open_connection(host=None, port=None):
    """(reader, writer) of a new connection to the server started last."""
    up, down = Pipe(), Pipe()
    asyncio.create_task(server.handler(End(up, down, ('10.0.0.2', 50000)),
                                       End(up, down, ('10.0.0.2', 50000))))
    mine = End(down, up, ('10.0.0.1', 80))
    return mine, mine


def install():
    asyncio.start_server = start_server
    asyncio.open_connection = open_connection
