# The MQTT tests' pieces (test_matches_portable, test_mqtt_subscribe, test_mqtt_refused,
# test_broker_name): a table's match topic and a good match on it, a byte stream and a sink
# that stand in for the client's socket, and for the tiny asyncio brokers the reading of one
# packet, a broker's loop and a server on a free loopback port. Runs under MicroPython too
# (TinyBroker, serve() and until() are for CPython's asyncio).
import asyncio

TOPIC = 'shuffleboard/bar/1/match'
GOOD = {'id': 't1r1m2', 'tournament': 1, 'round': 1, 'game': 'knockoff',
        'options': {'target': 5}, 'names': {'red': 'Ann', 'blue': 'Bob'}}


class BytesReader:
    """The client's reader over fixed bytes; EOFError past their end."""

    def __init__(self, data):
        self.data = data
        self.at = 0

    async def readexactly(self, n):
        if self.at + n > len(self.data):
            raise EOFError
        out = self.data[self.at:self.at + n]
        self.at += n
        return out


class SinkWriter:
    """The client's writer: what it writes is kept in `out`."""

    def __init__(self):
        self.out = bytearray()

    def write(self, b):
        self.out += b

    async def drain(self):
        pass

    def close(self):
        pass


async def until(pred, timeout=15):
    """Wait for pred() to hold: at once on an idle machine, up to `timeout` s on a loaded one."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        assert loop.time() < end, 'never happened'
        await asyncio.sleep(0.01)


async def read_packet(r):
    """One MQTT packet off the stream: (its first byte, its body)."""
    head = (await r.readexactly(1))[0]
    n, shift = 0, 0
    while True:
        b = (await r.readexactly(1))[0]
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    return head, (await r.readexactly(n)) if n else b''


class TinyBroker:
    """A broker of a few lines, for a test to make misbehave (CPython): a CONNECT gets its
    CONNACK (counted in `connects`), a PINGREQ its PINGRESP; any other packet goes to
    packet(kind, head, body, w), which returns False to hang up. hung_up() runs as the link
    ends."""
    connects = 0

    def packet(self, kind, head, body, w):
        pass

    def hung_up(self):
        pass

    async def client(self, r, w):
        try:
            while True:
                head, body = await read_packet(r)
                kind = head & 0xF0
                if kind == 0x10:
                    self.connects += 1
                    w.write(b'\x20\x02\x00\x00')
                elif kind == 0xC0:
                    w.write(b'\xd0\x00')
                elif self.packet(kind, head, body, w) is False:
                    break
                await w.drain()
        except (EOFError, ConnectionError):     # asyncio.IncompleteReadError is an EOFError
            pass
        self.hung_up()
        w.close()


async def serve(client):
    """A broker's server on 127.0.0.1, a free port: (server, port)."""
    server = await asyncio.start_server(client, '127.0.0.1', 0)
    return server, server.sockets[0].getsockname()[1]
