# What both layouts (segments.py, matrix.py) say and how they read the view model: the menu's
# words, the readers of view keys, the hammer/turn marker. The layouts never compare a game's
# name: a game's shape is read from the view (DESIGN section 4): `turn` is a side in turn games,
# `beds`/`cursor` are present in shove ha'penny, `collars` in horse collar.
#
# Seven-segment spellings are mixed case, each letter in the shape a seven-segment digit can show
# (the 'b', 'd', 'n', 'r', 't' forms); the matrices fold them to upper case.
from ..compat import const

# Menu item labels (the item list itself is ui/menu.py's): item, 2 cells (4-digit modules with
# the value beside it), up to 4 cells (a 4-digit module of its own), 3 letters (32x8 matrix, the
# value beside it), the full name (64x16 matrix; README "Display legend").
TINY = 1
SHORT = 2
COMPACT = 3
FULL = 4

# The words are one bytes object, not tuples of str: each str is a heap object (and a qstr),
# where a byte costs a byte (on the 32-bit port the tables cost 4.8 KB as tuples). A row is
# the key and its four forms, each ending in ','. label() and word() return a word as a
# negative int (~ where it starts); size() and code() read a word or a str alike, so the
# layouts draw either without allocating.
_LABELS = const(19)     # rows of LABELS before VALUES in _WORDS
_WORDS = (
    b'game,gA,gAmE,GAM,GAME,'
    b'target,tg,tgt,TGT,TARGET,'
    b'doubles,db,dbL,DBL,DOUBLES,'
    b'blank,bL,bLnk,BLK,BLANK,'
    b'hanger,hA,hAng,HNG,HANGER,'
    b'handicap,hc,hcP,HCP,HANDICAP,'
    b'corner,co,Corn,CRN,CORNER,'
    b'beds,bd,bEdS,BED,BEDS,'
    b'gift,gF,gIFt,GFT,GIFT,'
    b'last_mark,LA,LASt,LST,LAST MARK,'
    b'best_of,bo,bESt,BO,BEST OF,'
    b'brightness,br,brit,BRI,BRIGHT,'
    b'new_game,nE,nEw,NEW,NEW GAME,'
    b'reset_games,rS,rSEt,RST,RESET WINS,'
    b'test,tE,tESt,TST,TEST,'
    b'sound,So,Snd,SND,SOUND,'
    b'learn,Lr,Lrn,LRN,LEARN,'
    b'pair,PA,PAIr,PAR,PAIR,'
    b'unpair,uP,unPr,UNP,UNPAIR,'
    # Menu values as the core spells them: value, 2 cells, 3 cells, 32x8 matrix, full (64x16).
    b'knockoff,ko,ko,KO,KNOCKOFF,'
    b'tapdraw,td,td,TAP,TAP DRAW,'
    b'horsecollar,hc,hc,HC,HORSE,'
    b'fourframe,4F,4Fr,4FR,4 FRAME,'
    b'practice,Pr,Pr,PRA,PRACTICE,'
    b'shovehapenny,SH,SHo,SHV,SHOVE,'
    b'switch,SW,SWi,SWAP,SWITCH,'
    b'keep,kP,kEP,KEEP,KEEP,'
    b'any,An,Any,ANY,ANY,'
    b'earned,Er,Ern,EARN,EARNED,'
    b'no,no,no,NO,NO,'
    b'yes,yE,yES,YES,YES,'
    b'red,r,rEd,RED,RED,'
    b'blue,b,bLu,BLUE,BLUE,'
    b'on,on,on,ON,ON,'                  # sound (DESIGN section 11)
    b'off,oF,oFF,OFF,OFF,'
    b'auto,Au,Aut,AUTO,AUTO,'           # brightness with a light sensor
    b'done,dn,don,DONE,DONE,'           # learn: every button bound
)


def _end(o):
    """Where the field of _WORDS that starts at o ends (its ',')."""
    while _WORDS[o] != 44:
        o += 1
    return o


def size(s):
    """Characters in s, a str or a word of label()/word()."""
    if type(s) is int:
        return _end(~s) - ~s
    return len(s)


def code(s, i):
    """The character code of character i of s, a str or a word of label()/word()."""
    if type(s) is int:
        return _WORDS[~s + i]
    return ord(s[i])


def is_text(v):
    """True for a str or a word (the menu's values are else numbers, never negative)."""
    return isinstance(v, str) or (type(v) is int and v < 0)


def _find(values, key, form):
    # the word of field `form` of the row whose key is `key`, among the labels or the values
    if not isinstance(key, str):
        return None
    n = len(key)
    o = 0
    r = 0
    while o < len(_WORDS):
        if (r >= _LABELS) == values and _end(o) - o == n:
            i = 0
            while i < n and _WORDS[o + i] == ord(key[i]):
                i += 1
            if i == n:
                for _ in range(form):
                    o = _end(o) + 1
                return ~o
        for _ in range(5):          # the next row
            o = _end(o) + 1
        r += 1
    return None


def label(item, form):
    """The label of menu item `item` in form TINY, SHORT, COMPACT or FULL (a word: see
    size()); an unknown item as its own name (a new item shows before it has a label)."""
    s = _find(False, item, form)
    if s is None:
        return item if isinstance(item, str) else ''
    return s


def word(v, form):
    """A menu value in form TINY, SHORT (3 cells), COMPACT or FULL (a word: see size()): None
    when `v` is not a word the table knows (numbers, new words)."""
    if v is True:
        v = 'yes'
    elif v is False:
        v = 'no'
    return _find(True, v, form)


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
_PAGE_SHIFT = const(3)


def page(phase, n):
    """Which of n pages shows in this phase."""
    return (phase >> _PAGE_SHIFT) % n


def cursor_shown(view, phase):
    """Shove ha'penny on digits: the cursor bed and the sides' marks in it for the first page
    (2 s) after the view changed (a cursor move, a mark, a turn ended), then each side's total,
    so no number but its total stays in a side's place (DESIGN section 4)."""
    return view.get('beds') is not None and phase >> _PAGE_SHIFT == 0


def winner_word(view):
    w = view.get('winner')
    if w == 'red':
        return 'rEd'
    if w == 'blue':
        return 'bLu'
    return None
