"""The board on the venue's MQTT broker (DESIGN section 10, "The venue").

Under `shuffleboard/<venue>/<table>/` the board publishes `status` (online, retained; offline as
its last will), `state` (the view model, retained, on every change and on every reconnect) and
`game` (one record per banked game, QoS 1, not retained), plus Home Assistant discovery configs
under `homeassistant/`. The controller calls `bank(game, names)` (its `on_bank` hook) when a game
is banked: the record goes to the outbox on flash at once, and `run()`, a task of its own, sends
it and removes it only once the broker acknowledged it. Nothing here is ever awaited by the
scoring loop: `bank` writes one small file, and the view is read, not pushed.
"""

import asyncio
import json
import os

from scoreboard.net.mqtt import MQTTClient, ticks_diff, ticks_ms
from scoreboard.net.resolve import Resolver, idle_screen


async def _sleep_ms(ms):
    await asyncio.sleep(ms / 1000)


def _jitter(ms):
    # Half to all of ms, so that the tables of a venue do not all come back in the same instant
    # after the broker restarts.
    return ms // 2 + ms * os.urandom(1)[0] // 512

KINDS = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny')
_OK = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'


def _name_ok(s):
    if not isinstance(s, str) or not 0 < len(s) <= 32:
        return False
    for c in s:
        if c not in _OK:
            return False
    return True


def settings(net):
    """The `mqtt` part of net.json, checked: a dict with host, port, user, password, venue,
    table, or None when absent. Venue and table are topic levels, so only letters, digits, '_'
    and '-' are taken; without them they are 'bar' and '1', as `make deploy` writes them.
    ValueError, with what is wrong, for settings that cannot be used."""
    m = net.get('mqtt') if isinstance(net, dict) else None
    if m is None:
        return None
    if not isinstance(m, dict):
        raise ValueError('mqtt is an object')
    host = m.get('host')
    port = m.get('port', 1883)
    if not isinstance(host, str) or not host:
        raise ValueError('mqtt needs a host')
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ValueError('mqtt port is 1..65535')
    venue = m.get('venue', 'bar')
    table = m.get('table', '1')
    if not _name_ok(venue) or not _name_ok(table):
        raise ValueError('mqtt venue and table are 1..32 letters, digits, _ or -')
    user = m.get('user')
    password = m.get('password')
    return {'host': host, 'port': port, 'venue': venue, 'table': table,
            'user': user if isinstance(user, str) and user else None,
            'password': password if isinstance(password, str) else None}


def record(game, names, rid, table, ended):
    """The `game` record of one banked game (a core Game object)."""
    d = game.to_dict()
    names = names or {}
    return {'id': rid, 'table': table, 'game': d['kind'], 'options': d['options'],
            'names': {'red': names.get('red'), 'blue': names.get('blue')},
            'red': game.points('red'), 'blue': game.points('blue'), 'winner': game.winner,
            'frames': d['log'], 'ended': ended}


def public_view(view):
    """The view as the venue may see it: without the pairing PIN, which is for the phone in
    front of the board, not for everyone on the broker."""
    if 'pin' not in view:
        return view
    v = dict(view)
    del v['pin']
    return v


def discovery(base, venue, table):
    """(topic, payload) of each Home Assistant discovery config: the two scores, the game and
    the winner, all read from the retained `state`, available while `status` is online."""
    node = 'shuffleboard_%s_%s' % (venue, table)
    device = {'identifiers': [node], 'name': 'Shuffleboard %s %s' % (venue, table),
              'manufacturer': 'shuffleboard scoreboard', 'model': 'scoreboard'}
    out = []
    for key, label, tmpl in (('red', 'red score', '{{ value_json.red }}'),
                             ('blue', 'blue score', '{{ value_json.blue }}'),
                             ('game', 'game', '{{ value_json.game }}'),
                             ('winner', 'winner', "{{ value_json.winner or 'none' }}")):
        cfg = {'name': label, 'unique_id': node + '_' + key, 'object_id': node + '_' + key,
               'state_topic': base + 'state', 'value_template': tmpl,
               'availability_topic': base + 'status', 'payload_available': 'online',
               'payload_not_available': 'offline', 'device': device}
        if key in ('red', 'blue'):
            cfg['state_class'] = 'measurement'
        out.append(('homeassistant/sensor/%s/%s/config' % (node, key), json.dumps(cfg)))
    return out


