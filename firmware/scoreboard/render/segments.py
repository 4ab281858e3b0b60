# Seven-segment layouts: the view model (DESIGN section 4) -> canonical segment bytes on one or
# more digit drivers.
#
# A driver here is anything with `width` (number of digits), `buf` (bytearray(width) of canonical
# segment bytes, left to right), show(), brightness(level 0..7), power(on) and deinit(): the
# TM1637, MAX7219 digit, 595 and WS2812 digit drivers all are.
#
#   SidesLayout(red_drv, blue_drv)   one module per side (4 or 6 digits each); the two modules are
#                                    one text line for messages (red first).
#   SingleLayout(drv)                one module of 4, 6 or 8 digits: red on the left half, blue on
#                                    the right half.
#
# Pictures (`_` is the marker cell, `.` the decimal point of the digit before it, [x] blinks;
# README "Display legend" lists every word):
#   play      a side's position shows its total and its pending points, nothing else, ever.
#             The hammer (in turn games, the side whose turn it is, blinking) is a cell of its
#             own, segment d lit ('_'), the size of a digit's segment and no digit's shape:
#             Sides '_ 12|   7' (the marker cell is the module's first), Single 8 '_12    7',
#             Single 6 '_12  7'; Single 4 has no spare cell and uses the dp of the side's last
#             digit. marker=k (an int) puts the marker on the dp of digit k instead (modules
#             whose dp is as large as a segment).
#             Pending beside the total when it fits ('12=2', the '=2' blinking; '=' is no
#             letter, so 8=3 cannot read as 8F3), else the total and '=2' by turns. Single:
#             red from the left, blue to the right; when the two do not fit with a gap between
#             them, one side at a time: its letter and its score ('r104'), the side with
#             pending points, else alternating every 2 s.
#   over      pages of 2 s: the totals (the winner's blinking), the winner in words
#             ('rEd uuin'), the target and the end ('t 15' 'End2'), games won ('G  2' each
#             side its own), legs ('L  1'), in horse collar the collars ('C  3').
#   setup     pages of 2 s: 'SEt' and the side chosen to have the hammer (or to shoot first):
#             Sides 'SEt' / '_HAm' (or '_1St'); Single 'St r', 'SEt rEd', 'SEt  bLu'; then the
#             target and the end, games won, legs, as at game over.
#   menu      a short label and the value: 'tg21' (4), 'tgt 21' (6), 'gAmE  ko' (8); Sides:
#             label on the red module, value on the blue one.
#   message   the text, scrolled one character a phase when longer than the display.
#   shove ha'penny: for 2 s after a change (a move, a mark, a turn), the cursor bed and each
#             side's marks in it: Single '_2 b4 1' (red 2 marks in bed 4, blue 1), Sides
#             'b4 2' / 'b4 1', the turn side's 'b' blinking; 'End' when the cursor is on END.
#             Then the totals, as in play, the turn side's marker blinking.
#   pin       the pairing PIN (view key `pin`, DESIGN section 10) over whatever screen is up:
#             Sides 'PIn' / '1234'; Single 8 'PIn 1234'; Single 4 and 6 'PIn' for 1 s, then
#             the PIN for 3 s, by turns.
#   sleep     dark.   lamp(): every segment lit (the power-up test).
# Nothing here allocates in show(): numbers are drawn digit by digit, text char by char through
# the font table, and the view's numbers stay plain ints.
from scoreboard.render.font7 import FONT, DIGITS, PLUS, BAR
from scoreboard.render import vocab
from scoreboard.render.vocab import num, side_num, marked, blink, page, size, code

from ..compat import const

_DP = const(0x80)
_MINUS = const(0x40)
# PLUS, the pending sign: segments d and g, no letter's shape; BAR, the marker cell: segment d
_GAP = const(2)          # blank cells between the end and the start of a scrolling message
_ALT = const(3)          # one side at a time: switch every 2**_ALT phases (2 s)
_PIN_SHIFT = const(2)    # the pairing PIN by turns with 'PIn': 2**_PIN_SHIFT phases (1 s) each

# Pages of the setup and game-over screens.
_P_TEXT = const(0)       # the screen's own picture
_P_WORDS = const(1)      # game over: the winner in words
_P_RULES = const(2)      # the target (or frame) and the end
_P_GAMES = const(3)
_P_LEGS = const(4)
_P_COLLARS = const(5)
# Game over shows the pages in this order (up to _P_LEGS, or _P_COLLARS in horse collar);
# setup the same without _P_WORDS.


# ---- drawing primitives on a bytearray of cells -------------------------------------------

