"""The tournament engine of the venue service (DESIGN section 13): pure, no MQTT, no SQLite.

A Tournament is plain data (to_dict/from_dict, JSON-safe) with the operations of a night:
sign-up, start (the draw), the ready matches, a match given to a table or taken off it, a
result, a correction, a withdrawal, and the standings or bracket. The service keeps one per row
in its database (store.py) and turns the matches on tables into `match` messages (night.py).

The rules, as the host's page and docs/tournaments.md say them:
- **Round robin**: every pair of entries meets once. Rounds by the circle method, so an entry
  plays at most once a round (with an odd number of entries one sits out each round). A match
  is ready once neither of its entries is on a table; earlier rounds go first.
- **Single elimination**: the bracket is the next power of two; the entries are seeded in
  sign-up order (`draw: seeded`) or drawn at random (`draw: random`, from the tournament's
  seed), and the byes go to the top of the draw (seed 1 first), so no match is two byes. A bye
  is a match `done` at the start with `bye: true`. A result puts its winner into the next round.
- **Doubles by blind draw**: the players are shuffled (the seed again) and paired in order;
  each pair is one entry of the format chosen. It needs an even number of players.
- **Withdrawing** an entry (a player, or the pair a player is in) forfeits every match of
  theirs not yet done: the opponent wins it 0-0 with `forfeit: true` (in a bracket, as soon as
  the opponent is known). A match on a table is taken off it.
- **Correcting** a result that is done: in a round robin always (the standings are computed
  from the results each time). In a bracket a correction that changes the winner is refused
  when the match the winner went on to is on a table or done (correct that one first is not
  possible: it was played by someone else); while that match waits, its side is replaced.
  A correction of the score alone is always taken. Byes and forfeits are not corrected.
- **Standings** (round robin): wins, then points difference (for minus against), then points
  for, then sign-up order; an entry that withdrew is listed after every other. Forfeits count
  as a win with no points.
"""

import random

FORMATS = ('roundrobin', 'single')
DRAWS = ('seeded', 'random')
ALIASES = {'roundrobin': 'roundrobin', 'round_robin': 'roundrobin', 'round-robin': 'roundrobin',
           'round robin': 'roundrobin', 'rr': 'roundrobin',
           'single': 'single', 'single_elimination': 'single', 'single-elimination': 'single',
           'single elimination': 'single', 'elimination': 'single', 'knockout': 'single',
           'bracket': 'single', 'se': 'single'}
NAME_MAX = 12      # as on the board (a name goes to its display)
MAX_PLAYERS = 64
MIN_ENTRIES = 2
SIDES = ('red', 'blue')


class TournamentError(ValueError):
    """A refusal, with a sentence the host understands."""


def check_name(name):
    """A player's name as the board takes it: 1..12 printable characters, not only spaces."""
    if not isinstance(name, str):
        raise TournamentError('a name is text')
    name = ' '.join(name.split())
    if not name:
        raise TournamentError('a name cannot be empty')
    if len(name) > NAME_MAX:
        raise TournamentError('%r is longer than %d characters' % (name[:20], NAME_MAX))
    for c in name:
        o = ord(c)
        if o < 32 or 127 <= o < 160 or c in '\u200b\u200c\u200d\u2060\ufeff' or \
                0x202a <= o <= 0x202e or 0x2066 <= o <= 0x2069 or 0xd800 <= o <= 0xdfff:
            raise TournamentError('%r has a character a board cannot show' % name)
    return name


def pair_name(a, b):
    """The name of a drawn pair on a board: 'Ann/Bob', each half shortened to fit 12."""
    if len(a) + 1 + len(b) <= NAME_MAX:
        return a + '/' + b
    half = (NAME_MAX - 1) // 2
    la = min(len(a), max(half, NAME_MAX - 1 - len(b)))
    return a[:la] + '/' + b[:NAME_MAX - 1 - la]


