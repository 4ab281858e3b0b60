# A broker that hangs up whenever one particular record is sent (as a broker with a size limit
# may): the board gives that record up after Venue.TRIES sends and the games after it go out.
# The broker here is a few lines of asyncio, so the test can make it misbehave exactly.
import asyncio
import json

from mqtt_probe import TinyBroker, serve, until
from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import Venue, settings
from venue.vtable import Table


class PickyBroker(TinyBroker):
    def __init__(self):
        self.games = []
        self.connects = 0

    def packet(self, kind, head, body, w):
        if kind == 0x30 and head & 0x06:
            tlen = body[0] << 8 | body[1]
            topic = body[2:2 + tlen].decode()
            pid = body[2 + tlen:4 + tlen]
            payload = body[4 + tlen:]
            if b'poison' in payload:
                return False
            if topic.endswith('/game'):
                self.games.append(json.loads(payload))
            w.write(b'\x40\x02' + pid)


def test_a_record_the_broker_will_not_take_is_given_up(tmp_path):
    async def main():
        broker = PickyBroker()
        server, port = await serve(broker.client)
        t = Table()
        conf = settings({'mqtt': {'host': '127.0.0.1', 'port': port, 'venue': 'v',
                                  'table': '1'}})
        link = Venue(t, conf, Outbox(str(tmp_path)), 'pb')
        link.BACKOFF_MIN = link.BACKOFF_MAX = 10
        def bank(red):
            t.new('knockoff', {'target': 5}, {'red': red, 'blue': None})
            t.frame(5, 0)
            t.bank()

        bank('poison')
        bank('Ann')
        task = asyncio.create_task(link.run())
        await until(lambda: broker.games)
        # More games than TRIES, one at a time: each goes out (their files reuse the name of
        # the one sent before, which must not count as a retry).
        for i in range(Venue.TRIES + 4):
            bank('P%d' % i)
            await until(lambda i=i: len(broker.games) == i + 2)
        link.stop()
        await asyncio.sleep(0.1)
        task.cancel()
        server.close()
        return broker, link

    broker, link = asyncio.run(main())
    assert [g['names']['red'] for g in broker.games] == ['Ann'] + [
        'P%d' % i for i in range(Venue.TRIES + 4)]
    assert link.refused == 1 and len(link.outbox) == 0
    assert broker.connects == Venue.TRIES + 1   # each refusal cost a reconnect, then Ann's
