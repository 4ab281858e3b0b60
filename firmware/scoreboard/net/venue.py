"""The board on the venue's MQTT broker (DESIGN section 10, "The venue").

Under `shuffleboard/<venue>/<table>/` the board publishes `status` (online, retained; offline as
its last will; `online, not sent N` once the outbox had to drop N records), `state` (the view
model, retained, on every change and on every reconnect) and `game` (one record per banked game,
QoS 1, not retained), plus Home Assistant discovery configs under `homeassistant/` (net/ha.py).
`state` and `game` carry their format version `v` (docs/formats.md) and are valid UTF-8
(net/utf8.py). The controller calls `bank(game, names)` (its `on_bank` hook) when a game is
banked: the record goes to the outbox on flash at once, and `run()`, a task of its own, sends
it and removes it only once the broker acknowledged it; a record the outbox could not keep is
said on the display (the hook's answer, `not sent N`), on `status` and on the console. Nothing
here is ever awaited by the scoring loop: `bank` writes one small file, and the view is read,
not pushed.
"""

import json
import os
import time

from scoreboard.aio import sleep_ms as _sleep_ms
from scoreboard.net.mqtt import MQTTClient, MQTTError
from scoreboard.net.resolve import Resolver, idle_screen
from scoreboard.net.utf8 import repair

FORMAT = 1   # the `v` of the `state` and `game` payloads (docs/formats.md)




