# The settings menu: which items a game shows, in which order, and how RED/BLUE step a value.
# Values are spelled as the core spells its options. Items that do not apply to the chosen game
# are left out (horse collar has no blank rule, shove ha'penny no target), so the list is
# rebuilt whenever the game item changes.
from ..core import KINDS, options

# Every item in the order the menu shows them (DESIGN section 4).
ITEMS = ('game', 'target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds', 'gift',
         'last_mark', 'best_of', 'brightness', 'reset_games')
GAME_ITEMS = ('target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds', 'gift',
              'last_mark')
BEST_OF = (1, 3, 5, 7)
BRIGHTNESS_MAX = 8

# Choices for the items that are lists; numeric items are ranges (lo, hi).
CHOICES = {
    'game': KINDS,
    'doubles': (False, True),
    'blank': ('switch', 'keep'),
    'handicap': (None, 'red', 'blue'),
    'corner': (26, 13),
    'beds': (9, 5),
    'gift': (True, False),
    'last_mark': ('any', 'earned'),
    'best_of': BEST_OF,
    'reset_games': ('no', 'yes'),
}
RANGES = {
    'brightness': (1, BRIGHTNESS_MAX),
    'hanger': (3, 20),
}


def target_range(kind):
    return (1, 999) if kind == 'horsecollar' else (1, 99)


def items_for(kind):
    """The menu items shown while `kind` is the chosen game."""
    names = [n for n, _ in options(kind)]
    return [i for i in ITEMS if i not in GAME_ITEMS or i in names]


def step(item, value, delta, kind):
    """`value` of `item` moved one step (delta +1 for BLUE, -1 for RED). Lists wrap round;
    numbers stop at their ends."""
    if item in CHOICES:
        seq = CHOICES[item]
        i = 0
        for j in range(len(seq)):
            if seq[j] == value:
                i = j
        return seq[(i + delta) % len(seq)]
    lo, hi = target_range(kind) if item == 'target' else RANGES[item]
    v = value + delta
    return lo if v < lo else hi if v > hi else v
