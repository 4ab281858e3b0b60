# Placement practice (seed 001, a house variation): single weights on an empty board, each worth
# its ordinary 0..4 when it stops, then removed. Each side shoots four a frame, alternating one at
# a time, and the side shooting first changes every frame (one frame from each end). Every shot
# adds; the higher total after two frames wins; tied, two more frames, repeated while tied.
from .base import (BLUE, BOOL, RED, SHOT, SIDE, Game, RuleError, check_points, encode,
                   ended_in_pairs, higher, other)

SHOTS = 4          # each side's shots in one frame
MOST = 4           # a hanger, the most one weight scores


class Practice(Game):
    KIND = 'practice'
    TITLE = 'Placement practice'
    TURNS = True
    ENTRY = 'shot'     # one weight at a time, for the side whose turn it is
    FRAMES = 2
    OPTIONS: tuple = (
        ('first', RED, SIDE),
        ('frames', FRAMES, [1, 99]),
        ('doubles', False, BOOL),
    )

    def _reset(self):
        self._pts = {RED: 0, BLUE: 0}
        self._shots = 0

    @property
    def frame(self):
        return self._shots // (2 * SHOTS) + 1

    @property
    def turn(self):
        opener = self.options['first']
        if (self.frame - 1) % 2:
            opener = other(opener)
        return opener if self._shots % 2 == 0 else other(opener)

    def enter_shot(self, points):
        check_points(points)
        if points > MOST:
            raise RuleError('a shot scores 0..4')
        self._enter(encode(SHOT, points))

    def _apply(self, op, v, _):
        if op != SHOT:
            raise RuleError('not a shot')
        if v > MOST:
            raise RuleError('a shot scores 0..4')
        self._pts[self.turn] += v
        self._shots += 1

    def _decide(self):
        per_frame = 2 * SHOTS
        if self._shots % per_frame:
            return None
        if ended_in_pairs(self._shots // per_frame, self.options['frames']):
            return higher(self._pts[RED], self._pts[BLUE])
        return None


GAME = Practice
