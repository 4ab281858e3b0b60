# The scoring core: the rules of every game the board knows, with no hardware, no clock and no
# files. It runs unchanged on CPython and MicroPython. Each kind lives in the module of its name.
#
#   g = new_game('knockoff', target=15, hammer=BLUE)
#   g.enter_frame(red=0, blue=5); g.undo(); g.redo(); load_game(g.to_dict())
from .base import BLUE, RED, SIDES, RuleError, other

KINDS = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny')


def game_class(kind):
    """The class for a kind, imported only when asked for (a small board loads one or two).
    Each kind is the module of its name, which names its class GAME."""
    if type(kind) is not str or kind not in KINDS:
        raise RuleError('unknown game %s' % (kind,))
    return __import__('scoreboard.core.' + kind, None, None, ('GAME',)).GAME


def traits(kind):
    """What the rest of the firmware may know of a kind, read instead of comparing its name:
    the class's TURNS, ENTRY, FRAMES, COLLARS, OPTIONS (name, default, allowed) and allowed(name)
    (see core/base.py). RuleError for an unknown kind."""
    return game_class(kind)


def new_game(kind, **opts):
    cls = game_class(kind)
    from . import make       # for the build only: dropped after it
    try:
        return cls(make.make_options(cls, opts))
    finally:
        drop('scoreboard.core.make')


def load_game(d):
    """A game from to_dict() output; RuleError for anything damaged or foreign. The reading
    (core/saved.py) is loaded for the call and dropped again after it."""
    from . import saved
    try:
        return saved.load(d, new_game)
    finally:
        drop('scoreboard.core.saved')


def drop(name):
    """Forget module `name` (a part loaded for one job), so its code can be collected."""
    import sys
    sys.modules.pop(name, None)
    i = name.rfind('.')
    parent = sys.modules.get(name[:i])
    if parent is not None and hasattr(parent, name[i + 1:]):
        delattr(parent, name[i + 1:])
