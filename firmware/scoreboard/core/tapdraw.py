# Tap and draw (seed 000): knocking the other side's weights off is not allowed, and at the end of
# the frame every weight in a zone scores for its owner, so both sides can score in one frame
# ('owner', the default). The federation texts score it like knock-off ('leader').
# The side that scored more opens the next frame; equal frames follow the blank rule. A side at or
# past the line with the higher total wins; equal totals past the line play another frame.
from .base import BLUE, BOOL, SIDE, SIDE_OR_NONE
from .knockoff import Knockoff


class Tapdraw(Knockoff):
    KIND = 'tapdraw'
    TITLE = 'Tap and draw'
    OPTIONS: tuple = (
        ('scoring', 'owner', ('owner', 'leader')),
        ('target', 15, [1, 99]),
        ('hammer', BLUE, SIDE),
        ('blank', 'switch', ('switch', 'keep')),
        ('doubles', False, BOOL),
        ('hanger', 4, [1, 99]),
        ('handicap', None, SIDE_OR_NONE),
    )

    def _one_side_scores(self):
        return self.options['scoring'] == 'leader'


GAME = Tapdraw