def clear(buf, start, n):
    for i in range(start, start + n):
        buf[i] = 0


def ndigits(v):
    n = 1
    while v >= 10:
        v //= 10
        n += 1
    return n


def number(buf, start, width, v):
    """v (an int >= 0) right-aligned in cells [start, start + width); too wide: dashes."""
    if v < 0 or ndigits(v) > width:
        for i in range(start, start + width):
            buf[i] = _MINUS
        return
    i = start + width - 1
    while True:
        buf[i] = DIGITS[v % 10]
        v //= 10
        i -= 1
        if v == 0:
            break
    while i >= start:
        buf[i] = 0
        i -= 1


def cells(s):
    """Cells text s (a str or a vocab word) takes: a '.' folds into the character before it."""
    n = 0
    i = 0
    ln = size(s)
    while i < ln:
        o = code(s, i)
        i += 1
        if o != 46 and i < ln and code(s, i) == 46:
            i += 1
        n += 1
    return n


def cell(s, k):
    """Segment byte of cell k of text s (0 past the end)."""
    n = 0
    i = 0
    ln = size(s)
    while i < ln:
        o = code(s, i)
        i += 1
        seg = FONT[o - 32] if 32 <= o <= 127 else 0
        if o != 46 and i < ln and code(s, i) == 46:
            seg |= _DP
            i += 1
        if n == k:
            return seg
        n += 1
    return 0


def text(buf, start, width, s, right=False):
    """s left- (or right-) aligned in cells [start, start + width), cut to the width."""
    n = cells(s)
    if n > width:
        n = width
    pad = width - n if right else 0
    for j in range(width):
        k = j - pad
        buf[start + j] = cell(s, k) if 0 <= k < n else 0


def scroll(buf, start, width, s, phase):
    """s in the cells; when longer, a marquee one cell a phase with a gap before it repeats."""
    n = cells(s)
    if n <= width:
        text(buf, start, width, s)
        return
    period = n + _GAP
    off = phase % period
    for j in range(width):
        k = (off + j) % period
        buf[start + j] = cell(s, k) if k < n else 0


def field(total, pending, width):
    """Cells a side's score takes in a field of `width` cells (see score())."""
    if pending > 0:
        n = ndigits(total) + 1 + ndigits(pending)
        if n <= width:
            return n
        return max(ndigits(total), 1 + ndigits(pending))
    return ndigits(total)


def score(buf, start, width, total, pending, blink_on, left=False):
    """A side's total in its field, right-aligned (left-aligned with left=True); pending points
    beside it ('12=2', the '=2' blinking) when they fit, else the total and '=pending' by turns
    (a horse-collar '104' then '=26'), so both stay readable. Returns the cell of the total's
    last digit (where a marker dp goes)."""
    clear(buf, start, width)
    n = field(total, pending, width)
    if n > width:
        number(buf, start, width, total)         # too wide: dashes
        return start + width - 1
    p0 = start if left else start + width - n    # first cell used
    if pending > 0:
        np = ndigits(pending)
        if ndigits(total) + 1 + np <= width:
            nt = ndigits(total)
            number(buf, p0, nt, total)
            if blink_on:
                buf[p0 + nt] = PLUS
                number(buf, p0 + nt + 1, np, pending)
            return p0 + nt - 1
        if blink_on:
            buf[p0 + n - np - 1] = PLUS
            number(buf, p0 + n - np, np, pending)
        else:
            number(buf, p0, n, total)
        return p0 + n - 1
    number(buf, p0, n, total)
    return p0 + n - 1


def wants_cell(total, pending, width, c):
    """True when total and pending fit side by side in the whole field of `width` cells but
    not beside a marker cell (c = 1)."""
    if not c or pending <= 0:
        return False
    n = ndigits(total) + 1 + ndigits(pending)
    return width - c < n <= width


def label(item, width):
    """Menu label of item for a field of `width` cells."""
    s = vocab.label(item, vocab.SHORT)
    if cells(s) <= width:
        return s
    return vocab.label(item, vocab.TINY)


def value(buf, start, width, v, right=True):
    """A menu value as the core spells it, in its field (long spelling when it fits)."""
    if v is None:
        s = 'oFF' if width >= 3 else '-'
    elif isinstance(v, int) and v is not True and v is not False:
        number(buf, start, width, v)
        return
    else:
        s = vocab.word(v, vocab.SHORT)
        if s is None:
            s = v if isinstance(v, str) else '?'
        elif cells(s) > width:
            s = vocab.word(v, vocab.TINY)
    text(buf, start, width, s, right)


