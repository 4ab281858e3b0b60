"""The venue service: subscribes to `shuffleboard/<venue>/#`, keeps each table's latest state
and every banked game (once), and serves the TV page and its JSON (web.py).

The MQTT session is persistent (the install's own client id, made once and kept in the
database; clean_session off; QoS 1), so games banked while the service is down wait on the
broker and arrive when it is back; the tables' states are retained, so they are back at once
too. With a user, the password comes from the environment (MQTT_PASSWORD), never from the
command line, and is never logged.

A message is routed by the last level of its topic (`ROUTES`: `game`, `state`, `status`); a new
kind of message is one more entry there (`Service.route`), handled as `fn(key, payload, now,
retained)` with `key` (venue, table), raising `Reject` for anything it will not take.
"""

import argparse
import collections
import logging
import os
import secrets
import threading
import time

import paho.mqtt.client as mqtt

from venue import records
from venue.db import SqliteStore
from venue.records import Reject

log = logging.getLogger('venue')

EVENING = 6   # hour of the day a bar's night starts from (a game at 1 am is still tonight)
# Tables kept in memory. Shown tables, tables that said online but are not shown yet, and
# topics that only sent a state are kept apart, so a flood of made-up topics fills only its own
# pool: a table that banked games here is never pushed out, and in each pool the one heard from
# least recently goes first.
MAX_TABLES = 5000
MAX_PENDING = 5000

def windows(now):
    """Unix times where tonight and this week (from Monday) begin, in local time."""
    t = time.localtime(now)
    start = time.mktime((t.tm_year, t.tm_mon, t.tm_mday, EVENING, 0, 0, 0, 0, -1))
    if start > now:
        start -= 86400
    day = time.localtime(start)
    week = start - day.tm_wday * 86400
    # mktime again around a DST change so the boundary stays at EVENING o'clock
    w = time.localtime(week)
    week = time.mktime((w.tm_year, w.tm_mon, w.tm_mday, EVENING, 0, 0, 0, 0, -1))
    return start, week


def hostport(s, default_port):
    host, _, port = s.rpartition(':')
    if not host:
        host, port = s, default_port
    return host, int(port)


