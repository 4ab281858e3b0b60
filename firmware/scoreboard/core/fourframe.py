# Four-frame match (seed 001, a house variation): knock-off scoring and hammer changes, but
# exactly four complete frames instead of a target; the higher total after frame four wins. Tied:
# two more frames (one from each end), compared again, repeated only while tied.
from .base import BLUE, BOOL, SIDE, SIDE_OR_NONE, ended_in_pairs, higher
from .knockoff import Knockoff


class Fourframe(Knockoff):
    KIND = 'fourframe'
    TITLE = 'Four-frame match'
    FRAMES = 4
    OPTIONS: tuple = (
        ('hammer', BLUE, SIDE),
        ('frames', FRAMES, [1, 99]),
        ('blank', 'switch', ('switch', 'keep')),
        ('doubles', False, BOOL),
        ('hanger', 4, [1, 99]),
        ('handicap', None, SIDE_OR_NONE),
    )

    def _decide(self):
        if ended_in_pairs(self._frames, self.options['frames']):
            return higher(self._pts['red'], self._pts['blue'])
        return None


GAME = Fourframe