class Venue:
    """The link to the broker. `ctl` has `view` and `version`; `outbox` is an Outbox;
    `board_id` names this board (its unique id in hex); `seconds` gives the seconds since the
    board started (the record's `ended`)."""

    BACKOFF_MIN = 1000   # ms before the first retry; doubles on each failure
    BACKOFF_MAX = 60000
    POLL = 50            # ms between looks at the view and the outbox while connected
    TRIES = 8            # sends of one record on a working link before it is given up

    def __init__(self, ctl, conf, outbox, board_id, seconds=None, keepalive=30):
        self.ctl = None
        if ctl is not None:
            self.hook(ctl)
        self.conf = conf
        self.outbox = outbox
        self.board_id = board_id
        self.table = conf['table']
        self.base = 'shuffleboard/%s/%s/' % (conf['venue'], conf['table'])
        self._start = ticks_ms()
        self.seconds = seconds or self._seconds
        self.client = MQTTClient('sb-%s-%s' % (conf['table'], board_id), conf['host'],
                                 conf['port'], conf['user'], conf['password'], keepalive,
                                 (self.base + 'status', 'offline', True, 1))
        # The broker's name looked up only out of play, its address dialled (net/resolve.py)
        self.resolver = Resolver(conf['host'], conf['port'], lambda: idle_screen(self.ctl))
        self.published = -1      # ctl.version last published
        self.sent = 0            # game records acknowledged by the broker
        self.connects = 0
        self.error = None        # the last connection failure, for the display or a log
        self.refused = 0         # records given up: the broker dropped the link at each send
        self._head = None
        self._tries = 0
        self._stop = False

    def hook(self, ctl):
        """Follow this controller (again after the app was rebuilt): read its view, take its
        banked games."""
        self.ctl = ctl
        ctl.on_bank = self.bank

    def _seconds(self):
        return ticks_diff(ticks_ms(), self._start) // 1000

    def bank(self, game, names):
        """The controller's `on_bank` hook: the record to the outbox (flash), nothing sent."""
        rid = '%s-%s' % (self.board_id, self.outbox.next_id())
        return self.outbox.add(record(game, names, rid, self.table, self.seconds()))

    async def _online(self):
        c = self.client
        await c.publish(self.base + 'status', 'online', True, 1)
        for topic, payload in discovery(self.base, self.conf['venue'], self.table):
            await c.publish(topic, payload, True, 0)
        self.published = -1   # the state again on every reconnect

    async def step(self):
        """One pass while connected: the state if it changed, then the oldest record."""
        c = self.client
        ctl = self.ctl
        if ctl is not None and ctl.version != self.published:
            version = ctl.version
            await c.publish(self.base + 'state', json.dumps(public_view(ctl.view)), True, 0)
            self.published = version
        item = self.outbox.peek()
        if item is not None:
            name, payload = item
            # A broker that hangs up on one record (too large for it, say) would otherwise
            # hold every later game behind it for ever.
            if name == self._head:
                self._tries += 1
            else:
                self._head = name
                self._tries = 1
            if self._tries > self.TRIES:
                self.outbox.remove(name)
                self.refused += 1
                return
            await c.publish(self.base + 'game', payload, False, 1)
            self.outbox.remove(name)   # only after the PUBACK
            self._head = None          # (the next record may reuse the file name)
            self.sent += 1
        else:
            await c.keep_alive()

    async def run(self):
        backoff = self.BACKOFF_MIN
        while not self._stop:
            dialled = False
            try:
                self.client.host = await self.resolver.address()
                await self.client.connect()
                dialled = True
                self.connects += 1
                self.error = None
                await self._online()
                backoff = self.BACKOFF_MIN
                while self.client.connected and not self._stop:
                    await self.step()
                    await _sleep_ms(self.POLL)
            except Exception as e:   # OSError, TimeoutError, refused: try again later
                self.error = repr(e)
                if not dialled:       # the address no longer answers: look it up again
                    self.resolver.failed()
                self.client.close()
            if self._stop:
                break
            await _sleep_ms(_jitter(backoff))
            backoff = min(backoff * 2, self.BACKOFF_MAX)
        await self.client.disconnect()

    def stop(self):
        self._stop = True


def board_id():
    """This board's unique id in hex (machine.unique_id), or None off the board."""
    try:
        import machine
        uid = machine.unique_id()
    except (ImportError, AttributeError):
        return None
    return ''.join('%02x' % b for b in uid)


def from_net(net, root='', uid=None, log=None):
    """The Venue for net.json's `mqtt` settings, or None without them (or with unusable
    ones, said through `log`). The runner then calls
    `hook(ctl)` for its controller and runs `run()` as a task of its own."""
    try:
        conf = settings(net)
    except ValueError as e:
        if log is not None:
            log('venue: net.json: %s; the board plays without the broker' % (e,))
        return None
    if conf is None:
        return None
    from scoreboard.net.outbox import Outbox
    link = Venue(None, conf, Outbox(root), uid or board_id() or conf['table'])
    link.resolver.log = log
    return link