class Service:
    def __init__(self, db, venue='+', clock=time.time):
        self.db = db
        self.venue = venue
        self.clock = clock
        # (venue, table) -> {'status', 'state', 'updated', 'live', 'note'}: `live` once a
        # message came as it was sent (not a retained copy from before this start). Shown:
        # online at least once, with a state, and either live or known (banked games here).
        self.tables = collections.OrderedDict()     # shown, oldest activity first
        self.heard = collections.OrderedDict()      # said online or offline, not (yet) shown
        self.pending = collections.OrderedDict()    # only a state so far
        self.known = set(db.tables()) if hasattr(db, 'tables') else set()
        # Tables shown live before (db.seen): shown again from their retained messages after a
        # restart, but, unlike a table with games, given up first when the pool is full.
        self.seen = set(db.seen()) if hasattr(db, 'seen') else set()
        self.stats = {'games': 0, 'duplicates': 0, 'rejected': 0, 'states': 0, 'dropped': 0}
        self.per_venue = {}    # venue -> {'states': n, 'games': n} received, for the bench
        self.rejects = []      # the last reasons, newest last
        self.changed = threading.Condition()
        self.version = 0
        self._lock = threading.Lock()
        self.client = None
        self.subscribed = threading.Event()
        self.connected = threading.Event()
        self.refused = None    # the broker's reason when it refused the connection
        self.routes = {'game': self._game, 'state': self._state, 'status': self._status}
        self.client_id = db.setting('client_id', lambda: 'venue-' + secrets.token_hex(8))
        self.night = None      # the tournaments (night.py), when the service runs them
        self.routes['match'] = self._match

    def route(self, what, fn):
        """Handle the topics `shuffleboard/<venue>/<table>/<what>` with fn (see above)."""
        self.routes[what] = fn

    # -- messages ---------------------------------------------------------------------------
    def handle(self, topic, payload, retained=False):
        """One message from the broker. Never raises: a bad message is logged and dropped,
        and the next one is read as if it had not been there."""
        try:
            venue, table, what = records.parse_topic(topic)
            fn = self.routes.get(what)
            if fn is None:
                raise Reject('unknown topic %r' % what[:20])
            fn((venue, table), payload, self.clock(), retained)
            if what != 'game' and self.night is not None:
                self.night.tables_changed()     # a table freed, or gone offline
        except Reject as e:
            self._reject(topic, str(e))
        except Exception as e:   # a bug must not take the service down with it
            log.exception('message on %r', topic[:100])
            self._reject(topic, 'error: %r' % e)

    def _reject(self, topic, reason):
        self.stats['rejected'] += 1
        self.rejects.append((topic[:100], reason))
        del self.rejects[:-50]
        log.warning('ignored a message on %r: %s', topic[:100], reason)

    def _game(self, key, payload, now, retained):
        venue, table = key
        rec = records.game(payload, table)
        if rec['v'] > records.VERSION:
            log.warning('game %s on %s/%s: format %d, newer than this service (%d); kept '
                        'as read', rec['id'], venue, table, rec['v'], records.VERSION)
        new = self.db.add_game(venue, rec, now)
        if self.night is not None:     # a match's result, once (a repeat changes nothing)
            self.night.record(venue, table, rec)
        if new:
            self.stats['games'] += 1
            self._count(venue, 'games')
            log.info('game %s on %s/%s: %s %d-%d', rec['id'], venue, table,
                     rec['winner'], rec['red'], rec['blue'])
            with self._lock:
                self.known.add(key)
                if key in self.heard or key in self.pending:   # known now: shown if online
                    self._place(key)
            self._bump()
        else:
            self.stats['duplicates'] += 1
            log.info('game %s on %s/%s again (already kept)', rec['id'], venue, table)

    def _match(self, key, payload, now, retained):
        # ours, echoed or retained from before (night.py)
        if self.night is not None:
            self.night.retained(key[0], key[1], payload)

    def _state(self, key, payload, now, retained):
        if not payload:   # a retained state cleared: the table is gone
            with self._lock:
                for pool in (self.tables, self.heard, self.pending):
                    pool.pop(key, None)
            self._bump()
            return
        st = records.state(payload)
        with self._lock:
            t = self._entry(key)
            t['state'] = st
            t['updated'] = now
            rejoin = False
            if not retained:
                t['live'] = True
                rejoin = t.pop('rejoin', False)
            self._place(key)
        if rejoin and self.night is not None:
            self.night.rejoined(key[0], key[1])
        self.stats['states'] += 1
        self._count(key[0], 'states')
        self._bump()

    def _status(self, key, payload, now, retained):
        s = records.text(payload)
        # `online`, or `online` and what the board wants said, such as `online, not sent 3`
        # (records its outbox could not keep); `offline` (its last will).
        head = s.split(',', 1)[0]
        if head not in ('online', 'offline') or len(s) > 80:
            raise Reject('status: expected online or offline')
        with self._lock:
            t = self._entry(key)
            t['status'] = head
            t['note'] = s[len(head):].lstrip(', ').strip() or None
            if not retained:
                t['live'] = True
                # a board says `online` at every connect, then subscribes, then sends its
                # state: that state tells the night it is listening again (Night.rejoined)
                t['rejoin'] = head == 'online'
            self._place(key)
        self._bump()

    def _entry(self, key):
        # The table's entry, made (in the pending pool) when it is new. Under self._lock.
        for pool in (self.tables, self.heard, self.pending):
            t = pool.get(key)
            if t is not None:
                return t
        _room(self.pending, self.stats)
        t = self.pending[key] = {'status': None, 'state': None, 'updated': None,
                                 'live': False, 'note': None}
        return t

    def _place(self, key):
        # The entry to the pool it belongs in, as the most recently active. Under self._lock.
        t = None
        for pool in (self.tables, self.heard, self.pending):
            t = pool.pop(key, None) or t
        shown = (t['status'] is not None and t['state'] is not None
                 and (t['live'] or key in self.known or key in self.seen))
        if shown and len(self.tables) >= MAX_TABLES:
            for k in self.tables:   # the least recently active table with no game here
                if k not in self.known:
                    del self.tables[k]
                    self.stats['dropped'] += 1
                    break
            else:
                shown = False
        if shown:
            self.tables[key] = t
            if t['live'] and key not in self.seen and hasattr(self.db, 'remember'):
                self.seen.add(key)
                self.db.remember(*key)
        elif t['status'] is not None:
            _room(self.heard, self.stats)
            self.heard[key] = t
        else:
            _room(self.pending, self.stats)
            self.pending[key] = t

    def _count(self, venue, what):
        d = self.per_venue.get(venue)
        if d is None:
            d = self.per_venue[venue] = {'states': 0, 'games': 0}
        d[what] += 1

    def bump(self):
        self._bump()

    def _bump(self):
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    # -- what the page shows ----------------------------------------------------------------
    def table_list(self):
        with self._lock:
            items = sorted(self.tables.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1])))
            return [{'venue': v, 'table': t, 'status': d.get('status'), 'state': d.get('state'),
                     'note': d.get('note'), 'updated': d.get('updated'),
                     'known': (v, t) in self.known}
                    for (v, t), d in items]

    def leaderboard(self):
        """Games won per named player tonight, this week and all time, and in `show` the
        periods worth showing: a period whose list is the same as the shorter one before it
        says nothing more and is left out."""
        venue = None if self.venue == '+' else self.venue
        tonight, week = windows(self.clock())
        out = {'tonight': self.db.leaderboard(venue, tonight),
               'week': self.db.leaderboard(venue, week),
               'all': self.db.leaderboard(venue, None)}
        show = ['tonight']
        for key in ('week', 'all'):
            if out[key] != out[show[-1]]:
                show.append(key)
        out['show'] = show
        return out

    # -- the broker -------------------------------------------------------------------------
    def connect(self, host, port, user=None, password=None, client_id=None, retry=(0.25, 5)):
        """Connect in the background (and again after every drop). `password` is given by the
        caller from the environment; it is never logged."""
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                        client_id=client_id or self.client_id,
                        clean_session=False, protocol=mqtt.MQTTv311)
        if user:
            c.username_pw_set(user, password)
        c.reconnect_delay_set(*retry)
        c.on_connect = self._on_connect
        c.on_subscribe = self._on_subscribe
        c.on_connect_fail = lambda *a: log.warning('no broker at %s:%d yet; retrying', host, port)
        c.on_disconnect = self._on_disconnect
        c.on_message = lambda client, userdata, msg: self.handle(msg.topic, msg.payload,
                                                                 bool(msg.retain))
        c.connect_async(host, port, keepalive=30)
        c.loop_start()
        self.client = c
        log.info('connecting to %s:%d as client %s%s', host, port, client_id or self.client_id,
                 ', user %s' % user if user else '')
        return c

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.refused = str(reason)
            log.warning('broker refused: %s', reason)
            return
        self.refused = None
        self.connected.set()
        client.subscribe('shuffleboard/%s/#' % self.venue, qos=1)
        log.info('connected%s, subscribed to shuffleboard/%s/#',
                 ' (session kept)' if flags.session_present else '', self.venue)
        if self.night is not None:
            self.night.connected()

    def _on_subscribe(self, client, userdata, mid, reasons, properties):
        if any(r.is_failure for r in reasons):
            self.refused = 'subscription refused'
            log.warning('the broker refused the subscription to shuffleboard/%s/# (its ACL: '
                        'give --venue, the venue of the service\'s user)', self.venue)
            return
        self.subscribed.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        self.connected.clear()
        if reason.is_failure:
            log.warning('broker connection lost (%s); reconnecting', reason)

    def stop(self):
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
            self.client = None


