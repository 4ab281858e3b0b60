# The tally around the games: games won per side (the leaderboard) and the legs of a best-of
# match. The scoring core knows one game; this knows how many have been banked.

HALF = {1: 1, 3: 2, 5: 3, 7: 4}   # legs needed to take a best-of-N match


class Match:
    def __init__(self, best_of=1):
        self.best_of = best_of
        self.games = {'red': 0, 'blue': 0}
        self.legs = {'red': 0, 'blue': 0}
        self.decided = None   # the side that took the match, until the next game starts

    def bank(self, winner):
        """Count a finished game for `winner`; returns the side that took the match with it, or
        None. The final legs stay on show until the next game starts."""
        self.next_game()
        self.games[winner] += 1
        self.legs[winner] += 1
        if self.legs[winner] >= HALF[self.best_of]:
            self.decided = winner
        return self.decided

    def next_game(self):
        if self.decided is not None:
            self.legs = {'red': 0, 'blue': 0}
            self.decided = None

    def reset(self):
        self.games = {'red': 0, 'blue': 0}
        self.legs = {'red': 0, 'blue': 0}
        self.decided = None

    def to_dict(self, into=None):
        """JSON-safe data; given `into` (a dict this returned before), that dict is filled
        again and returned, its nested dicts reused (a save then builds nothing here)."""
        if into is None:
            return {'best_of': self.best_of, 'games': dict(self.games),
                    'legs': dict(self.legs), 'decided': self.decided}
        into['best_of'] = self.best_of
        for name in ('games', 'legs'):
            src = getattr(self, name)
            d = into[name]
            d['red'] = src['red']
            d['blue'] = src['blue']
        into['decided'] = self.decided
        return into

    @classmethod
    def from_dict(cls, d):
        m = cls(d['best_of'] if d.get('best_of') in HALF else 1)
        for name in ('games', 'legs'):
            src = d.get(name) or {}
            for side in ('red', 'blue'):
                v = src.get(side, 0)
                getattr(m, name)[side] = v if type(v) is int and v >= 0 else 0
        if d.get('decided') in ('red', 'blue'):
            m.decided = d['decided']
        return m
