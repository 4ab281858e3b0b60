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
# Pictures (`.` is the decimal point of the digit before it, [x] blinks):
#   play      '12 7.'  red 12, blue 7 with the hammer (a steady dp on the last digit of a side's
#             field; the turn of a turn game is the same dp, blinking).
#             pending beside the total when it fits ('12[+2]'), else the total plus pending
#             blinking ('[14]'). Single: red from the left edge, blue to the right edge ('7  12');
#             when the two do not fit with a gap between them (3-digit horse collar scores on 4
#             or 6 digits) one side at a time: its letter and its score ('r104'), the side with
#             pending points, else alternating every 2 s.
#             Four-frame and practice (no target line) show the frame where there is room:
#             Sides with 6 digits 'F3   5', Single with 8 '5  F3  8'.
#   over      the winner's score blinks.
#   setup     'SEt' and the side chosen to have the hammer (or to shoot first): Sides 'SEt' /
#             'HAm' (or '1St'); Single 'St r', 'SEt rEd', 'SEt  bLu'.
#   menu      a short label and the value: 'tg21' (4), 'tgt 21' (6), 'gAmE  ko' (8); Sides:
#             label on the red module, value on the blue one.
#   message   the text, scrolled one character a phase when longer than the display.
#   shove ha'penny: the cursor bed and each side's marks in it: Single '2b41' (red 2 marks in
#             bed 4, blue 1), Sides 'b4 2' / 'b4 1'; 'End' when the cursor is on END.
#   info      every 10 s, for 2 s, when nothing is pending (as on the matrices): the target
#             and the end that shoots (doubles: the pair at that end shoots). Sides 't 15' /
#             'End2'; Single 8 't15 End2', 6 't15 E2', 4 't 15' then 'End2'. A game with no
#             target line shows its frame instead: 'F3'.
#   sleep     dark.
# Nothing here allocates in show(): numbers are drawn digit by digit, text char by char through
# the font table, and the view's numbers stay plain ints.
from scoreboard.render import INFO_PERIOD, INFO_SHOW, info_phase
from scoreboard.render.font7 import FONT, DIGITS

try:
    from micropython import const
except ImportError:
    def const(x):  # type: ignore[misc]  # CPython stand-in for the builtin
        return x

_DP = const(0x80)
_MINUS = const(0x40)
_PLUS = const(0x70)
_GAP = const(2)          # blank cells between the end and the start of a scrolling message
_ALT = const(3)          # one side at a time: switch every 2**_ALT phases (2 s)

# Menu labels: item, short (2 cells), long (up to 4 cells).
LABELS = (
    ('game', 'gA', 'gAmE'), ('target', 'tg', 'tgt'), ('doubles', 'db', 'dbL'),
    ('blank', 'bL', 'bLnk'), ('hanger', 'hA', 'hAng'), ('handicap', 'hc', 'hcP'),
    ('corner', 'co', 'Corn'), ('beds', 'bd', 'bEdS'), ('gift', 'gF', 'gIFt'),
    ('last_mark', 'LA', 'LASt'), ('best_of', 'bo', 'bESt'), ('brightness', 'br', 'brit'),
    ('reset_games', 'rS', 'rSEt'),
)
# Menu values as the core spells them: value, short (up to 2 cells), long (up to 3 cells).
VALUES = (
    ('knockoff', 'ko', 'ko'), ('tapdraw', 'td', 'td'), ('horsecollar', 'hc', 'hc'),
    ('fourframe', '4F', '4Fr'), ('practice', 'Pr', 'Pr'), ('shovehapenny', 'SH', 'SHo'),
    ('switch', 'SW', 'SWi'), ('keep', 'kP', 'kEP'), ('any', 'An', 'Any'),
    ('earned', 'Er', 'Ern'), ('no', 'no', 'no'), ('yes', 'yE', 'yES'),
    ('red', 'r', 'rEd'), ('blue', 'b', 'bLu'),
)


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


def _glyph(o):
    if o < 32 or o > 127:
        return 0
    return FONT[o - 32]


def cells(s):
    """Cells text s takes: a '.' folds into the character before it."""
    n = 0
    i = 0
    ln = len(s)
    while i < ln:
        o = ord(s[i])
        i += 1
        if o != 46 and i < ln and ord(s[i]) == 46:
            i += 1
        n += 1
    return n