def counted(buf, start, width, letter, v):
    """A labelled count: its letter at the left, the number right-aligned ('G  2')."""
    clear(buf, start, width)
    buf[start] = FONT[ord(letter) - 32]
    number(buf, start + 1, width - 1, v)


def lead_token(buf, start, width, view):
    """The rules page's first token, 't15' or 'F3' (the target, or the frame where the game has
    no target line): its letter, then the number right-aligned in the rest of the cells. With
    buf None, only the cells it takes at the least."""
    t = num(view, 'target')
    v = t if t > 0 else num(view, 'frame')
    if buf is None:
        return 1 + ndigits(v)
    counted(buf, start, width, 't' if t > 0 else 'F', v)


def end_word(buf, start, width, view):
    """'End2' ('End 2' with room, 'E2' in two cells) from `start`, blanks after it."""
    clear(buf, start, width)
    end = num(view, 'end')
    if width >= 5:
        text(buf, start, 3, 'End')
        number(buf, start + 4, 1, end)
    elif width >= 4:
        text(buf, start, 3, 'End')
        number(buf, start + 3, 1, end)
    else:
        buf[start] = FONT[ord('E') - 32]
        number(buf, start + 1, 1, end)


def screen_page(view, phase):
    """The page of a setup or game-over screen showing in this phase."""
    if view.get('screen') == 'over' and view.get('winner') is None:
        return _P_TEXT
    if view.get('screen') == 'setup':
        p = page(phase, _P_LEGS)             # text, rules, games, legs
        return p + 1 if p else _P_TEXT
    return page(phase, (_P_COLLARS if vocab.collars(view) else _P_LEGS) + 1)


# The counts pages (_P_GAMES.. _P_COLLARS): the view key, and the letter ('GLC'[pg - _P_GAMES]).
COUNT_KEYS = ('games', 'legs', 'collars')


# ---- layouts ------------------------------------------------------------------------------

class BaseLayout:
    """Common part: the work buffer across all drivers, the push, brightness and power."""

    def __init__(self, drivers):
        self.drivers = drivers
        n = 0
        for d in drivers:
            n += d.width
        self.width = n
        self.buf = bytearray(n)
        self._force = True

    def show(self, view, phase):
        buf = self.buf
        pin = view.get('pin')
        if pin:
            self._pin(pin, phase)       # over whatever screen is up (DESIGN section 10)
        elif view.get('screen') == 'sleep':
            clear(buf, 0, self.width)
        else:
            msg = view.get('message')
            if msg:
                scroll(buf, 0, self.width, msg, phase)
            else:
                self._draw(view, phase)
        self._push()

    def _pin(self, pin, phase):
        # One text line over every module: 'PIn 1234' where eight cells are there, else 'PIn'
        # for 1 s and the PIN for 3 s by turns (a 4- or 6-digit module for both sides).
        buf = self.buf
        w = self.width
        n = cells(pin)
        if w >= 4 + n:
            clear(buf, 0, w)
            text(buf, 0, 3, 'PIn')
            text(buf, w - n, n, pin)
        elif (phase >> _PIN_SHIFT) & 3 == 0:
            text(buf, 0, w, 'PIn')
        else:
            text(buf, 0, w, pin, True)

    def lamp(self):
        """Every segment lit (the power-up lamp test); the next show() redraws."""
        buf = self.buf
        for i in range(self.width):
            buf[i] = 0xFF
        self._push()

    def _push(self):
        buf = self.buf
        off = 0
        force = self._force
        for d in self.drivers:
            db = d.buf
            changed = force
            for i in range(d.width):
                v = buf[off + i]
                if db[i] != v:
                    db[i] = v
                    changed = True
            if changed:
                d.show()
            off += d.width
        self._force = False

    def brightness(self, level):
        for d in self.drivers:
            d.brightness(level)

    def power(self, on):
        for d in self.drivers:
            d.power(on)
        self._force = True

    def deinit(self):
        for d in self.drivers:
            d.deinit()