def _jitter(ms):
    # Half to all of ms, so that the tables of a venue do not all come back in the same instant
    # after the broker restarts.
    return ms // 2 + ms * os.urandom(1)[0] // 512

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
    return {'v': FORMAT, 'id': rid, 'table': table, 'game': d['kind'], 'options': d['options'],
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


def payload(obj):
    """obj as the bytes published: JSON, valid UTF-8 whatever a name held."""
    text = json.dumps(obj)
    b = text.encode()
    return b if len(b) == len(text) else repair(b)


def state_payload(view):
    """The `state` payload: the public view with the format version."""
    v = dict(public_view(view))
    v['v'] = FORMAT
    return payload(v)


def status_text(dropped):
    return 'online' if not dropped else 'online, not sent %d' % dropped


def _ha(fn, *args):
    # Home Assistant's configs (net/ha.py) are built once a connection: its module is loaded
    # for the call and let go of after it, so it is not resident while the link runs.
    import sys
    from scoreboard import net
    from scoreboard.net import ha
    try:
        return getattr(ha, fn)(*args)
    finally:
        sys.modules.pop(ha.__name__, None)
        if hasattr(net, 'ha'):
            delattr(net, 'ha')


def discovery(*args):
    """(base, venue, table, serial, url, sw_version) -> [(topic, payload)] (net/ha.py)."""
    return _ha('discovery', *args)


class Venue:
    """The link to the broker. `ctl` has `view` and `version`; `outbox` is an Outbox;
    `board_id` names this board (its unique id in hex); `seconds` gives the seconds since the
    board started (the record's `ended`)."""

    BACKOFF_MIN = 1000   # ms before the first retry; doubles on each failure
    BACKOFF_MAX = 60000
    POLL = 50            # ms between looks at the view and the outbox while connected
    TRIES = 8            # sends of one record on a working link before it is given up

    def __init__(self, ctl, conf, outbox, board_id, seconds=None, keepalive=30, url=None,
                 log=None):
        self.ctl = None
        self.url = url           # the phone page, for Home Assistant's device
        self.log = log or print
        if ctl is not None:
            self.hook(ctl)
        self.conf = conf
        self.outbox = outbox
        self.board_id = board_id
        self.table = conf['table']
        self.base = 'shuffleboard/%s/%s/' % (conf['venue'], conf['table'])
        self._start = time.time()
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
        self.said = self.outbox.dropped   # the drops `status` says
        self._head = None
        self._tries = 0
        self._stop = False
        # Tournament matches for this table (net/matches.py, DESIGN section 13), or None.
        self.matches = None

    def take_matches(self, link):
        """Subscribe to this table's `match` topic on every connect and hand what comes to
        `link` (a MatchLink), which applies it at setup; banked records carry its id."""
        self.matches = link
        self.client.on_message = link.offer
        self.client.max_payload = link.max_payload

    def hook(self, ctl):
        """Follow this controller (again after the app was rebuilt): read its view, take its
        banked games."""
        self.ctl = ctl
        ctl.on_bank = self.bank

    def _seconds(self):
        # whole seconds since the link started: time.time(), which never wraps (a ms tick
        # difference would turn negative after days of play)
        return int(time.time() - self._start)

    def bank(self, game, names):
        """The controller's `on_bank` hook: the record to the outbox (flash), nothing sent.
        None when kept; `not sent N` (for the display) when the outbox could not keep it."""
        rid = '%s-%s' % (self.board_id, self.outbox.next_id())
        rec = record(game, names, rid, self.table, self.seconds())
        if self.matches is not None:
            mid = self.matches.banked(game, names)
            if mid is not None:
                rec['match'] = mid
        if self.outbox.add(rec, payload(rec).decode()):
            return None
        text = 'not sent %d' % self.outbox.dropped
        self.log('venue: outbox full, game %s %d-%d not kept: %s' % (
            rid, rec['red'], rec['blue'], text))
        return text

    async def _online(self):
        c = self.client
        self.said = self.outbox.dropped
        await c.publish(self.base + 'status', status_text(self.said), True, 1)
        await self._discovery()
        if self.matches is not None:
            try:
                await c.subscribe(self.matches.topic, 1)
            except MQTTError:
                # Refused (a broker whose ACL has no read of `match` for this table): the
                # board plays and reports on without matches. Lost link: raised as any other.
                if not c.connected:
                    raise
                self.matches.why = 'subscribe refused'
        self.published = -1   # the state again on every reconnect

    def _ha_file(self):
        return self.outbox.dir + '/ha'

    async def _discovery(self):
        # The configs of this table; those of the name it had before (net.json changed) are
        # removed first, with empty retained configs.
        venue = self.conf['venue']
        now = '%s %s' % (venue, self.table)
        try:
            with open(self._ha_file()) as f:
                before = f.read().split()
        except OSError:
            before = None
        c = self.client
        if before and len(before) == 2 and ' '.join(before) != now:
            for topic, empty in _ha('removal', before[0], before[1]):
                await c.publish(topic, empty, True, 1)
        for topic, cfg in discovery(self.base, venue, self.table, self.board_id, self.url,
                                    version()):
            await c.publish(topic, cfg, True, 0)
        if before is None or ' '.join(before) != now:
            with open(self._ha_file(), 'w') as f:
                f.write(now)

    async def step(self):
        """One pass while connected: the state if it changed, then the oldest record."""
        c = self.client
        ctl = self.ctl
        if self.matches is not None and ctl is not None:
            self.matches.poll(ctl)
        if ctl is not None and ctl.version != self.published:
            version = ctl.version
            await c.publish(self.base + 'state', state_payload(ctl.view), True, 0)
            self.published = version
        if self.outbox.dropped != self.said:     # a drop since we came online: say it
            self.said = self.outbox.dropped
            await c.publish(self.base + 'status', status_text(self.said), True, 1)
        item = self.outbox.peek()
        if item is not None:
            name, data = item
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
            await c.publish(self.base + 'game', repair(data), False, 1)
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


def version():
    """The firmware's version for Home Assistant's device, when the package says one."""
    try:
        from scoreboard import VERSION  # type: ignore[attr-defined]
        return VERSION
    except ImportError:
        return '0.1.0'   # manifest.py's metadata


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
    from scoreboard.net.matches import MatchLink
    from scoreboard.net.outbox import Outbox
    host = net.get('hostname') if isinstance(net, dict) else None
    url = 'http://%s.local/' % host.lower() if isinstance(host, str) and host else None
    v = Venue(None, conf, Outbox(root), uid or board_id() or conf['table'], url=url, log=log)
    v.resolver.log = v.log
    if v.outbox.dropped:
        v.log('venue: the outbox could not keep %d records: not sent' % v.outbox.dropped)
    v.take_matches(MatchLink(root, v.base + 'match'))
    return v