def cell(s, k):
    """Segment byte of cell k of text s (0 past the end)."""
    n = 0
    i = 0
    ln = len(s)
    while i < ln:
        o = ord(s[i])
        i += 1
        seg = _glyph(o)
        if o != 46 and i < ln and ord(s[i]) == 46:
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
    beside it ('12+2', the '+2' blinking) when they fit, else the total and '+pending' by turns
    (a horse-collar '104' then '+26'), so both stay readable. Returns the cell of the total's
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
                buf[p0 + nt] = _PLUS
                number(buf, p0 + nt + 1, np, pending)
            return p0 + nt - 1
        if blink_on:
            buf[p0 + n - np - 1] = _PLUS
            number(buf, p0 + n - np, np, pending)
        else:
            number(buf, p0, n, total)
        return p0 + n - 1
    number(buf, p0, n, total)
    return p0 + n - 1


def _find(table, key, col):
    for row in table:
        if row[0] == key:
            return row[col]
    return None


def label(item, width):
    """Menu label of item for a field of `width` cells."""
    s = _find(LABELS, item, 2)
    if s is None:
        return item if isinstance(item, str) else ''
    if cells(s) <= width:
        return s
    return _find(LABELS, item, 1)


def value(buf, start, width, v, right=True):
    """A menu value as the core spells it, in its field (long spelling when it fits)."""
    if v is True:
        s = 'yES' if width >= 3 else 'y'
    elif v is False:
        s = 'no' if width >= 2 else 'n'
    elif v is None:
        s = 'oFF' if width >= 3 else '-'
    elif isinstance(v, int):
        number(buf, start, width, v)
        return
    else:
        s = _find(VALUES, v, 2)
        if s is None:
            s = v if isinstance(v, str) else '?'
        elif cells(s) > width:
            s = _find(VALUES, v, 1)
    text(buf, start, width, s, right)


def _int(v):
    return v if isinstance(v, int) and v is not True and v is not False else 0


def _side_get(d, side):
    if not d:
        return 0
    return _int(d.get(side, 0))


# ---- layouts ------------------------------------------------------------------------------

class _Layout:
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
        if view.get('screen') == 'sleep':
            clear(buf, 0, self.width)
        else:
            msg = view.get('message')
            if msg:
                self._message(view, msg, phase)
            else:
                self._draw(view, phase)
        self._push()

    def _message(self, view, msg, phase):
        scroll(self.buf, 0, self.width, msg, phase)

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


def _marker(view, side, blink_on):
    """True when this side's marker dp is lit: hammer steady, turn blinking."""
    turn = view.get('turn')
    if turn is not None:
        return turn == side and blink_on
    return view.get('hammer') == side


def _frame_label(buf, p, view):
    """'F3' in cells p, p + 1: the frame of a game with no target line (four-frame, practice)."""
    f = _int(view.get('frame'))
    if f <= 9:
        buf[p] = FONT[ord('F') - 32]
        number(buf, p + 1, 1, f)
    else:
        number(buf, p, 2, f)


def _lead_is_target(view):
    """The info view leads with the target ('t15'), or with the frame ('F3') where the game
    has no target line."""
    t = view.get('target')
    return isinstance(t, int) and t > 0


def _lead(buf, start, width, view):
    """The info view's first token, 't15' or 'F3': its letter, then the number right-aligned
    in the rest of the cells."""
    if _lead_is_target(view):
        buf[start] = FONT[ord('t') - 32]
        number(buf, start + 1, width - 1, view.get('target'))
    else:
        buf[start] = FONT[ord('F') - 32]
        number(buf, start + 1, width - 1, _int(view.get('frame')))


def _lead_cells(view):
    if _lead_is_target(view):
        return 1 + ndigits(view.get('target'))
    return 1 + ndigits(_int(view.get('frame')))


def _end_word(buf, start, width, view):
    """'End2' ('End 2' with room, 'E2' in two cells) from `start`, blanks after it."""
    clear(buf, start, width)
    end = _int(view.get('end'))
    if width >= 5:
        text(buf, start, 3, 'End')
        number(buf, start + 4, 1, end)
    elif width >= 4:
        text(buf, start, 3, 'End')
        number(buf, start + 3, 1, end)
    else:
        buf[start] = FONT[ord('E') - 32]
        number(buf, start + 1, 1, end)


def _info_due(view, pr, pb, phase):
    return view.get('screen') == 'play' and not pr and not pb and info_phase(phase)


def _frame_game(view):
    g = view.get('game')
    return g == 'fourframe' or g == 'practice'


