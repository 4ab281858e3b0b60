# A drop is never silent, on a real mosquitto: the broker away for more games than the outbox
# can hold (here made to hold 2), the board's `status` says `online, not sent N` once it is back,
# the venue service reads that as online and keeps the note, and the records kept arrive.
import asyncio
import json

import pytest
from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import Venue, settings
from venue.db import SqliteStore
from venue.service import Service
from venue.vtable import Table
from venue_support import Broker, Collector, wait_until


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


def test_a_full_outbox_says_so_on_status(broker, tmp_path):
    svc = Service(SqliteStore(str(tmp_path / 'v.sqlite')), 'bar')
    svc.connect('127.0.0.1', broker.port)
    assert svc.subscribed.wait(10)
    said = []
    conf = settings({'mqtt': {'host': '127.0.0.1', 'port': broker.port, 'venue': 'bar',
                              'table': '7'}})
    (tmp_path / 'flash').mkdir()
    link = Venue(None, conf, Outbox(str(tmp_path / 'flash'), limit=2), 'b7', log=said.append)
    t = Table()
    link.hook(t)
    answers = []
    for _ in range(4):                     # banked while the broker is away
        t.new('knockoff', {'target': 5}, {'red': 'Ann', 'blue': None})
        t.frame(5, 0)
        answers.append(link.bank(t.game, t.names))
    assert answers == [None, None, 'not sent 1', 'not sent 2']
    assert [s for s in said if 'not sent' in s] and 'not sent 2' in said[-1]
    sub = Collector(broker.port, ('shuffleboard/bar/7/status',))

    async def main():
        task = asyncio.create_task(link.run())
        for _ in range(300):
            if link.sent == 2:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.2)
        link.stop()
        await asyncio.sleep(0.1)
        task.cancel()
    asyncio.run(main())
    assert link.sent == 2
    assert wait_until(lambda: sub.on('status'), 10)
    sub.close()
    assert sub.on('status')[0][0] == b'online, not sent 2'
    assert wait_until(lambda: svc.stats['games'] == 2, 10), svc.stats
    assert wait_until(lambda: svc.table_list() and svc.table_list()[0]['note'] == 'not sent 2',
                      10), svc.table_list()
    assert svc.table_list()[0]['status'] in ('online', 'offline')
    assert all(json.loads(json.dumps(g))['v'] == 1 for g in svc.db.games())
    svc.stop()
    svc.db.close()
