# Horse collar to 51 (seed 004). One side shoots all eight weights in its turn, then the other,
# from opposite ends. A turn scores only if at least one weight is worth 3 or more (the 3 zone
# or a hanger); then every weight counts: 1, 2, 3, 13 for an end hanger, 26 (or 13) for a
# corner hanger. The game is decided only when the second side's turn completes the round: the
# highest total at or past the line wins; equal, another full round. Scoreless turns are
# "collars".
from .base import (BLUE, FRAME, RED, SIDE, Game, RuleError, check_points, check_side, encode,
                   other, possible, winner_at_line)

WEIGHTS = 8      # every turn shoots all eight weights
CORNERS = 2      # a table has two far corners, so at most two corner hangers
NEEDED = 3       # a turn scores only with a weight worth this much or more


def turn_totals(hanger, corner):
    from .make import totals_bitmask   # (while new_game builds the game)
    return totals_bitmask((1, 2, 3, hanger), WEIGHTS, capped=corner, cap=CORNERS, need=NEEDED)


class Horsecollar(Game):
    KIND = 'horsecollar'
    TITLE = 'Horse collar'
    TURNS = True
    ENTRY = 'turn'     # the points of a whole turn, for the side whose turn it is
    COLLARS = True
    OPTIONS: tuple = (
        ('target', 51, [1, 999]),
        ('first', RED, SIDE),
        ('hanger', 13, [3, 99]),
        ('corner', 26, (26, 13)),   # seed 004: some rooms count a corner as an end hanger
    )

    def __init__(self, opts):
        self._ok = turn_totals(opts['hanger'], opts['corner'])
        Game.__init__(self, opts)

    def _reset(self):
        self._pts = {RED: 0, BLUE: 0}
        self._collars = {RED: 0, BLUE: 0}
        self._turns = 0

    @property
    def turn(self):
        first = self.options['first']
        return first if self._turns % 2 == 0 else other(first)

    @property
    def frame(self):
        return self._turns // 2 + 1

    @property
    def end(self):
        return 1 if self._turns % 2 == 0 else 2

    def collars(self, side):
        return self._collars[check_side(side)]

    def enter_frame(self, red=0, blue=0):
        check_points(red)
        check_points(blue)
        self._enter(encode(FRAME, red, blue))

    def _apply(self, op, red, blue):
        if op != FRAME:
            raise RuleError('not a turn')
        side = self.turn
        v = red if side == RED else blue
        if (blue if side == RED else red):
            raise RuleError("%s's turn" % side)
        if not possible(self._ok, v):
            if v < NEEDED:
                raise RuleError('needs a 3 to score')
            raise RuleError('%d not possible' % v)
        self._pts[side] += v
        if v == 0:
            self._collars[side] += 1
        self._turns += 1

    def _decide(self):
        if self._turns % 2:
            return None  # the round is not complete until the second side has shot
        return winner_at_line(self._pts[RED], self._pts[BLUE], self.target)


GAME = Horsecollar
