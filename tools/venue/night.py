"""The tournament night in the venue service (DESIGN section 13): the tournaments kept in the
venue's SQLite file, matches given to free tables over the retained `match` topics, results
taken from the banked records that carry `"match": id`, and what the host's page asks for.

- A **free table** is one of the tournament's venue (and of its `tables`, when it names some)
  whose `status` is online and whose `state` is at setup (no game in play), with no match of
  any tournament on it. Each ready match (tournament.py says which) goes to the first free
  table, naturally sorted, as `shuffleboard/<venue>/<table>/match` (retained, QoS 1): `{"id",
  "tournament", "round", "game", "options", "names"}`.
- What is retained on each `match` topic is kept equal to the match on that table, or empty:
  after a result, a move, a withdrawal; on every connect to the broker (so a broker that lost
  its retained messages, or a service that was down, puts them back); and whenever the broker
  shows a retained `match` that is not what the database says (a stale one is cleared).
- A **result** is the first banked record for the match, from the table it is on: a match that
  is done is not decided again (a repeated record, or one from a table the match was moved
  away from, changes nothing and is counted in `stats`). On a start, the records already in
  the database are looked through for matches still on a table, so a record that arrived just
  before the service stopped is not lost.
- Every change is written in one transaction with a line in `tournament_log`.
"""

import json
import logging
import os
import re
import sqlite3
import threading
import time

from venue.records import level_ok
from venue.tournament import MAX_PLAYERS, Tournament, TournamentError

log = logging.getLogger('venue')

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY, venue TEXT NOT NULL, state TEXT NOT NULL, data TEXT NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tournament_log (
    n INTEGER PRIMARY KEY AUTOINCREMENT, tournament INTEGER NOT NULL, at REAL NOT NULL,
    what TEXT NOT NULL, detail TEXT NOT NULL);
"""
MATCH_ID = re.compile(r'^t(\d{1,9})r\d{1,3}m\d{1,4}$')
MAX_TABLES = 50     # tables a tournament may name
MAX_SEEN = 5000     # retained `match` topics followed (as many as the service keeps tables)
MAX_TITLE = 40


class NotFound(TournamentError):
    pass


def core():
    """The firmware's scoring core, to check a game and its options as a board will."""
    from scoreboard import core as c    # firmware/ is on the path: venue/__init__.py
    return c


class TournamentStore:
    """The tournaments in the venue's SQLite file (its own connection; WAL lets it share)."""

    def __init__(self, path, clock=time.time):
        self.clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.executescript(SCHEMA)
        self._db.commit()

    def load(self):
        with self._lock:
            rows = self._db.execute('SELECT data FROM tournaments ORDER BY id').fetchall()
        return [Tournament.from_dict(json.loads(d)) for (d,) in rows]

    def next_id(self):
        with self._lock:
            (n,) = self._db.execute('SELECT COALESCE(MAX(id), 0) FROM tournaments').fetchone()
        return n + 1

    def save(self, t, what, detail=None):
        now = self.clock()
        with self._lock:
            self._db.execute(
                'INSERT INTO tournaments VALUES (?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET '
                'state=excluded.state, data=excluded.data, updated=excluded.updated',
                (t.id, t.venue, t.state, json.dumps(t.to_dict(), sort_keys=True), now, now))
            self._db.execute('INSERT INTO tournament_log (tournament, at, what, detail) '
                             'VALUES (?,?,?,?)', (t.id, now, what, json.dumps(detail or {})))
            self._db.commit()

    def history(self, tid):
        with self._lock:
            rows = self._db.execute('SELECT at, what, detail FROM tournament_log WHERE '
                                    'tournament = ? ORDER BY n', (tid,)).fetchall()
        return [{'at': a, 'what': w, 'detail': json.loads(d)} for a, w, d in rows]

    def close(self):
        with self._lock:
            self._db.close()


def _natural_key(s):
    return [(0, int(p), '') if p.isdigit() else (1, 0, p) for p in re.findall(r'\d+|\D+', s)]


