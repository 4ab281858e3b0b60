# Four-frame match (seed 001, a house variation): knock-off scoring and hammer changes, but
# exactly four complete frames instead of a target; the higher total after frame four wins. Tied:
# two more frames (one from each end), compared again, repeated only while tied.
from .base import BLUE, a_bool, a_side, a_side_or_none, an_int, ended_in_pairs, higher, one_of
from .knockoff import Knockoff


class Fourframe(Knockoff):
    KIND = 'fourframe'
    TARGET_MAX = 0
    OPTIONS: tuple = (
        ('hammer', BLUE, a_side),
        ('frames', 4, an_int(1, 99)),
        ('blank', 'switch', one_of('switch', 'keep')),
        ('doubles', False, a_bool),
        ('hanger', 4, an_int(1, 99)),
        ('handicap', None, a_side_or_none),
    )

    def _decide(self):
        if ended_in_pairs(self._frames, self.options['frames']):
            return higher(self._pts['red'], self._pts['blue'])
        return None