def _bed_marks(view, side):
    beds = view.get('beds')
    if not beds:
        return 0
    marks = beds.get(side)
    cur = view.get('cursor')
    if not marks or not isinstance(cur, int) or cur < 1 or cur > len(marks):
        return 0
    return _int(marks[cur - 1])


class SidesLayout(_Layout):
    """One module per side: red_drv shows red, blue_drv shows blue. `marker` is the digit
    whose decimal point marks the hammer/turn (-1: the last; 1 on 4-digit clock modules,
    whose only 'dp' is the colon on digit 1)."""

    def __init__(self, red_drv, blue_drv, marker=-1):
        _Layout.__init__(self, (red_drv, blue_drv))
        self.red_drv = red_drv
        self.blue_drv = blue_drv
        self.rw = red_drv.width
        self.bw = blue_drv.width
        self.rmark = marker if marker >= 0 else self.rw - 1
        self.bmark = self.rw + (marker if marker >= 0 else self.bw - 1)

    def _draw(self, view, phase):
        buf = self.buf
        blink_on = (phase >> 1) & 1 == 0
        screen = view.get('screen')
        rw = self.rw
        bw = self.bw
        if screen == 'setup':
            chosen = view.get('hammer')
            word = 'HAm'
            if view.get('turn') is not None or chosen is None:
                chosen = view.get('turn')
                word = '1St'
            text(buf, 0, rw, word if chosen == 'red' else 'SEt')
            text(buf, rw, bw, word if chosen == 'blue' else 'SEt')
            if chosen == 'red':
                buf[self.rmark] |= _DP
            elif chosen == 'blue':
                buf[self.bmark] |= _DP
            return
        if screen == 'menu':
            m = view.get('menu')
            text(buf, 0, rw, label(m.get('item') if m else None, rw))
            value(buf, rw, bw, m.get('value') if m else None)
            return
        red = _int(view.get('red'))
        blue = _int(view.get('blue'))
        if screen == 'over':
            win = view.get('winner')
            score(buf, 0, rw, red, 0, True)
            score(buf, rw, bw, blue, 0, True)
            if not blink_on:
                if win == 'red':
                    clear(buf, 0, rw)
                elif win == 'blue':
                    clear(buf, rw, bw)
            return
        if view.get('game') == 'shovehapenny':
            self._shove(view, blink_on)
        else:
            pend = view.get('pending')
            pr = _side_get(pend, 'red')
            pb = _side_get(pend, 'blue')
            if _info_due(view, pr, pb, phase):
                _lead(buf, 0, rw, view)          # 't 15' on the red module
                _end_word(buf, rw, bw, view)     # 'End2' on the blue one
                return
            score(buf, 0, rw, red, pr, blink_on)
            score(buf, rw, bw, blue, pb, blink_on)
            if _frame_game(view):
                # Six-digit modules have room for the frame at the left: 'F3   5'.
                if rw >= 6 and field(red, pr, rw) <= rw - 3:
                    _frame_label(buf, 0, view)
                if bw >= 6 and field(blue, pb, bw) <= bw - 3:
                    _frame_label(buf, rw, view)
        if _marker(view, 'red', blink_on):
            buf[self.rmark] |= _DP
        if _marker(view, 'blue', blink_on):
            buf[self.bmark] |= _DP

    def _shove(self, view, blink_on):
        buf = self.buf
        cur = view.get('cursor')
        rw = self.rw
        bw = self.bw
        if isinstance(cur, int):
            clear(buf, 0, rw + bw)
            buf[0] = FONT[ord('b') - 32]
            buf[rw] = buf[0]
            number(buf, 1, 1, cur)
            number(buf, rw + 1, 1, cur)
            number(buf, rw - 1, 1, _bed_marks(view, 'red'))
            number(buf, rw + bw - 1, 1, _bed_marks(view, 'blue'))
        else:
            text(buf, 0, rw, 'End')
            text(buf, rw, bw, 'End')


