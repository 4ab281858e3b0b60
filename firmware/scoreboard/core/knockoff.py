# Knock-off: table shuffleboard as seeds 000, 001 and 002 describe it. Four weights a side; only
# the side with the furthest weight scores the frame (1, 2, 3 by zone, the hanger 4). The side
# that scored opens the next frame, so the other side has the hammer; a blank frame switches the
# hammer (or keeps it, by option). First side at or past the line after a complete frame wins.
from .base import (BLUE, BOOL, FRAME, RED, SIDE, SIDE_OR_NONE, Game, RuleError, check_points,
                   encode, other, possible, winner_at_line)

WEIGHTS = 4  # a side's weights in one frame


def frame_totals(hanger, handicapped):
    """Bitmask of the totals one side's four weights can score in a frame."""
    if handicapped:
        # Seed 002: past the foul line but short of the first line 1, the zones 2, 3, 4 and a
        # hanger one more than usual.
        values = (1, 2, 3, 4, hanger + 1)
    else:
        values = (1, 2, 3, hanger)
    from .make import totals_bitmask   # (while new_game builds the game)
    return totals_bitmask(values, WEIGHTS)


def most(mask):
    n = 0
    while mask >> (n + 1):
        n += 1
    return n


class Knockoff(Game):
    KIND = 'knockoff'
    TITLE = 'Knock-off'
    OPTIONS: tuple = (
        ('target', 15, [1, 99]),
        ('hammer', BLUE, SIDE),
        ('doubles', False, BOOL),
        ('blank', 'switch', ('switch', 'keep')),
        ('hanger', 4, [1, 99]),
        ('handicap', None, SIDE_OR_NONE),
    )

    def __init__(self, opts):
        hanger = opts['hanger']
        hc = opts.get('handicap')
        self._max = {RED: frame_totals(hanger, hc == RED), BLUE: frame_totals(hanger, hc == BLUE)}
        Game.__init__(self, opts)

    def _one_side_scores(self):
        return True   # knock-off: only the side with the furthest weight scores

    def _reset(self):
        self._pts = {RED: 0, BLUE: 0}
        self.hammer = self.options['hammer']
        self._frames = 0

    @property
    def frame(self):
        return self._frames + 1

    def most(self, side):
        """The most that `side` can score in one frame."""
        return most(self._max[side])

    def enter_frame(self, red=0, blue=0):
        check_points(red)
        check_points(blue)
        self._enter(encode(FRAME, red, blue))

    def _check(self, side, v):
        m = self._max[side]
        if not possible(m, v):
            if v > most(m):
                raise RuleError('%s max %d' % (side, most(m)))
            raise RuleError('%s cannot make %d' % (side, v))

    def _apply(self, op, red, blue):
        if op != FRAME:
            raise RuleError('not a frame')
        if red and blue and self._one_side_scores():
            raise RuleError('only one side scores')
        self._check(RED, red)
        self._check(BLUE, blue)
        self._pts[RED] += red
        self._pts[BLUE] += blue
        self._frames += 1
        # The side that scored more opens the next frame and the other has the hammer.
        if red > blue:
            self.hammer = BLUE
        elif blue > red:
            self.hammer = RED
        elif self.options['blank'] == 'switch':
            self.hammer = other(self.hammer)

    def _decide(self):
        return winner_at_line(self._pts[RED], self._pts[BLUE], self.target)


GAME = Knockoff
