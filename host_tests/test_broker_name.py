# runs-on: micropython
# The broker given by name (DESIGN section 10, "The venue"; section 12's "nothing blocks the
# loop"). On the chip `asyncio.open_connection` looks a name up with a blocking getaddrinfo; the
# stand-in network's getaddrinfo blocks the same way (network.names(..., ms)). The venue link
# looks the name up once, out of play, keeps the address and dials it: the loop's worst gap
# while the link drops and comes back again and again during a game stays within a pass.
import asyncio

import net_harness as nh
import network
from mqtt_probe import read_packet

DNS_MS = 400     # a slow venue router; lwip waits seconds for a name that never answers


class TinyBroker:
    """Just enough MQTT on loopback: CONNACK, PUBACK, PINGRESP; hangs up on each client
    after `life_ms`, so the board has to dial again."""

    def __init__(self, life_ms):
        self.life_ms = life_ms
        self.connects = 0
        self.server = None
        self.port = nh.free_port()

    async def start(self):
        self.server = await asyncio.start_server(self._client, '127.0.0.1', self.port)

    async def _client(self, r, w):
        self.connects += 1
        t0 = nh.now_ms()
        try:
            while nh.since_ms(t0) < self.life_ms:
                try:
                    kind, body = await asyncio.wait_for(read_packet(r), 0.05)
                except asyncio.TimeoutError:
                    continue
                t = kind >> 4
                if t == 1:                       # CONNECT
                    w.write(b'\x20\x02\x00\x00')
                elif t == 3 and (kind >> 1) & 3:  # PUBLISH, QoS 1: PUBACK its id
                    tl = (body[0] << 8) | body[1]
                    pid = body[2 + tl:4 + tl]
                    w.write(b'\x40\x02' + pid)
                elif t == 12:                    # PINGREQ
                    w.write(b'\xd0\x00')
                await w.drain()
        except Exception:
            pass
        w.close()
        await w.wait_closed()   # (MicroPython's close() alone keeps the socket open)

    def close(self):
        if self.server is not None:
            self.server.close()


def settings(port):
    return {'ssid': 'bar', 'password': 'password1',
            'mqtt': {'host': 'broker.bar', 'port': port, 'venue': 'bar', 'table': '4'}}


def test_the_name_is_looked_up_once_out_of_play_and_reconnects_never_stall_the_loop():
    broker = TinyBroker(life_ms=300)

    async def check(h):
        await broker.start()
        link = h.runner.venue
        link.BACKOFF_MIN = 20
        link.BACKOFF_MAX = 40
        await nh.until(lambda: link.connects >= 1, 20000,
                       what=lambda: 'never connected: %r %r' % (link.error, h.logs[-3:]))
        r = link.resolver
        # The look-ups happened on the setup screen (one, or one more for each dial that
        # failed before the test's broker listened), and cost the loop its stall there.
        n = len(network.lookups)
        assert 1 <= n <= 3 and r.lookups == n, list(network.lookups)
        assert r.ip == '127.0.0.1' and r.ms >= DNS_MS, (r.ip, r.ms)
        assert h.runner.worst_gap >= DNS_MS, h.runner.worst_gap
        assert any('broker.bar is 127.0.0.1' in x for x in h.logs), h.logs
        # A game starts; the broker hangs up again and again; the board dials the address.
        await h.tap('OK')
        await nh.until(lambda: h.ctl.view['screen'] == 'play', 5000,
                       what=lambda: h.ctl.view['screen'])
        h.runner.worst_gap = 0
        before = link.connects
        await nh.until(lambda: link.connects >= before + 4, 20000,
                       what=lambda: 'connects %d, %r, broker %d' % (link.connects, link.error,
                                                                     broker.connects))
        gap = h.runner.worst_gap
        print('broker by name: look-up %d ms at setup; worst gap over %d reconnects in play '
              '%d ms' % (r.ms, link.connects - before, gap))
        assert len(network.lookups) == n, list(network.lookups)
        assert gap < DNS_MS // 4, gap
        # The broker goes away: dials fail, the address is marked for another look-up, but
        # not while the game is on.
        broker.close()
        broker.life_ms = 0
        failed = link.connects
        await nh.sleep_ms(600)
        assert r.stale and len(network.lookups) == n and link.connects == failed
        assert h.runner.worst_gap < DNS_MS // 4, h.runner.worst_gap

    h = nh.Harness(tag='brokername', wifi=True, settings=settings(broker.port))
    network.names({'broker.bar': '127.0.0.1'}, ms=DNS_MS)
    try:
        nh.run_on(h, check)
    finally:
        broker.close()
        network.reset()


def test_the_stand_in_getaddrinfo_blocks_the_loop_as_the_chip_does():
    # Without the resolver: open_connection by name stalls every task for the look-up.
    network.reset()
    network.names({'broker.bar': '127.0.0.1'}, ms=DNS_MS)
    gaps = []

    async def ticker(stop):
        last = nh.now_ms()
        while not stop:
            await nh.sleep_ms(5)
            gaps.append(nh.since_ms(last))
            last = nh.now_ms()

    async def main():
        stop = []
        t = asyncio.create_task(ticker(stop))
        await nh.sleep_ms(30)
        import socket
        socket.getaddrinfo('broker.bar', 1883)
        await nh.sleep_ms(30)
        stop.append(1)
        await t
    try:
        asyncio.run(main())
    finally:
        network.reset()
    assert max(gaps) >= DNS_MS, gaps


def test_an_address_is_never_looked_up_and_a_name_that_fails_is_said():
    from scoreboard.net.resolve import Resolver, is_ip
    assert is_ip('192.168.1.20') and not is_ip('broker.bar') and not is_ip('1.2.3.256')
    network.reset()
    network.names({}, ms=10)
    logs = []
    try:
        r = Resolver('192.168.1.20', 1883, log=logs.append)
        assert asyncio.run(r.address()) == '192.168.1.20' and r.lookups == 0
        r.failed()
        assert not r.stale
        r = Resolver('nowhere.bar', 1883, log=logs.append)
        try:
            asyncio.run(r.address())
            raise AssertionError('an unknown name gave an address')
        except OSError:
            pass
        assert r.lookups == 1 and network.lookups and 'IP address' in logs[-1], logs
    finally:
        network.reset()
