# What every part of the core shares and nothing of it depends on: the sides, the rule error
# and the entry codes of the log. A leaf: base.py (and, through it, every game), make.py and
# saved.py import it, so the modules loaded only for a job (make, saved) never import base back.

RED = 'red'
BLUE = 'blue'
SIDES = (RED, BLUE)

FORMAT = 1  # to_dict() layout version

# An entry of the log is one small int: the operation in the low 3 bits, then two 10-bit
# arguments. Small ints live in the pointer itself, so a 100-frame log costs one list of
# machine words and no object per entry. to_dict() spells entries out as short lists.
FRAME = 1   # ['f', red, blue]
TARGET = 2  # ['t', target]
SHOT = 3    # ['s', points]
MARK = 4    # ['m', bed]
END = 5     # ['e']
ARG_MAX = 1023


def encode(op, a=0, b=0):
    if a > ARG_MAX or b > ARG_MAX:
        raise RuleError('number too large')
    return op | a << 3 | b << 13


class RuleError(ValueError):
    """An entry or setting the rules do not allow; the game is left unchanged."""