def circle(n):
    """Round robin rounds for entries 0..n-1: a list of rounds, each a list of (i, j)."""
    ids = list(range(n))
    if n % 2:
        ids.append(None)
    m = len(ids)
    rounds = []
    for r in range(m - 1):
        pairs = []
        for k in range(m // 2):
            a, b = ids[k], ids[m - 1 - k]
            if a is not None and b is not None:
                # alternate colours so nobody is always red
                pairs.append((a, b) if (r + k) % 2 == 0 else (b, a))
        rounds.append(pairs)
        ids = [ids[0]] + [ids[-1]] + ids[1:-1]
    return rounds


def seed_order(size):
    """Seeds 1..size in bracket order (1 v size, and seeds 1 and 2 meet only in the final)."""
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


class Tournament:
    def __init__(self, tid, name='', fmt='roundrobin', game='knockoff', options=None,
                 doubles=False, draw='seeded', seed=0, venue='bar', tables=None):
        fmt = ALIASES.get(fmt, fmt) if isinstance(fmt, str) else fmt
        if fmt == 'doubles':
            fmt, doubles = 'roundrobin', True
        if fmt not in FORMATS:
            raise TournamentError('the format is round robin or single elimination')
        if draw not in DRAWS:
            raise TournamentError('the draw is seeded or random')
        self.id = tid
        self.name = name or 'Tournament %s' % tid
        self.format = fmt
        self.doubles = bool(doubles)
        self.draw = draw
        self.seed = seed
        self.game = game
        self.options = dict(options or {})
        self.venue = venue
        self.tables = list(tables) if tables else None   # None: any table of the venue
        self.state = 'signup'      # signup, running, done
        self.players = []          # names in sign-up order
        self.entries = []          # {'name', 'players', 'withdrawn'}
        self.matches = []          # see _match
        self.rounds = 0

    # -- sign-up ---------------------------------------------------------------------------
    def add_player(self, name):
        if self.state != 'signup':
            raise TournamentError('the tournament has started: sign-up is closed')
        name = check_name(name)
        if name.lower() in [p.lower() for p in self.players]:
            raise TournamentError('%s is signed up already' % name)
        if len(self.players) >= MAX_PLAYERS:
            raise TournamentError('at most %d players' % MAX_PLAYERS)
        self.players.append(name)
        return name

    def remove_player(self, name):
        if self.state != 'signup':
            raise TournamentError('the tournament has started: withdraw the player instead')
        i = self._player_index(name)
        del self.players[i]

    def _player_index(self, name):
        low = name.lower() if isinstance(name, str) else None
        for i, p in enumerate(self.players):
            if p.lower() == low:
                return i
        raise TournamentError('%s is not signed up' % (name,))

    # -- the draw --------------------------------------------------------------------------
    def start(self):
        if self.state != 'signup':
            raise TournamentError('the tournament has started already')
        rng = random.Random(self.seed)
        players = list(self.players)
        if self.doubles:
            if len(players) < 2 * MIN_ENTRIES or len(players) % 2:
                raise TournamentError('doubles by blind draw needs an even number of players, '
                                      'at least 4')
            rng.shuffle(players)
            self.entries = [{'name': pair_name(players[i], players[i + 1]),
                             'players': [players[i], players[i + 1]], 'withdrawn': False}
                            for i in range(0, len(players), 2)]
        else:
            if len(players) < MIN_ENTRIES:
                raise TournamentError('at least 2 players')
            if self.format == 'single' and self.draw == 'random':
                rng.shuffle(players)
            self.entries = [{'name': p, 'players': [p], 'withdrawn': False} for p in players]
        if self.format == 'roundrobin':
            self._round_robin()
        else:
            self._bracket()
        self.state = 'running'
        self._settle()

    def _match(self, rnd, slot, red, blue):
        return {'id': 't%sr%dm%d' % (self.id, rnd, slot), 'round': rnd, 'slot': slot,
                'red': red, 'blue': blue, 'table': None, 'state': 'waiting', 'winner': None,
                'score': None, 'forfeit': False, 'bye': False, 'moved_from': []}

    def _round_robin(self):
        rounds = circle(len(self.entries))
        self.rounds = len(rounds)
        self.matches = [self._match(r + 1, k + 1, a, b)
                        for r, pairs in enumerate(rounds) for k, (a, b) in enumerate(pairs)]

    def _bracket(self):
        n = len(self.entries)
        size = 1
        while size < n:
            size *= 2
        order = seed_order(size)
        self.rounds = size.bit_length() - 1
        self.matches = []
        for k in range(size // 2):
            a, b = order[2 * k] - 1, order[2 * k + 1] - 1
            m = self._match(1, k + 1, a if a < n else None, b if b < n else None)
            if m['red'] is None or m['blue'] is None:
                m['bye'] = True
            self.matches.append(m)
        count = size // 4
        for r in range(2, self.rounds + 1):
            for k in range(count):
                self.matches.append(self._match(r, k + 1, None, None))
            count //= 2

    # -- looking things up -----------------------------------------------------------------
    def match(self, mid):
        for m in self.matches:
            if m['id'] == mid:
                return m
        raise TournamentError('no match %s' % (mid,))

    def _feeding(self, m):
        """The bracket match m's winner goes on to, and the side it takes there."""
        if self.format != 'single' or m['round'] >= self.rounds:
            return None, None
        nxt = self._at(m['round'] + 1, (m['slot'] + 1) // 2)
        return nxt, 'red' if m['slot'] % 2 else 'blue'

    def _at(self, rnd, slot):
        for m in self.matches:
            if m['round'] == rnd and m['slot'] == slot:
                return m
        return None

    def name_of(self, entry):
        return None if entry is None else self.entries[entry]['name']

    def busy(self):
        """Entries on a table now."""
        out = set()
        for m in self.matches:
            if m['state'] == 'playing':
                out.add(m['red'])
                out.add(m['blue'])
        return out

    def ready(self):
        """Waiting matches that may go to a table now, the first to send first."""
        if self.state != 'running':
            return []
        busy = self.busy()
        out = []
        for m in sorted(self.matches, key=lambda m: (m['round'], m['slot'])):
            if m['state'] != 'waiting' or m['red'] is None or m['blue'] is None:
                continue
            if m['red'] in busy or m['blue'] in busy:
                continue
            out.append(m)
            busy.add(m['red'])
            busy.add(m['blue'])
        return out

    def playing(self):
        return [m for m in self.matches if m['state'] == 'playing']

    # -- the tables ------------------------------------------------------------------------
    def assign(self, mid, table):
        m = self.match(mid)
        if m['state'] == 'done':
            raise TournamentError('match %s is done' % mid)
        if m['red'] is None or m['blue'] is None:
            raise TournamentError('match %s waits for its players' % mid)
        if m['state'] == 'playing' and m['table'] != table:
            m['moved_from'].append(m['table'])
        elif m['state'] == 'waiting':
            busy = self.busy()
            if m['red'] in busy or m['blue'] in busy:
                raise TournamentError('a player of match %s is on another table' % mid)
        m['table'] = table
        m['state'] = 'playing'
        return m

    def unassign(self, mid):
        """Off its table, back to waiting (a table gone offline, say)."""
        m = self.match(mid)
        if m['state'] == 'playing':
            m['moved_from'].append(m['table'])
            m['table'] = None
            m['state'] = 'waiting'
        return m

    # -- results ---------------------------------------------------------------------------
    def result(self, mid, winner, red=0, blue=0, table=None):
        """The result of a match (a board's banked record, or the host). A match already done
        is a correction (see the module's rules). `table`, when given (a board's record), must
        be the match's table: a record from a table the match was moved away from is refused.
        Returns the match."""
        m = self.match(mid)
        if winner not in SIDES:
            raise TournamentError('the winner is red or blue')
        for v in (red, blue):
            if type(v) is not int or not 0 <= v <= 100000:
                raise TournamentError('a score is a whole number')
        if self.state == 'signup':
            raise TournamentError('the tournament has not started')
        if m['bye'] or m['forfeit']:
            raise TournamentError('match %s was a %s: there is no result to correct'
                                  % (mid, 'bye' if m['bye'] else 'forfeit'))
        if m['red'] is None or m['blue'] is None:
            raise TournamentError('match %s waits for its players' % mid)
        if table is not None and m['table'] != table:
            raise TournamentError('match %s is not on table %s' % (mid, table))
        if m['state'] == 'done':
            if winner != m['winner']:
                nxt, _ = self._feeding(m)
                if nxt is not None and nxt['state'] != 'waiting':
                    raise TournamentError(
                        'match %s is %s already: this correction would change who played it'
                        % (nxt['id'], 'on a table' if nxt['state'] == 'playing' else 'played'))
        m['state'] = 'done'
        m['winner'] = winner
        m['score'] = {'red': red, 'blue': blue}
        self._settle()
        return m

    def withdraw(self, name):
        """A player leaves (in doubles, their pair with them). Returns the entry."""
        if self.state == 'signup':
            self.remove_player(name)
            return None
        low = name.lower() if isinstance(name, str) else None
        for e in self.entries:
            if low in [p.lower() for p in e['players']] or e['name'].lower() == low:
                break
        else:
            raise TournamentError('%s is not in this tournament' % (name,))
        if e['withdrawn']:
            raise TournamentError('%s has withdrawn already' % e['name'])
        if self.state == 'done':
            raise TournamentError('the tournament is over')
        e['withdrawn'] = True
        self._settle()
        return e

    def _settle(self):
        """Byes and forfeits decided, winners moved on, the tournament done when all are."""
        changed = True
        while changed:
            changed = False
            for m in self.matches:
                if self.format == 'single' and m['round'] > 1:
                    for side, feeder in (('red', self._at(m['round'] - 1, 2 * m['slot'] - 1)),
                                         ('blue', self._at(m['round'] - 1, 2 * m['slot']))):
                        want = feeder[feeder['winner']] if feeder['state'] == 'done' else None
                        if m[side] != want and m['state'] == 'waiting':
                            m[side] = want
                            changed = True
                if m['state'] == 'done':
                    continue
                if m['bye']:
                    m['state'] = 'done'
                    m['winner'] = 'red' if m['red'] is not None else 'blue'
                    changed = True
                    continue
                if m['red'] is None or m['blue'] is None:
                    continue
                out = [s for s in SIDES if self.entries[m[s]]['withdrawn']]
                if out:
                    if m['state'] == 'playing':
                        m['moved_from'].append(m['table'])
                    m['state'] = 'done'
                    m['forfeit'] = True
                    m['winner'] = 'blue' if out[0] == 'red' else 'red'
                    m['score'] = {'red': 0, 'blue': 0}
                    changed = True
        if self.state == 'running' and all(m['state'] == 'done' for m in self.matches):
            self.state = 'done'

    # -- what the pages show ---------------------------------------------------------------
    def standings(self):
        """Round robin: one row per entry, best first (see the module's tie-break)."""
        rows = [{'name': e['name'], 'players': list(e['players']), 'played': 0, 'won': 0,
                 'lost': 0, 'for': 0, 'against': 0, 'withdrawn': e['withdrawn'], 'order': i}
                for i, e in enumerate(self.entries)]
        for m in self.matches:
            if m['state'] != 'done' or m['bye']:
                continue
            for side in SIDES:
                other = 'blue' if side == 'red' else 'red'
                row = rows[m[side]]
                row['played'] += 1
                if m['winner'] == side:
                    row['won'] += 1
                else:
                    row['lost'] += 1
                row['for'] += m['score'][side]
                row['against'] += m['score'][other]
        rows.sort(key=lambda r: (r['withdrawn'], -r['won'], -(r['for'] - r['against']),
                                 -r['for'], r['order']))
        for i, r in enumerate(rows):
            r['place'] = i + 1
            del r['order']
        return rows

    def champion(self):
        if self.state != 'done':
            return None
        if self.format == 'single':
            final = self._at(self.rounds, 1)
            return self.name_of(final[final['winner']])
        return self.standings()[0]['name']

    def match_view(self, m):
        return {'id': m['id'], 'round': m['round'], 'slot': m['slot'],
                'red': self.name_of(m['red']), 'blue': self.name_of(m['blue']),
                'table': m['table'], 'state': m['state'], 'winner': m['winner'],
                'winner_name': self.name_of(m[m['winner']]) if m['winner'] else None,
                'score': m['score'], 'bye': m['bye'], 'forfeit': m['forfeit']}

    def view(self):
        """GET /api/tournaments/<id>."""
        rounds = []
        for r in range(1, self.rounds + 1):
            ms = sorted((m for m in self.matches if m['round'] == r), key=lambda m: m['slot'])
            rounds.append({'round': r, 'matches': [self.match_view(m) for m in ms]})
        out = {'id': self.id, 'name': self.name, 'format': self.format, 'doubles': self.doubles,
               'draw': self.draw, 'game': self.game, 'options': self.options,
               'venue': self.venue, 'tables': self.tables, 'state': self.state,
               'players': list(self.players),
               'entries': [dict(e, players=list(e['players'])) for e in self.entries],
               'rounds': rounds,
               'matches': [self.match_view(m) for m in self.matches],
               'playing': [self.match_view(m) for m in self.playing()],
               'next': [self.match_view(m) for m in self.ready()],
               'champion': self.champion()}
        if self.format == 'roundrobin' and self.entries:
            out['standings'] = self.standings()
        return out

    # -- saved form ------------------------------------------------------------------------
    FIELDS = ('id', 'name', 'format', 'doubles', 'draw', 'seed', 'game', 'options', 'venue',
              'tables', 'state', 'players', 'entries', 'matches', 'rounds')

    def to_dict(self):
        import copy
        return copy.deepcopy({k: getattr(self, k) for k in self.FIELDS})

    @classmethod
    def from_dict(cls, d):
        import copy
        t = cls(d['id'], d['name'], d['format'], d['game'], d['options'], d['doubles'],
                d['draw'], d['seed'], d['venue'], d['tables'])
        for k in ('state', 'players', 'entries', 'matches', 'rounds'):
            setattr(t, k, copy.deepcopy(d[k]))
        return t
