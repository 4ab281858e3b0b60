"""The buttons by index. A set of pressed keys is one int bitmap: bit k is key k."""

from ..compat import const


RED = const(0)
BLUE = const(1)
OK = const(2)
RED_MINUS = const(3)
BLUE_MINUS = const(4)

NAMES = ('RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS')
COUNT = const(5)


def BIT(k):  # named like the C macro it stands for
    return 1 << k


def index(name):
    """'RED', 'red', 'red-minus' ... -> the key index; anything else raises ValueError."""
    if isinstance(name, str):
        n = name.upper().replace('-', '_')
        i = 0
        while i < COUNT:
            if NAMES[i] == n:
                return i
            i += 1
    raise ValueError('unknown key: %r' % (name,))
