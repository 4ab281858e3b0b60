"""One table for `make venue-demo`: the firmware's venue link and outbox on the MicroPython unix
port, and the stand-in controller (vtable.py) playing knock-off at a bar's pace, for ever.

    demo_board.py HOST PORT VENUE TABLE FLASHDIR [SPEED]

With MQTT_PASSWORD in the environment it connects as user `<venue>-<table>` (the users
`make venue-broker` makes).
"""

import asyncio
import os
import sys

from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import Venue, settings
from venue.vtable import Table

PLAYERS = ('Ann', 'Ben', 'Cat', 'Dev', 'Eve', 'Fin', None, None)


def rnd(n):
    return os.urandom(1)[0] % n


async def play(table, speed):
    while True:
        names = {'red': PLAYERS[rnd(len(PLAYERS))], 'blue': PLAYERS[rnd(len(PLAYERS))]}
        if names['red'] is not None and names['red'] == names['blue']:
            names['blue'] = None
        table.new('knockoff', {'target': 15}, names)
        while not table.game.over:
            side = ('red', 'blue')[rnd(2)]
            for _ in range(rnd(5)):           # the weights counted, one tap each
                await asyncio.sleep(0.4 / speed)
                table.add(side)
            await asyncio.sleep(1.0 / speed)
            table.frame()
        await asyncio.sleep(4.0 / speed)      # the winner shown, then OK banks it
        table.bank()
        await asyncio.sleep(2.0 / speed)


async def main(argv):
    host, port, venue, name, flash = argv[:5]
    speed = float(argv[5]) if len(argv) > 5 else 1.0
    password = os.getenv('MQTT_PASSWORD')
    conf = settings({'mqtt': {'host': host, 'port': int(port), 'venue': venue, 'table': name,
                              'user': '%s-%s' % (venue, name) if password else None,
                              'password': password}})
    table = Table()
    table.new('knockoff', {'target': 15})
    link = Venue(table, conf, Outbox(flash), 'demo' + name)
    link.BACKOFF_MAX = 5000
    table.on_bank = link.bank
    asyncio.create_task(link.run())
    await play(table, speed)


asyncio.run(main(sys.argv[1:]))