class Night:
    """The service's tournaments. `svc` is the Service (its tables, its broker client, its
    games); `path` the SQLite file."""

    def __init__(self, svc, path, clock=time.time):
        self.svc = svc
        self.store = TournamentStore(path, clock)
        self.lock = threading.RLock()
        self.tournaments = {t.id: t for t in self.store.load()}
        self.sent = {}       # (venue, table) -> the payload last published on its match topic
        self.seen = {}       # (venue, table) -> the retained payload the broker showed
        self.stats = {'results': 0, 'repeats': 0, 'refused': 0, 'published': 0}
        self.version = 0
        svc.night = self
        self._recover()

    # -- reading ---------------------------------------------------------------------------
    def get(self, tid):
        t = self.tournaments.get(tid)
        if t is None:
            raise NotFound('no tournament %s' % (tid,))
        return t

    def view(self, tid):
        with self.lock:
            t = self.get(tid)
            v = t.view()
            online = self._online()
            for m in v['matches'] + v['playing'] + v['next']:
                m['table_online'] = (t.venue, m['table']) in online if m['table'] else None
            return v

    def summaries(self):
        with self.lock:
            return [{'id': t.id, 'name': t.name, 'format': t.format, 'doubles': t.doubles,
                     'state': t.state, 'venue': t.venue, 'players': len(t.players),
                     'champion': t.champion()}
                    for t in sorted(self.tournaments.values(), key=lambda t: -t.id)]

    def match_owner(self, mid):
        m = MATCH_ID.match(mid) if isinstance(mid, str) else None
        t = self.tournaments.get(int(m.group(1))) if m else None
        if t is None:
            raise NotFound('no match %s' % (str(mid)[:40],))
        try:
            t.match(mid)
        except TournamentError:
            raise NotFound('no match %s' % mid)
        return t

    # -- the host's changes ----------------------------------------------------------------
    def create(self, body):
        """POST /api/tournaments: body checked (TournamentError with the reason)."""
        if not isinstance(body, dict):
            raise TournamentError('the tournament is a JSON object')
        allowed = {'name', 'format', 'doubles', 'draw', 'seed', 'game', 'options', 'players',
                   'tables', 'venue', 'start'}
        extra = sorted(k for k in body if k not in allowed)
        if extra:
            raise TournamentError('unknown field %s' % extra[0][:30])
        name = body.get('name') or ''
        if not isinstance(name, str) or len(name) > MAX_TITLE:
            raise TournamentError('the name is text of at most %d characters' % MAX_TITLE)
        game = body.get('game', 'knockoff')
        options = body.get('options') or {}
        c = core()
        if game not in c.KINDS:
            raise TournamentError('unknown game %r' % str(game)[:20])
        if not isinstance(options, dict) or len(options) > 8:
            raise TournamentError('options is an object')
        try:
            c.new_game(game, **options)
        except (c.RuleError, TypeError, ValueError) as e:
            raise TournamentError('options: %s' % e)
        doubles = body.get('doubles', False)
        if not isinstance(doubles, bool):
            raise TournamentError('doubles is true or false')
        seed = body.get('seed')
        if seed is None:
            seed = int.from_bytes(os.urandom(4), 'big')
        if type(seed) is not int or not 0 <= seed < 2 ** 63:
            raise TournamentError('the seed is a whole number')
        venue = body.get('venue') or self._default_venue()
        if not isinstance(venue, str) or not level_ok(venue):
            raise TournamentError('the venue is 1..32 letters, digits, _ or -')
        tables = body.get('tables')
        if tables is not None:
            if not isinstance(tables, list) or not 0 < len(tables) <= MAX_TABLES or not all(
                    isinstance(x, str) and level_ok(x) for x in tables):
                raise TournamentError('tables is a list of table names')
        players = body.get('players') or []
        if not isinstance(players, list) or len(players) > MAX_PLAYERS:
            raise TournamentError('players is a list of at most %d names' % MAX_PLAYERS)
        with self.lock:
            t = Tournament(self.store.next_id(), name, body.get('format', 'roundrobin'), game,
                           options, doubles, body.get('draw', 'seeded'), seed, venue, tables)
            for p in players:
                t.add_player(p)
            # With players and no `start`, the draw is made at once (an API call that names
            # the players wants the night to begin); the host page says start: false to sign
            # up more first.
            if body.get('start', len(players) >= 2):
                t.start()
            self.tournaments[t.id] = t
            self.store.save(t, 'create', {'body': body})
            self._changed()
            return t

    def add_player(self, tid, name):
        with self.lock:
            t = self.get(tid)
            name = t.add_player(name)
            self.store.save(t, 'signup', {'name': name})
            self._changed()
            return t

    def start(self, tid):
        with self.lock:
            t = self.get(tid)
            t.start()
            self.store.save(t, 'start', {'entries': [e['name'] for e in t.entries]})
            self._changed()
            return t

    def withdraw(self, tid, name):
        with self.lock:
            t = self.get(tid)
            t.withdraw(name)
            self.store.save(t, 'withdraw', {'name': name})
            self._changed()
            return t

    def host_result(self, mid, body):
        """POST /api/matches/<id>/result: {"winner": "red"|"blue", "red": n, "blue": n}."""
        if not isinstance(body, dict) or set(body) - {'winner', 'red', 'blue'}:
            raise TournamentError('a result is winner, red and blue')
        with self.lock:
            t = self.match_owner(mid)
            before = t.match(mid)['state']
            m = t.result(mid, body.get('winner'), body.get('red', 0), body.get('blue', 0))
            self.store.save(t, 'correct' if before == 'done' else 'result',
                            {'match': mid, 'by': 'host', 'winner': m['winner'],
                             'score': m['score']})
            self._changed()
            return t

    def move(self, mid, table):
        """POST /api/matches/<id>/move: {"table": name} to a free table, or null to put the
        match back in the queue (the next free table takes it)."""
        with self.lock:
            t = self.match_owner(mid)
            m = t.match(mid)
            if table is None:
                t.unassign(mid)
            else:
                if not isinstance(table, str) or not level_ok(table):
                    raise TournamentError('a table is a table name')
                if m['state'] == 'playing' and m['table'] == table:
                    return t
                if table not in self._free(t):
                    raise TournamentError('table %s is not free (online, at setup, no match)'
                                          % table)
                t.assign(mid, table)
            self.store.save(t, 'move', {'match': mid, 'table': table})
            self._changed()
            return t

    # -- from the broker (the service's message thread) ------------------------------------
    def record(self, venue, table, rec):
        """A banked game, new or repeated: the result of its match, once."""
        mid = rec.get('match')
        if not mid:
            return
        with self.lock:
            try:
                t = self.match_owner(mid)
            except TournamentError:
                self._refuse('a record for an unknown match %s' % mid[:40])
                return
            m = t.match(mid)
            if t.venue != venue:
                self._refuse('match %s is not at venue %s' % (mid, venue))
                return
            if m['state'] == 'done':
                self.stats['repeats'] += 1
                log.info('match %s: decided already; record %s changes nothing', mid, rec['id'])
                return
            if rec.get('winner') not in ('red', 'blue'):
                self._refuse('match %s: a record without a winner' % mid)
                return
            try:
                t.result(mid, rec['winner'], rec['red'], rec['blue'], table=table)
            except TournamentError as e:
                self._refuse(str(e))
                return
            self.stats['results'] += 1
            self.store.save(t, 'result', {'match': mid, 'by': 'board', 'table': table,
                                          'record': rec['id'], 'winner': rec['winner'],
                                          'score': m['score']})
            log.info('match %s on %s/%s: %s wins', mid, venue, table, rec['winner'])
            self._changed()

    def retained(self, venue, table, payload):
        """What the broker holds on a `match` topic (ours echoed, or left from before)."""
        key = (venue, table)
        with self.lock:
            if key not in self.seen and len(self.seen) >= MAX_SEEN:
                return          # junk under shuffleboard/: not followed past the bound
            self.seen[key] = bytes(payload)
            if bytes(payload) != self._desired().get(key, b''):
                self.sent.pop(key, None)    # not what it should be: publish it again
            self._sync()

    def rejoined(self, venue, table):
        """A board connected (again) and has subscribed to its `match` topic. What the broker
        holds there reached it with the subscription; but an empty retained message is not
        held, so a board that was away while its match was moved or cleared would show that
        match on and on. Where no match is on that table, the empty one is sent again: to the
        board alone, which is listening now (one message per connect)."""
        key = (venue, table)
        with self.lock:
            if key in self._desired() or not any(t.venue == venue
                                                 for t in self.tournaments.values()):
                return
            c = self.svc.client
            if c is not None and c.is_connected():
                self._publish(c, key, b'')

    def tables_changed(self):
        with self.lock:
            if self._dispatch():
                self._changed()

    def connected(self):
        """The broker (again): every match topic is published afresh."""
        with self.lock:
            self.sent.clear()
            self._sync()

    # -- inside ----------------------------------------------------------------------------
    def _refuse(self, why):
        self.stats['refused'] += 1
        log.warning('tournament: %s', why)

    def _default_venue(self):
        if self.svc.venue != '+':
            return self.svc.venue
        venues = sorted({v for v, _ in self.svc.tables})
        return venues[0] if len(venues) == 1 else 'bar'

    def _online(self):
        return {(d['venue'], d['table']) for d in self.svc.table_list()
                if d.get('status') == 'online'}

    def _occupied(self):
        return {(t.venue, m['table']) for t in self.tournaments.values() for m in t.playing()}

    def _free(self, t):
        busy = self._occupied()
        out = []
        for d in self.svc.table_list():
            key = (d['venue'], d['table'])
            st = d.get('state') or {}
            if d['venue'] != t.venue or key in busy or d.get('status') != 'online' or \
                    st.get('screen') != 'setup':
                continue
            if t.tables is not None and d['table'] not in t.tables:
                continue
            out.append(d['table'])
        return sorted(out, key=_natural_key)

    def _dispatch(self):
        """Ready matches to free tables; True when any went out."""
        sent = False
        for t in sorted(self.tournaments.values(), key=lambda t: t.id):
            if t.state != 'running':
                continue
            for m in t.ready():
                free = self._free(t)
                if not free:
                    break
                t.assign(m['id'], free[0])
                self.store.save(t, 'assign', {'match': m['id'], 'table': free[0]})
                sent = True
        if sent:
            self._sync()
        return sent

    def _desired(self):
        out = {}
        for t in self.tournaments.values():
            for m in t.playing():
                out[(t.venue, m['table'])] = json.dumps(
                    {'id': m['id'], 'tournament': t.id, 'round': m['round'], 'game': t.game,
                     'options': t.options, 'names': {'red': t.name_of(m['red']),
                                                     'blue': t.name_of(m['blue'])}},
                    sort_keys=True).encode()
        return out

    def _sync(self):
        c = self.svc.client
        if c is None or not c.is_connected():
            return
        want = self._desired()
        keys = set(want) | {k for k, v in self.sent.items() if v} | \
            {k for k, v in self.seen.items() if v}
        for key in sorted(keys):
            payload = want.get(key, b'')
            if self.sent.get(key) != payload:
                self._publish(c, key, payload)

    def _publish(self, c, key, payload):
        c.publish('shuffleboard/%s/%s/match' % key, payload, qos=1, retain=True)
        self.sent[key] = payload
        self.stats['published'] += 1

    def _changed(self):
        self._dispatch()
        self._sync()
        self.version += 1
        bump = getattr(self.svc, 'bump', None)
        if bump is not None:
            bump()

    def _recover(self):
        # Records the database holds for matches still on a table: taken now, once.
        for t in list(self.tournaments.values()):
            playing = {m['id']: m for m in t.playing()}
            if not playing:
                continue
            for rec in self.svc.db.games(t.venue):
                if rec.get('match') in playing:
                    self.record(rec['venue'], rec['table'], rec)
