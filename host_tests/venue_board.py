"""A virtual table for the venue tests: the firmware's MQTT client, venue link and outbox,
driven by the stand-in controller of tools/venue/vtable.py (a real core game). Runs under the
MicroPython unix port (and CPython). Prints one JSON line per event:

    venue_board.py HOST PORT VENUE TABLE FLASHDIR PLAN.json INTERVAL_MS BACKOFF_MIN BACKOFF_MAX
                   [KEEPALIVE_S]

PLAN is a list of games, {"names": {...}, "options": {...}, "frames": [[red, blue], ...]}; a
frame is entered every INTERVAL_MS by the scoring task, and the last frame of each game must end
it, after which the game is banked. When the plan is done the board waits (at most 20 s) until
every record is acknowledged and the last state published, prints "done" and disconnects.
With MQTT_PASSWORD in the environment it connects as user `<venue>-<table>`.
"""

import asyncio
import json
import os
import sys

try:
    from time import ticks_diff, ticks_ms
except ImportError:
    from time import monotonic

    def ticks_ms():
        return int(monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import Venue, settings
from venue.vtable import Table


def say(**kw):
    print(json.dumps(kw))


async def play(table, plan, interval, link):
    t0 = ticks_ms()
    for spec in plan:
        table.new(spec.get('game', 'knockoff'), spec.get('options'), spec.get('names'))
        for r, b in spec['frames']:
            await asyncio.sleep(interval / 1000)
            table.frame(r, b)
            say(frame=[table.game.points('red'), table.game.points('blue')],
                t=ticks_diff(ticks_ms(), t0), version=table.version)
        table.bank()
        say(banked=len(link.outbox), t=ticks_diff(ticks_ms(), t0), dropped=link.outbox.dropped)


async def main(argv):
    host, port, venue, name, flash, plan_path = argv[:6]
    interval, bmin, bmax = int(argv[6]), int(argv[7]), int(argv[8])
    keepalive = int(argv[9]) if len(argv) > 9 else 10
    with open(plan_path) as f:
        plan = json.load(f)
    password = os.getenv('MQTT_PASSWORD')
    conf = settings({'mqtt': {'host': host, 'port': int(port), 'venue': venue, 'table': name,
                              'user': '%s-%s' % (venue, name) if password else None,
                              'password': password}})
    table = Table()
    table.new(plan[0].get('game', 'knockoff'), plan[0].get('options'), plan[0].get('names'))
    link = Venue(table, conf, Outbox(flash), 'vb' + name, keepalive=keepalive)
    link.client.timeout = min(5, keepalive * 2)
    link.BACKOFF_MIN = bmin
    link.BACKOFF_MAX = bmax
    table.on_bank = link.bank
    task = asyncio.create_task(link.run())
    await play(table, plan, interval, link)
    t0 = ticks_ms()
    while ticks_diff(ticks_ms(), t0) < 20000:
        if not len(link.outbox) and link.published == table.version and link.client.connected:
            break
        await asyncio.sleep(0.02)
    say(done=len(link.outbox) == 0, sent=link.sent, connects=link.connects, left=len(link.outbox),
        version=table.version, published=link.published, error=link.error)
    link.stop()
    await link.client.disconnect()
    await asyncio.sleep(0.05)
    task.cancel()


asyncio.run(main(sys.argv[1:]))