class SidesLayout(BaseLayout):
    """One module per side: red_drv shows red, blue_drv shows blue. The hammer/turn marker is
    the first cell of a side's module, segment d (marker=None, the default: the 4-digit clock
    modules have no decimal points, and a dp is smaller than a segment), or the decimal point
    of digit `marker` (-1: the last) on modules whose dp is as large as a segment."""

    def __init__(self, red_drv, blue_drv, marker=None):
        BaseLayout.__init__(self, (red_drv, blue_drv))
        self.red_drv = red_drv
        self.blue_drv = blue_drv
        self.rw = red_drv.width
        self.bw = blue_drv.width
        self.cell = marker is None
        if self.cell:
            self.rmark = 0
            self.bmark = self.rw
        else:
            self.rmark = marker if marker >= 0 else self.rw - 1
            self.bmark = self.rw + (marker if marker >= 0 else self.bw - 1)

    def _mark(self, side, on):
        if not on:
            return
        i = self.rmark if side == 'red' else self.bmark
        if self.cell:
            self.buf[i] = BAR
        else:
            self.buf[i] |= _DP

    def _draw(self, view, phase):
        buf = self.buf
        blink_on = blink(phase)
        screen = view.get('screen')
        rw = self.rw
        bw = self.bw
        if screen == 'menu':
            m = view.get('menu')
            text(buf, 0, rw, label(m.get('item') if m else None, rw))
            value(buf, rw, bw, m.get('value') if m else None)
            return
        if screen == 'setup' or screen == 'over':
            pg = screen_page(view, phase)
            if pg != _P_TEXT:
                self.screen_page(view, pg)
                return
        if screen == 'setup':
            chosen = view.get('hammer')
            word = 'HAm'
            if vocab.turn_game(view) or chosen is None:
                chosen = view.get('turn')
                word = '1St'
            c = 1 if self.cell else 0
            clear(buf, 0, rw + bw)
            text(buf, c, rw - c, word if chosen == 'red' else 'SEt')
            text(buf, rw + c, bw - c, word if chosen == 'blue' else 'SEt')
            self._mark(chosen, True)
            return
        c = 1 if self.cell else 0
        red = num(view, 'red')
        blue = num(view, 'blue')
        if screen == 'over':
            win = view.get('winner')
            clear(buf, 0, rw + bw)
            if blink_on or win != 'red':
                score(buf, c, rw - c, red, 0, True)
            if blink_on or win != 'blue':
                score(buf, rw + c, bw - c, blue, 0, True)
            return
        if vocab.cursor_shown(view, phase):
            self._shove(view, blink_on)
            return
        pr = side_num(view, 'pending', 'red')
        pb = side_num(view, 'pending', 'blue')
        clear(buf, 0, rw + bw)
        # The score keeps clear of the marker cell unless it needs the whole module ('12=2'
        # on four digits): then the marker shows only where the score leaves its cell blank.
        cr = 0 if wants_cell(red, pr, rw, c) else c
        cb = 0 if wants_cell(blue, pb, bw, c) else c
        score(buf, cr, rw - cr, red, pr, blink_on)
        score(buf, rw + cb, bw - cb, blue, pb, blink_on)
        self._mark('red', marked(view, 'red', blink_on) and buf[self.rmark] == 0)
        self._mark('blue', marked(view, 'blue', blink_on) and buf[self.bmark] == 0)

    def _pin(self, pin, phase):
        # 'PIn' on the red module, the PIN on the blue one, for as long as it is shown.
        buf = self.buf
        rw = self.rw
        text(buf, 0, rw, 'PIn')
        text(buf, rw, self.bw, pin, True)

    def screen_page(self, view, pg):
        buf = self.buf
        rw = self.rw
        bw = self.bw
        if pg == _P_WORDS:
            text(buf, 0, rw, vocab.winner_word(view))
            text(buf, rw, bw, 'uuin')            # 'uu' is the seven-segment W
        elif pg == _P_RULES:
            lead_token(buf, 0, rw, view)              # 't 15' on the red module
            end_word(buf, rw, bw, view)         # 'End2' on the blue one
        else:
            key = COUNT_KEYS[pg - _P_GAMES]
            letter = 'GLC'[pg - _P_GAMES]
            counted(buf, 0, rw, letter, side_num(view, key, 'red'))
            counted(buf, rw, bw, letter, side_num(view, key, 'blue'))

    def _shove(self, view, blink_on):
        buf = self.buf
        cur = view.get('cursor')
        rw = self.rw
        bw = self.bw
        turn = view.get('turn')
        clear(buf, 0, rw + bw)
        if isinstance(cur, int):
            b = FONT[ord('b') - 32]
            # The turn side's 'b' blinks: the turn marker, a whole digit's size.
            if turn != 'red' or blink_on:
                buf[0] = b
            if turn != 'blue' or blink_on:
                buf[rw] = b
            number(buf, 1, 1, cur)
            number(buf, rw + 1, 1, cur)
            number(buf, rw - 1, 1, vocab.bed_marks(view, 'red'))
            number(buf, rw + bw - 1, 1, vocab.bed_marks(view, 'blue'))
        else:
            if turn != 'red' or blink_on:
                text(buf, 0, rw, 'End')
            if turn != 'blue' or blink_on:
                text(buf, rw, bw, 'End')
