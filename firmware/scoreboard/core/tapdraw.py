# Tap and draw (seed 000): knocking the other side's weights off is not allowed, and at the end of
# the frame every weight in a zone scores for its owner, so both sides can score in one frame
# ('owner', the default). The federation texts score it like knock-off ('leader').
# The side that scored more opens the next frame; equal frames follow the blank rule. A side at or
# past the line with the higher total wins; equal totals past the line play another frame.
from .base import BLUE, a_bool, a_side, a_side_or_none, an_int, one_of
from .knockoff import Knockoff


class Tapdraw(Knockoff):
    KIND = 'tapdraw'
    OPTIONS: tuple = (
        ('scoring', 'owner', one_of('owner', 'leader')),
        ('target', 15, an_int(1, 99)),
        ('hammer', BLUE, a_side),
        ('blank', 'switch', one_of('switch', 'keep')),
        ('doubles', False, a_bool),
        ('hanger', 4, an_int(1, 99)),
        ('handicap', None, a_side_or_none),
    )

    def _one_side_scores(self):
        return self.options['scoring'] == 'leader'
