# The settings menu: which items a game shows, in which order, and how RED/BLUE step a value.
# A game's options and the values they take come from its core module (core.traits); this file
# knows only the menu's own items. Values are spelled as the core spells its options. Items that
# do not apply to the chosen game are left out (horse collar has no blank rule, shove ha'penny no
# target), so the list is rebuilt whenever the game item changes.
from ..core import KINDS, traits

# Every item in the order the menu shows them (DESIGN section 4).
ITEMS = ('game', 'target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds', 'gift',
         'last_mark', 'best_of', 'brightness', 'new_game', 'reset_games', 'test')
# The items that are options of the game (shown when the chosen game has them).
GAME_ITEMS = ('target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds', 'gift',
              'last_mark')
# Game options that change nothing already entered: they apply to the game in play at once.
AT_ONCE = ('doubles',)
BRIGHTNESS_MAX = 8
NO_YES = ('no', 'yes')

# The menu's own items: a tuple of choices, or a list [lo, hi] (as core/base.py's `allowed`).
OWN = {
    'game': KINDS,
    'best_of': (1, 3, 5, 7),
    'brightness': [1, BRIGHTNESS_MAX],
    'new_game': NO_YES,
    'reset_games': NO_YES,
}


def items_for(kind):
    """The menu items shown while `kind` is the chosen game."""
    cls = traits(kind)
    return [i for i in ITEMS if i not in GAME_ITEMS or cls.allowed(i) is not None]


def step(item, value, delta, kind):
    """`value` of `item` moved one step (delta +1 for BLUE, -1 for RED). Choices wrap round;
    numbers stop at their ends. `test` has no values to step (it shows the keys pressed)."""
    allowed = OWN.get(item)
    if allowed is None:
        allowed = traits(kind).allowed(item)
    if allowed is None:
        return value
    if type(allowed) is list:
        v = value + delta
        return allowed[0] if v < allowed[0] else allowed[1] if v > allowed[1] else v
    i = 0
    for j in range(len(allowed)):
        if allowed[j] == value and type(allowed[j]) is type(value):
            i = j
    return allowed[(i + delta) % len(allowed)]