def _room(pool, stats):
    # Room for one more in a pool of tables not shown: the one heard from least recently goes.
    if len(pool) >= MAX_PENDING:
        pool.popitem(last=False)
        stats['dropped'] += 1


def _natural(s):
    # 'table-10' after 'table-9'
    out, num = [], ''
    for c in s + '\0':
        if c.isdigit():
            num += c
            continue
        if num:
            out.append((0, int(num), ''))
            num = ''
        if c != '\0':
            out.append((1, 0, c))
    return out


def main(argv):
    from venue import web

    p = argparse.ArgumentParser(prog='venue', description=__doc__.split('\n\n')[0])
    p.add_argument('--mqtt', default='127.0.0.1:1883', help='the broker, HOST:PORT')
    p.add_argument('--http', default='127.0.0.1:8000', help='serve the TV page on HOST:PORT')
    p.add_argument('--db', default='venue.sqlite', help='the SQLite file (default %(default)s)')
    p.add_argument('--venue', default=None,
                   help='one venue name, or + for every venue (default: +, or with a user '
                        'made by make venue-broker, `<venue>-service`, that venue)')
    p.add_argument('--user', default=None,
                   help='the broker user; the password is read from MQTT_PASSWORD')
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format='%(asctime)s %(levelname)s %(message)s')
    password = os.environ.get('MQTT_PASSWORD') or None
    if args.user and password is None:
        log.warning('a broker user without MQTT_PASSWORD in the environment')
    venue = args.venue or '+'
    if args.venue is None and args.user and args.user.endswith('-service'):
        venue = args.user[:-len('-service')]   # make venue-broker's user reads its venue only
    svc = Service(SqliteStore(args.db), venue)
    from venue.night import Night
    Night(svc, args.db)
    svc.connect(*hostport(args.mqtt, 1883), user=args.user, password=password)
    server = web.serve(svc, *hostport(args.http, 8000))
    log.info('TV page on http://%s:%d/', *server.server_address[:2])
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        svc.stop()
        svc.db.close()
    return 0
