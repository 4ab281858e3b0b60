"""The venue service: subscribes to `shuffleboard/<venue>/#`, keeps each table's latest state
and every banked game (once), and serves the TV page and its JSON (web.py).

The MQTT session is persistent (a fixed client id, clean_session off, QoS 1), so games banked
while the service is down wait on the broker and arrive when it is back; the tables' states are
retained, so they are back at once too.
"""

import argparse
import logging
import threading
import time

import paho.mqtt.client as mqtt

from venue import records
from venue.db import SqliteStore
from venue.records import Reject

log = logging.getLogger('venue')

EVENING = 6   # hour of the day a bar's night starts from (a game at 1 am is still tonight)
MAX_TABLES = 5000   # tables kept in memory; past that a new table name is refused (junk)


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
        self.tables = {}       # (venue, table) -> {'status', 'state', 'updated'}
        self.stats = {'games': 0, 'duplicates': 0, 'rejected': 0, 'states': 0}
        self.per_venue = {}    # venue -> {'states': n, 'games': n} received, for the bench
        self.rejects = []      # the last reasons, newest last
        self.changed = threading.Condition()
        self.version = 0
        self._lock = threading.Lock()
        self.client = None
        self.subscribed = threading.Event()
        self.night = None      # the tournaments (night.py), when the service runs them

    # -- messages ---------------------------------------------------------------------------
    def handle(self, topic, payload):
        """One message from the broker. Never raises: a bad message is logged and dropped."""
        try:
            self._handle(topic, payload)
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

    def _handle(self, topic, payload):
        venue, table, what = records.parse_topic(topic)
        key = (venue, table)
        now = self.clock()
        if what in ('state', 'status') and payload and key not in self.tables \
                and len(self.tables) >= MAX_TABLES:
            raise Reject('more than %d tables' % MAX_TABLES)
        if what == 'match':    # ours, echoed or retained from before (night.py)
            if self.night is not None:
                self.night.retained(venue, table, payload)
            return
        if what == 'game':
            rec = records.game(payload, table)
            new = self.db.add_game(venue, rec, now)
            if self.night is not None:     # a match's result, once (a repeat changes nothing)
                self.night.record(venue, table, rec)
            if new:
                self.stats['games'] += 1
                self._count(venue, 'games')
                log.info('game %s on %s/%s: %s %d-%d', rec['id'], venue, table,
                         rec['winner'], rec['red'], rec['blue'])
                self._bump()
            else:
                self.stats['duplicates'] += 1
                log.info('game %s again (already kept)', rec['id'])
        elif what == 'state':
            if not payload:   # a retained state cleared: the table is gone
                with self._lock:
                    self.tables.pop(key, None)
            else:
                st = records.state(payload)
                with self._lock:
                    t = self.tables.setdefault(key, {'status': None})
                    t['state'] = st
                    t['updated'] = now
                self.stats['states'] += 1
                self._count(venue, 'states')
            self._bump()
        elif what == 'status':
            s = payload.decode('utf-8', 'replace')
            if s not in ('online', 'offline'):
                raise Reject('status: expected online or offline')
            with self._lock:
                self.tables.setdefault(key, {'state': None, 'updated': now})['status'] = s
            self._bump()
        else:
            raise Reject('unknown topic %r' % what[:20])
        if what != 'game' and self.night is not None:
            self.night.tables_changed()     # a table freed, or gone offline

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
                     'updated': d.get('updated')} for (v, t), d in items]

    def leaderboard(self):
        venue = None if self.venue == '+' else self.venue
        tonight, week = windows(self.clock())
        return {'tonight': self.db.leaderboard(venue, tonight),
                'week': self.db.leaderboard(venue, week),
                'all': self.db.leaderboard(venue, None)}

    # -- the broker -------------------------------------------------------------------------
    def connect(self, host, port, client_id=None, retry=(0.25, 5)):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2,
                        client_id=client_id or 'venue-service-%s' % self.venue.replace('+', 'all'),
                        clean_session=False, protocol=mqtt.MQTTv311)
        c.reconnect_delay_set(*retry)
        c.on_connect = self._on_connect
        c.on_subscribe = lambda *a: self.subscribed.set()
        c.on_connect_fail = lambda *a: log.warning('no broker at %s:%d yet; retrying', host, port)
        c.on_disconnect = lambda *a: log.warning('broker connection lost; reconnecting')
        c.on_message = lambda client, userdata, msg: self.handle(msg.topic, msg.payload)
        c.connect_async(host, port, keepalive=30)
        c.loop_start()
        self.client = c
        return c

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            log.warning('broker refused: %s', reason)
            return
        client.subscribe('shuffleboard/%s/#' % self.venue, qos=1)
        log.info('connected, subscribed to shuffleboard/%s/#', self.venue)
        if self.night is not None:
            self.night.connected()

    def stop(self):
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
            self.client = None


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
    p.add_argument('--venue', default='+', help='one venue name, or + for every venue')
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format='%(asctime)s %(levelname)s %(message)s')
    svc = Service(SqliteStore(args.db), args.venue)
    from venue.night import Night
    Night(svc, args.db)
    svc.connect(*hostport(args.mqtt, 1883))
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
