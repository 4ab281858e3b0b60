"""A stand-in controller for virtual tables (the demo, the tests, the bench): a real core game,
and just what the venue link reads: `view`, `version`, and the `on_bank` hook it sets. Portable:
runs under the MicroPython unix port with the firmware's net code, and under CPython."""

from scoreboard.core import new_game


class Table:
    def __init__(self):
        self.version = 0
        self.games = {'red': 0, 'blue': 0}
        self.names = {'red': None, 'blue': None}
        self.game = None
        self.screen = 'setup'
        self.pending = {'red': 0, 'blue': 0}
        self.on_bank = None

    def new(self, kind='knockoff', options=None, names=None):
        self.game = new_game(kind, **(options or {}))
        names = names or {}
        self.names = {'red': names.get('red'), 'blue': names.get('blue')}
        self.screen = 'play'
        self.version += 1

    def add(self, side):
        """A tap of RED or BLUE: +1 pending."""
        self.pending[side] += 1
        self.version += 1

    def frame(self, red=None, blue=None):
        """Enter a frame: the given points, or what is pending."""
        r = self.pending['red'] if red is None else red
        b = self.pending['blue'] if blue is None else blue
        self.game.enter_frame(red=r, blue=b)
        self.pending = {'red': 0, 'blue': 0}
        if self.game.over:
            self.screen = 'over'
        self.version += 1

    def bank(self):
        self.games[self.game.winner] += 1
        if self.on_bank is not None:
            self.on_bank(self.game, self.names)
        self.screen = 'setup'
        self.version += 1

    @property
    def view(self):
        g = self.game
        return {'screen': self.screen, 'game': g.KIND, 'red': g.points('red'),
                'blue': g.points('blue'),
                'pending': {'red': self.pending['red'], 'blue': self.pending['blue']},
                'hammer': g.hammer, 'turn': g.turn, 'frame': g.frame, 'end': g.end,
                'target': g.options.get('target'), 'winner': g.winner,
                'games': {'red': self.games['red'], 'blue': self.games['blue']},
                'legs': {'red': 0, 'blue': 0}, 'message': None,
                'names': {'red': self.names['red'], 'blue': self.names['blue']}}
