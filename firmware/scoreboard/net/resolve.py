# The broker's address without stalling the scoring. MicroPython's `asyncio.open_connection`
# looks a host name up with a blocking `socket.getaddrinfo` (its source says "TODO this is
# blocking!"): every pass of the scoring loop waits for the DNS answer, and on lwip an
# unanswered query takes seconds. So the venue link looks the name up itself, only while the
# board is not in play (the setup, game-over, menu or sleep screen), keeps the address, and
# dials the address: a dotted address makes getaddrinfo answer at once, with no query. A name
# that no longer answers is looked up again, once more only out of play. An IP address in
# net.json needs no look-up at all.
import asyncio

from scoreboard.net.mqtt import ticks_diff, ticks_ms


async def sleep_ms(ms):
    await asyncio.sleep(ms / 1000)


AF_INET = 2
WAIT_MS = 250     # between looks at the screen while a look-up waits for the board to be idle


def is_ip(host):
    """True for a dotted IPv4 address ('192.168.1.20'): nothing to look up."""
    parts = host.split('.')
    if len(parts) != 4:
        return False
    for p in parts:
        if not p or len(p) > 3 or not p.isdigit() or int(p) > 255:
            return False
    return True


def _ip(addr):
    # lwip (rp2, esp32) and CPython give ('a.b.c.d', port); the unix port a raw sockaddr_in.
    if isinstance(addr, tuple):
        return addr[0]
    b = bytes(addr)
    return '%d.%d.%d.%d' % (b[4], b[5], b[6], b[7])


def lookup(host, port):
    """The first IPv4 address of `host` (blocks: call it only where a stall does no harm)."""
    import socket
    for ai in socket.getaddrinfo(host, port):
        if ai[0] == AF_INET:
            return _ip(ai[-1])
    raise OSError('no IPv4 address for %s' % host)


def idle_screen(ctl):
    """The board is not in play: a look-up's stall costs no frame of scoring."""
    if ctl is None:
        return True
    view = ctl.view
    return view is None or view.get('screen') != 'play'


class Resolver:
    """`name` the broker as net.json gives it; `idle()` True when the loop may stall.
    `await address()` gives the address to dial; `failed()` after a failed dial marks a
    looked-up address for another look-up, out of play."""

    def __init__(self, name, port, idle=None, log=None):
        self.name = name
        self.port = port
        self.idle = idle or (lambda: True)
        self.log = log
        self.fixed = is_ip(name)
        self.ip = name if self.fixed else None
        self.stale = False
        self.lookups = 0
        self.ms = None         # how long the last look-up stalled the loop
        self.worst_ms = 0
        self.error = None

    def failed(self):
        if not self.fixed:
            self.stale = True

    def _say(self, text):
        if self.log is not None:
            try:
                self.log(text)
            except Exception:
                pass

    async def address(self):
        while self.ip is None or (self.stale and self.idle()):
            if self.idle():
                t0 = ticks_ms()
                try:
                    ip = lookup(self.name, self.port)
                except Exception as e:   # OSError -2 (no such name), -3 (no answer)...
                    ip = None
                    self.error = repr(e)
                self.ms = ticks_diff(ticks_ms(), t0)
                self.worst_ms = max(self.worst_ms, self.ms)
                self.lookups += 1
                self.stale = False
                if ip is not None:
                    if ip != self.ip:
                        self._say('venue: broker %s is %s (looked up out of play in %d ms)'
                                  % (self.name, ip, self.ms))
                    self.ip = ip
                    self.error = None
                    return ip
                self._say('venue: broker %s not found (%s); looked up again out of play; '
                          'an IP address in net.json needs no look-up' % (self.name, self.error))
                if self.ip is None:     # the venue link backs off and asks again
                    raise OSError('broker %s not found' % self.name)
                return self.ip          # the old address meanwhile
            await sleep_ms(WAIT_MS)
        return self.ip
