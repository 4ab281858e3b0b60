"""The venue's games on SQLite. Another database is another class with the same three methods
(`add_game`, `games`, `leaderboard`) and a `close`; the service uses nothing else.

A game is stored once: its (venue, id) is the primary key, so a record the board sent again
after a lost acknowledgement changes nothing. `at` is when the game ended in Unix seconds: the
board's `ended` when it is a time of day (a board that knows the time), else when the service
received it.
"""

import json
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    venue TEXT NOT NULL, id TEXT NOT NULL, tbl TEXT NOT NULL, kind TEXT NOT NULL,
    red INTEGER NOT NULL, blue INTEGER NOT NULL, winner TEXT,
    red_name TEXT, blue_name TEXT, at REAL NOT NULL, received REAL NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (venue, id));
CREATE INDEX IF NOT EXISTS games_at ON games (venue, at);
"""

# Games won per name, or per colour where the side had no name.
_BOARD = """
SELECT name, colour, SUM(won), COUNT(*) FROM (
  SELECT red_name AS name, CASE WHEN red_name IS NULL THEN 'red' END AS colour,
         winner = 'red' AS won FROM games WHERE {where}
  UNION ALL
  SELECT blue_name, CASE WHEN blue_name IS NULL THEN 'blue' END,
         winner = 'blue' FROM games WHERE {where})
GROUP BY name, colour ORDER BY SUM(won) DESC, COUNT(*) ASC, name IS NULL, name, colour
"""

WALL_CLOCK = 1e9   # an `ended` past this is a Unix time (2001 on), not seconds since boot


class SqliteStore:
    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.executescript(SCHEMA)
        self._db.execute('PRAGMA journal_mode=WAL')
        self._db.commit()

    def add_game(self, venue, rec, received):
        """Store one checked record; False when its id is already there."""
        at = rec['ended'] if rec['ended'] >= WALL_CLOCK else received
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
            rows = self._db.execute('SELECT venue, record, at FROM games WHERE %s ORDER BY at, id'
                                    % where, args).fetchall()
        out = []
        for v, rec, at in rows:
            d = json.loads(rec)
            d['venue'] = v
            d['at'] = at
            out.append(d)
        return out

    def leaderboard(self, venue=None, since=None):
        where, args = self._where(venue, since)
        with self._lock:
            rows = self._db.execute(_BOARD.format(where=where), args + args).fetchall()
        return [{'name': n, 'colour': c, 'won': int(w), 'played': p} for n, c, w, p in rows]

    def close(self):
        with self._lock:
            self._db.close()
