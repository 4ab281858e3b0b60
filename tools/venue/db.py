"""The venue's games on SQLite. Another database is another class with the same methods
(`add_game`, `games`, `leaderboard`, `tables`, `setting`) and a `close`; the service uses
nothing else.

A game is identified by venue, table and id together: (venue, tbl, id) is the primary key, so a
record the board sent again after a lost acknowledgement changes nothing, and a record with the
same id on another table is another game (it can never suppress a real one). `at` is when the
game ended in Unix seconds: the board's `ended` when it is a time of day (a board that knows the
time), else when the service received it. `record` is the checked record as JSON, with its
format version `v` (docs/formats.md); rows written before versions existed have none and are
read as version 1.

The `settings` table keeps what the install made once, such as its MQTT client id.
"""

import json
import sqlite3
import threading

FORMAT = 1   # the version of the records this service writes (docs/formats.md)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    venue TEXT NOT NULL, id TEXT NOT NULL, tbl TEXT NOT NULL, kind TEXT NOT NULL,
    red INTEGER NOT NULL, blue INTEGER NOT NULL, winner TEXT,
    red_name TEXT, blue_name TEXT, at REAL NOT NULL, received REAL NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (venue, tbl, id));
CREATE INDEX IF NOT EXISTS games_at ON games (venue, at);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seen (venue TEXT NOT NULL, tbl TEXT NOT NULL,
    PRIMARY KEY (venue, tbl));
"""

# Games won per named player: a side without a name is not a player (its games still count in
# the tables' figures), and a player with no win is not listed.
_BOARD = """
SELECT name, SUM(won), COUNT(*) FROM (
  SELECT red_name AS name, winner = 'red' AS won FROM games
   WHERE red_name IS NOT NULL AND {where}
  UNION ALL
  SELECT blue_name, winner = 'blue' FROM games WHERE blue_name IS NOT NULL AND {where})
GROUP BY name HAVING SUM(won) > 0 ORDER BY SUM(won) DESC, COUNT(*) ASC, name
"""

WALL_CLOCK = 1e9   # an `ended` past this is a Unix time (2001 on), not seconds since boot


def _migrate(db):
    # A database of the first service keyed games by (venue, id) only: copied once into the
    # table keyed by (venue, tbl, id), the rows kept as they were.
    row = db.execute("SELECT sql FROM sqlite_master WHERE type='table' AND name='games'")
    row = row.fetchone()
    if row is None or 'PRIMARY KEY (venue, id)' not in row[0]:
        return
    db.executescript('ALTER TABLE games RENAME TO games_v0; DROP INDEX IF EXISTS games_at;')
    db.executescript(SCHEMA)
    db.execute('INSERT OR IGNORE INTO games SELECT * FROM games_v0')
    db.execute('DROP TABLE games_v0')
    db.commit()


class SqliteStore:
    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False)
        _migrate(self._db)
        self._db.executescript(SCHEMA)
        self._db.execute('PRAGMA journal_mode=WAL')
        self._db.commit()

    def add_game(self, venue, rec, received):
        """Store one checked record; False when (venue, table, id) is already there."""
        at = rec['ended'] if rec['ended'] >= WALL_CLOCK else received
        rec = dict(rec, v=rec.get('v', FORMAT))
        with self._lock:
            cur = self._db.execute(
                'INSERT OR IGNORE INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
                (venue, rec['id'], rec['table'], rec['game'], rec['red'], rec['blue'],
                 rec['winner'], rec['names']['red'], rec['names']['blue'], at, received,
                 json.dumps(rec, sort_keys=True)))
            self._db.commit()
            return cur.rowcount == 1

    def _where(self, venue, since):
        clauses, args = [], []
        if venue is not None:
            clauses.append('venue = ?')
            args.append(venue)
        if since is not None:
            clauses.append('at >= ?')
            args.append(since)
        return ' AND '.join(clauses) or '1', args

    def games(self, venue=None, since=None):
        where, args = self._where(venue, since)
        with self._lock:
            rows = self._db.execute('SELECT venue, record, at FROM games WHERE %s '
                                    'ORDER BY at, tbl, id' % where, args).fetchall()
        out = []
        for v, rec, at in rows:
            d = json.loads(rec)
            d.setdefault('v', 1)   # written before records had a version: the first format
            d['venue'] = v
            d['at'] = at
            out.append(d)
        return out

    def leaderboard(self, venue=None, since=None):
        where, args = self._where(venue, since)
        with self._lock:
            rows = self._db.execute(_BOARD.format(where=where), args + args).fetchall()
        return [{'name': n, 'won': int(w), 'played': p} for n, w, p in rows]

    def tables(self):
        """(venue, table) of every table that banked a game here."""
        with self._lock:
            return [tuple(r) for r in
                    self._db.execute('SELECT DISTINCT venue, tbl FROM games').fetchall()]

    def seen(self):
        """(venue, table) of every table that was shown live here (online and a state, sent
        while the service listened), banked or not: after a restart such a table is shown from
        its retained messages, as a board that sits at setup sends nothing new."""
        with self._lock:
            return [tuple(r) for r in self._db.execute('SELECT venue, tbl FROM seen').fetchall()]

    def remember(self, venue, table):
        with self._lock:
            self._db.execute('INSERT OR IGNORE INTO seen VALUES (?, ?)', (venue, table))
            self._db.commit()

    def setting(self, key, make=None):
        """The value kept under `key`; without one, `make()` is kept and returned (once: a
        value already there always wins)."""
        with self._lock:
            row = self._db.execute('SELECT value FROM settings WHERE key = ?', (key,))
            row = row.fetchone()
            if row is not None or make is None:
                return row and row[0]
            self._db.execute('INSERT OR IGNORE INTO settings VALUES (?, ?)', (key, make()))
            self._db.commit()
            return self._db.execute('SELECT value FROM settings WHERE key = ?',
                                    (key,)).fetchone()[0]

    def close(self):
        with self._lock:
            self._db.close()
