# What both layouts (segments.py, matrix.py) say and how they read the view model: the menu's
# words, the readers of view keys, the hammer/turn marker. The layouts never compare a game's
# name: a game's shape is read from the view (DESIGN section 4): `turn` is a side in turn games,
# `beds`/`cursor` are present in shove ha'penny, `collars` in horse collar.
#
# Seven-segment spellings are mixed case, each letter in the shape a seven-segment digit can show
# (the 'b', 'd', 'n', 'r', 't' forms); the matrices fold them to upper case.

# Menu item labels (the item list itself is ui/menu.py's): item, 2 cells (4-digit modules with
# the value beside it), up to 4 cells (a 4-digit module of its own), 3 letters (32x8 matrix, the
# value beside it), the full name (64x16 matrix; README "Display legend").
TINY = 1
SHORT = 2
COMPACT = 3
FULL = 4

LABELS = (
    ('game', 'gA', 'gAmE', 'GAM', 'GAME'),
    ('target', 'tg', 'tgt', 'TGT', 'TARGET'),
    ('doubles', 'db', 'dbL', 'DBL', 'DOUBLES'),
    ('blank', 'bL', 'bLnk', 'BLK', 'BLANK'),
    ('hanger', 'hA', 'hAng', 'HNG', 'HANGER'),
    ('handicap', 'hc', 'hcP', 'HCP', 'HANDICAP'),
    ('corner', 'co', 'Corn', 'CRN', 'CORNER'),
    ('beds', 'bd', 'bEdS', 'BED', 'BEDS'),
    ('gift', 'gF', 'gIFt', 'GFT', 'GIFT'),
    ('last_mark', 'LA', 'LASt', 'LST', 'LAST MARK'),
    ('best_of', 'bo', 'bESt', 'BO', 'BEST OF'),
    ('brightness', 'br', 'brit', 'BRI', 'BRIGHT'),
    ('new_game', 'nE', 'nEw', 'NEW', 'NEW GAME'),
    ('reset_games', 'rS', 'rSEt', 'RST', 'RESET WINS'),
    ('test', 'tE', 'tESt', 'TST', 'TEST'),
    ('sound', 'So', 'Snd', 'SND', 'SOUND'),
    ('learn', 'Lr', 'Lrn', 'LRN', 'LEARN'),
    ('unpair', 'uP', 'unPr', 'UNP', 'UNPAIR'),
)

# Menu values as the core spells them: value, 2 cells, 3 cells, 32x8 matrix, full (64x16).
VALUES = (
    ('knockoff', 'ko', 'ko', 'KO', 'KNOCKOFF'),
    ('tapdraw', 'td', 'td', 'TAP', 'TAP DRAW'),
    ('horsecollar', 'hc', 'hc', 'HC', 'HORSE'),
    ('fourframe', '4F', '4Fr', '4FR', '4 FRAME'),
    ('practice', 'Pr', 'Pr', 'PRA', 'PRACTICE'),
    ('shovehapenny', 'SH', 'SHo', 'SHV', 'SHOVE'),
    ('switch', 'SW', 'SWi', 'SWAP', 'SWITCH'),
    ('keep', 'kP', 'kEP', 'KEEP', 'KEEP'),
    ('any', 'An', 'Any', 'ANY', 'ANY'),
    ('earned', 'Er', 'Ern', 'EARN', 'EARNED'),
    ('no', 'no', 'no', 'NO', 'NO'),
    ('yes', 'yE', 'yES', 'YES', 'YES'),
    ('red', 'r', 'rEd', 'RED', 'RED'),
    ('blue', 'b', 'bLu', 'BLUE', 'BLUE'),
    ('on', 'on', 'on', 'ON', 'ON'),                 # sound (DESIGN section 11)
    ('off', 'oF', 'oFF', 'OFF', 'OFF'),
    ('auto', 'Au', 'Aut', 'AUTO', 'AUTO'),          # brightness with a light sensor
    ('done', 'dn', 'don', 'DONE', 'DONE'),          # learn: every button bound
)


def _find(table, key, col):
    for row in table:
        if row[0] == key:
            return row[col]
    return None


def label(item, form):
    """The label of menu item `item` in form TINY, SHORT, COMPACT or FULL; an unknown item
    as its own name (a new item shows before it has a label)."""
    s = _find(LABELS, item, form)
    if s is None:
        return item if isinstance(item, str) else ''
    return s


def word(v, form):
    """A menu value in form TINY, SHORT (3 cells), COMPACT or FULL: None when `v` is not a
    word the table knows (numbers, new words)."""
    if v is True:
        v = 'yes'
    elif v is False:
        v = 'no'
    return _find(VALUES, v, form)


# ---- readers of the view model --------------------------------------------------------------

def num(view, key):
    """view[key] as a plain int (missing, None or a bool: 0)."""
    v = view.get(key)
    if isinstance(v, int) and v is not True and v is not False:
        return v
    return 0


def side_num(view, key, side):
    """view[key][side] as a plain int ({red, blue} keys such as pending, games, legs)."""
    d = view.get(key)
    if not d:
        return 0
    v = d.get(side)
    if isinstance(v, int) and v is not True and v is not False:
        return v
    return 0


def turn_game(view):
    """A turn game (horse collar, practice, shove ha'penny): `turn` names a side."""
    return view.get('turn') is not None


def shove(view):
    """Shove ha'penny: the view carries the bed grid."""
    return view.get('beds') is not None


def collars(view):
    """Horse collar: the view carries the collars."""
    return view.get('collars') is not None


def marker(view):
    """The hammer/turn marker: 0 none, 1 red, 2 blue, +4 when it blinks (the side whose turn
    it is, in a turn game; the hammer is steady)."""
    t = view.get('turn')
    if t == 'red':
        return 5
    if t == 'blue':
        return 6
    h = view.get('hammer')
    if h == 'red':
        return 1
    if h == 'blue':
        return 2
    return 0


def marked(view, side, blink_on):
    """True when `side`'s marker is lit in this blink phase."""
    m = marker(view)
    if m & 3 != (1 if side == 'red' else 2):
        return False
    return not (m & 4) or blink_on


def bed_marks(view, side):
    """Marks of `side` in the cursor's bed (shove ha'penny); 0 on END or without a grid."""
    beds = view.get('beds')
    if not beds:
        return 0
    marks = beds.get(side)
    cur = view.get('cursor')
    if not marks or not isinstance(cur, int) or cur < 1 or cur > len(marks):
        return 0
    v = marks[cur - 1]
    return v if isinstance(v, int) else 0


def blink(phase):
    """Blinking parts are lit in the first half of each second (phases of 250 ms)."""
    return (phase >> 1) & 1 == 0


# Setup and game-over screens cycle through pages, PAGE phases (2 s) each: the screen's own
# text first, then the counts (DESIGN: the target, frame, end, games and legs show at setup
# and game over, cycling with the setup text).
PAGE_SHIFT = 3


def page(phase, n):
    """Which of n pages shows in this phase."""
    return (phase >> PAGE_SHIFT) % n


def winner_word(view):
    w = view.get('winner')
    if w == 'red':
        return 'rEd'
    if w == 'blue':
        return 'bLu'
    return None