class SingleLayout(_Layout):
    """One module of 4, 6 or 8 digits for both sides: red on the left half, blue on the right
    half; the hammer/turn marker is the dp of the last digit of a side's half."""

    def __init__(self, drv):
        _Layout.__init__(self, (drv,))
        self.drv = drv
        self.hw = drv.width // 2

    def _draw(self, view, phase):
        buf = self.buf
        w = self.width
        hw = self.hw
        blink_on = (phase >> 1) & 1 == 0
        screen = view.get('screen')
        if screen == 'setup':
            chosen = view.get('hammer')
            if view.get('turn') is not None or chosen is None:
                chosen = view.get('turn')
            text(buf, 0, hw, 'SEt' if hw >= 3 else 'St')
            clear(buf, hw, w - hw)
            if chosen == 'red' or chosen == 'blue':
                vw = w - hw
                if vw > 2:
                    vw -= 1          # a blank cell between the word and the side
                value(buf, w - vw, vw, chosen)
                if blink_on:
                    buf[w - 1] |= _DP       # the choice blinks: RED/BLUE change it
            return
        if screen == 'menu':
            m = view.get('menu')
            text(buf, 0, hw, label(m.get('item') if m else None, hw))
            vw = w - hw
            if vw > 2:
                vw -= 1          # a blank cell between label and value
                buf[hw] = 0
            value(buf, w - vw, vw, m.get('value') if m else None)
            return
        red = _int(view.get('red'))
        blue = _int(view.get('blue'))
        over = screen == 'over'
        if over:
            pr = 0
            pb = 0
        else:
            pend = view.get('pending')
            pr = _side_get(pend, 'red')
            pb = _side_get(pend, 'blue')
            if view.get('game') == 'shovehapenny':
                self._shove(view, blink_on)
                return
            if _info_due(view, pr, pb, phase):
                self._info(view, phase)
                return
        fr = field(red, pr, hw)
        fb = field(blue, pb, w - hw)
        if fr > hw or fb > w - hw or (w >= 6 and fr + fb >= w):
            # One side at a time (no room for both, or no gap between them): its letter, then
            # its score. The side entering points stays; otherwise they alternate every 2 s.
            if pr > 0:
                side = 'red'
            elif pb > 0:
                side = 'blue'
            else:
                side = 'red' if (phase >> _ALT) & 1 == 0 else 'blue'
            red_side = side == 'red'
            buf[0] = FONT[(ord('r') if red_side else ord('b')) - 32]
            score(buf, 1, w - 1, red if red_side else blue, pr if red_side else pb, blink_on)
            if over and not blink_on and view.get('winner') == side:
                clear(buf, 1, w - 1)
            if not over and _marker(view, side, blink_on):
                buf[w - 1] |= _DP
            return
        # Red from the left edge, blue to the right edge: a gap between them whenever possible.
        rlast = score(buf, 0, hw, red, pr, blink_on, True)
        score(buf, hw, w - hw, blue, pb, blink_on)
        if not over and w >= 8 and _frame_game(view) and fr <= hw - 2 and fb <= w - hw - 2:
            _frame_label(buf, hw - 1, view)          # '5  F3  8'
        if over:
            if not blink_on:
                win = view.get('winner')
                if win == 'red':
                    clear(buf, 0, hw)
                elif win == 'blue':
                    clear(buf, hw, w - hw)
            return
        if _marker(view, 'red', blink_on):
            buf[rlast] |= _DP
        if _marker(view, 'blue', blink_on):
            buf[w - 1] |= _DP

    def _info(self, view, phase):
        buf = self.buf
        w = self.width
        clear(buf, 0, w)
        n = _lead_cells(view)
        if n + 5 <= w:                           # 't15 End2'
            _lead(buf, 0, n, view)
            _end_word(buf, w - 4, 4, view)
        elif n + 3 <= w:                         # 't15 E2'
            _lead(buf, 0, n, view)
            _end_word(buf, w - 2, 2, view)
        elif phase % INFO_PERIOD < INFO_PERIOD - INFO_SHOW // 2:
            _lead(buf, 0, w, view)               # 't 15', then
        else:
            _end_word(buf, 0, w, view)           # 'End2'

    def _shove(self, view, blink_on):
        buf = self.buf
        w = self.width
        cur = view.get('cursor')
        clear(buf, 0, w)
        if isinstance(cur, int):
            number(buf, 0, 1, _bed_marks(view, 'red'))
            number(buf, w - 1, 1, _bed_marks(view, 'blue'))
            p = (w - 2) // 2
            buf[p] = FONT[ord('b') - 32]
            number(buf, p + 1, 1, cur)
        else:
            text(buf, (w - 3) // 2, 3, 'End')
        turn = view.get('turn')
        if blink_on:
            if turn == 'red':
                buf[0] |= _DP
            elif turn == 'blue':
                buf[w - 1] |= _DP
