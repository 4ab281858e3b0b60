# The view model on an LED matrix: one drawing routine for 32x8 and 64x16 mono panels and for
# colour panels, on any driver that is a framebuf.FrameBuffer with width, height, update(),
# brightness(), power() and deinit() (drivers/max7219_matrix.py, drivers/ws2812_panel.py).
#
# Colours are palette indices: 1 red, 2 blue, 3 amber (everything else), 4 dim (empty bed
# slots). On a mono panel (colour=False) the first three are 1 and dim is 0.
#
# Compact layout (panels under 64x16, e.g. 32x8; pictures in boards/pico_max7219_matrix.md,
# every screen in host_tests/test_layout_matrix.py):
#   play   red total left, blue total right in 4x7 digits (rows 0..6); the side with the hammer
#          (turn games: the side whose turn it is, blinking) has a bar under its total (row 7);
#          pending points blink in 3x5 digits in the gap beside their side's total (when a
#          3-digit total leaves no gap, the pending hides the other total while it shows; when
#          both sides' pending would run together, they take turns, one blink each).
#          Every 10 s (phases 32..39 of 40), when nothing is pending, an info view: target
#          'T15', frame 'F5' (four-frame: 'F3/4') and end 'E1' in 3x5, games won as dots on
#          rows 6..7 (red from the left, blue from the right).
#   shove  the beds as columns: red marks on rows 0..2 (first mark nearest the middle), blue on
#          rows 5..7, the cursor bed (or the END slot at the right edge) lit on rows 3..4, the
#          turn side's blinking bar at the left edge; the info view shows the two mark totals.
#   over   the winner's name alternating every second with the final totals.
#   setup  'SET' and the letter of the side with the hammer (R/B) over a bar.
#   menu   a 3-letter item label (3x5) and the value (5x7 when it fits, else 3x5).
#   pin    the pairing PIN (view key `pin`) over whatever screen is up: 'PIN' in 3x5, the PIN
#          in 4x7 digits at the right ('PIN 1234' in 5x14 on 64x16).
#   message  5x7 text, centred, or scrolled one character per phase when it does not fit.
# Large layout (64x16 and up): totals in 5x14 digits (the 5x7 font doubled in height) with the
# marker bar on row 15, pending in 5x7 in the gap, target/frame/end in 3x5 under it and games
# won as dots on rows 14..15; shove: totals on the left, beds with 1-row marks and the cursor;
# over: 'RED WINS' above the totals; setup: 'SET', the game and 'HAMMER'/'FIRST' with the side;
# menu: the full item label over the value; messages in 5x14.
#
# Nothing here allocates per call: numbers are drawn digit by digit from ints, strings are read
# character by character through the font tables, labels are constant strings.
from scoreboard.render import vocab
from scoreboard.render.font5 import F3X5, W3X5, F5X7, D4X7
from scoreboard.render.palette import RED, BLUE, AMBER, DIM
from scoreboard.render.vocab import num, side_num, blink, page, size, code, is_text

SMALL = 0      # 3x5, variable width
MEDIUM = 1     # 5x7
DIGITS = 2     # 4x7, digits only

MAX_DOTS = 9        # games-won dots per side

# Shove ha'penny on panels under 64x16: the totals for the last 2 s of every 10 s (phases of
# 250 ms); each side's own total on its side.
_TOTALS_PERIOD = 40
_TOTALS_SHOW = 8

# Pages of the setup and game-over screens (2 s each, vocab.page): the screen's own picture,
# then the target/frame/end, games won, legs, and in horse collar the collars.
_P_TEXT = 0
_P_RULES = 1
_P_GAMES = 2
_P_LEGS = 3
_P_COLLARS = 4


def _glyph(o):
    """Glyph number in the 32..95 tables for character code o (lower case folded)."""
    if 97 <= o <= 122:
        o -= 32
    if o < 32 or o > 95:
        o = 63   # '?'
    return o - 32


def _named(view, side, default):
    """The side's name from the view's `names` (DESIGN section 4), else `default`."""
    n = view.get('names')
    if n:
        n = n.get(side)
        if n:
            return n
    return default


def _digits(n):
    k = 1
    while n >= 10:
        n //= 10
        k += 1
    return k


def _pow10(k):
    p = 1
    while k > 0:
        p *= 10
        k -= 1
    return p


class MatrixLayout:
    def __init__(self, drv, colour=False):
        self.drv = drv
        self.drivers = (drv,)
        self.w = drv.width
        self.h = drv.height
        self.large = self.w >= 64 and self.h >= 16
        self.colour = colour
        if colour:
            self.c_red, self.c_blue, self.c_info, self.c_dim = RED, BLUE, AMBER, DIM
        else:
            self.c_red, self.c_blue, self.c_info, self.c_dim = 1, 1, 1, 0
        self._msg = None
        self._msg_start = 0

    # -- the display object -----------------------------------------------------------------------
    def brightness(self, level):
        self.drv.brightness(level)

    def lamp(self):
        """Every pixel lit (the power-up lamp test; red on a colour panel, one channel, so a
        full panel stays within its supply); the next show() redraws."""
        fb = self.drv
        fb.fill(self.c_red)
        fb.update()

    def power(self, on):
        self.drv.power(on)

    def deinit(self):
        self.drv.deinit()

    def show(self, view, phase):
        fb = self.drv
        fb.fill(0)
        screen = view.get('screen')
        msg = view.get('message')
        pin = view.get('pin')
        if pin:
            self._pin(pin)          # over whatever screen is up (DESIGN section 10)
        elif screen == 'sleep':
            pass
        elif msg:
            self._message(msg, phase)
        else:
            self._msg = None
            if screen == 'play':
                if vocab.shove(view):
                    self._shove(view, phase)
                else:
                    self._play(view, phase)
            elif screen == 'over':
                self._over(view, phase)
            elif screen == 'setup':
                self._setup(view, phase)
            elif screen == 'menu':
                self._menu(view)
        fb.update()

    # -- drawing primitives -----------------------------------------------------------------------
    def _cols(self, table, off, ncols, x, y, c, sy):
        fb = self.drv
        for i in range(ncols):
            col = table[off + i]
            yy = y
            while col:
                if col & 1:
                    if sy == 1:
                        fb.pixel(x + i, yy, c)
                    else:
                        fb.fill_rect(x + i, yy, 1, sy, c)
                col >>= 1
                yy += sy

    def _char(self, o, x, y, font, c, sy):
        """Draw character code o at x; returns the advance (glyph width + 1)."""
        if font == DIGITS:
            if 48 <= o <= 57:
                self._cols(D4X7, (o - 48) * 4, 4, x, y, c, sy)
                return 5
            font = MEDIUM
        g = _glyph(o)
        if font == SMALL:
            w = W3X5[g]
            self._cols(F3X5, g * 5, w, x, y, c, sy)
            return w + 1
        self._cols(F5X7, g * 5, 5, x, y, c, sy)
        return 6

    def _adv(self, o, font):
        if font == SMALL:
            return W3X5[_glyph(o)] + 1
        if font == DIGITS and 48 <= o <= 57:
            return 5
        return 6

    def text_width(self, s, font):
        w = 0
        for i in range(size(s)):
            w += self._adv(code(s, i), font)
        return w - 1 if w else 0

    def text(self, s, x, y, font, c, sy=1):
        for i in range(size(s)):
            x += self._char(code(s, i), x, y, font, c, sy)
        return x

    # -- the players' names (at most 12 printable characters; a name too long for its room is
    # cut, drawn character by character from the string itself: nothing is built) -----------
    def _fit(self, s, font, room):
        """How many leading characters of s fit in `room` pixels."""
        w = -1
        for i in range(len(s)):
            w += self._adv(ord(s[i]), font)
            if w > room:
                return i
        return len(s)

    def _name(self, s, x, y, font, c, room, right=False):
        """As much of name s as fits in `room` pixels, from x (or ending at x when right);
        returns the width drawn."""
        n = self._fit(s, font, room)
        w = -1
        for i in range(n):
            w += self._adv(ord(s[i]), font)
        if n == 0:
            return 0
        if right:
            x -= w
        for i in range(n):
            x += self._char(ord(s[i]), x, y, font, c, 1)
        return w

    def num_width(self, n, font):
        return _digits(n) * self._adv(48, font) - 1

    def num(self, n, x, y, font, c, sy=1):
        """Draw the decimal digits of n >= 0 from x; returns x after the last advance."""
        k = _digits(n) - 1
        while k >= 0:
            p = _pow10(k)
            x += self._char(48 + (n // p) % 10, x, y, font, c, sy)
            k -= 1
        return x

    def _value_width(self, v, font):
        if is_text(v):
            return self.text_width(v, font)
        return self.num_width(v, font)

    def _value(self, v, x, y, font, c, sy=1):
        if is_text(v):
            return self.text(v, x, y, font, c, sy)
        return self.num(v, x, y, font, c, sy)

    def _dots(self, count, x, y, step, c):
        """Games-won dots (1 wide, 2 tall) from x in direction step (+2 or -2)."""
        fb = self.drv
        if count > MAX_DOTS:
            count = MAX_DOTS
        for _ in range(count):
            fb.fill_rect(x, y, 1, 2, c)
            x += step

    # -- play -------------------------------------------------------------------------------------
    def _play(self, view, phase):
        on = blink(phase)
        pr = side_num(view, 'pending', 'red')
        pb = side_num(view, 'pending', 'blue')
        self._totals(view, num(view, 'red'), num(view, 'blue'), pr, pb, on,
                     vocab.marker(view), (phase >> 2) & 1)

    def _totals(self, view, r, b, pr, pb, on, marker, alt=0):
        """Both totals, the marker bar and the blinking pending; on large panels also the info
        tokens and games-won dots in the gap. When both sides have pending points and the two
        numbers would stand less than 3 pixels apart (they would read as one number), they
        take turns: red's in one blink, blue's in the next (alt)."""
        fb = self.drv
        w = self.w
        large = self.large
        if large:
            font, sy, bar_y = MEDIUM, 2, self.h - 1
            pfont, py = MEDIUM, 0
        else:
            font, sy, bar_y = DIGITS, 1, 7
            pfont, py = SMALL, 1
        wr = self.num_width(r, font)
        wb = self.num_width(b, font)
        xb = w - wb
        if large and not pr and not pb:
            # The names beside the totals, each in its half of the gap (3x5, above the line).
            room = (xb - wr - 7) // 2
            nr = _named(view, 'red', None)
            if nr is not None:
                self._name(nr, wr + 2, 1, SMALL, self.c_red, room)
            nb = _named(view, 'blue', None)
            if nb is not None:
                self._name(nb, xb - 2, 1, SMALL, self.c_blue, room, True)
        show_r = True
        show_b = True
        gap_l = wr + 2
        gap_r = xb - 2
        if on and pr and pb:
            if gap_l + self.num_width(pr, pfont) + 3 > gap_r - self.num_width(pb, pfont):
                if alt:
                    pr = 0
                else:
                    pb = 0
        if on and pr:
            x = gap_l
            end = x + self.num_width(pr, pfont)
            if end > gap_r:
                show_b = False
            self.num(pr, x, py, pfont, self.c_red)
        if on and pb:
            x = gap_r - self.num_width(pb, pfont)
            if x < gap_l:
                show_r = False
            self.num(pb, x, py, pfont, self.c_blue)
        if show_r:
            self.num(r, 0, 0, font, self.c_red, sy)
        if show_b:
            self.num(b, xb, 0, font, self.c_blue, sy)
        side = marker & 3
        if side and (not (marker & 4) or on):
            if side == 1:
                fb.hline(0, bar_y, wr, self.c_red)
            else:
                fb.hline(xb, bar_y, wb, self.c_blue)
        if large:
            self._tokens(view, gap_l, gap_r, 8)
            self._dots(side_num(view, 'games', 'red'), gap_l, self.h - 2, 2, self.c_red)
            self._dots(side_num(view, 'games', 'blue'), gap_r - 1, self.h - 2, -2,
                       self.c_blue)

    def _tokens(self, view, x0, x1, y):
        """Target 'T15', frame 'F5' (four-frame 'F3/4') and end 'E1' in 3x5, centred in
        [x0, x1) with 2-pixel gaps; tokens that do not fit are left out from the last."""
        target = view.get('target')
        frame = num(view, 'frame')
        end = num(view, 'end')
        tw = 0
        if target:
            tw = 4 + self.num_width(target, SMALL)
        fw = 0
        if frame:
            fw = 4 + self.num_width(frame, SMALL)
        ew = 0
        if end:
            ew = 4 + self.num_width(end, SMALL)
        room = x1 - x0
        total = tw + fw + ew + (2 if tw and fw else 0) + (2 if ew and (tw or fw) else 0)
        if total > room and ew:
            total -= ew + (2 if tw or fw else 0)
            ew = 0
        if total > room and fw and tw:
            total -= fw + 2
            fw = 0
        if total > room:
            return
        x = x0 + (room - total) // 2
        c = self.c_info
        if tw:
            x = self.text('T', x, y, SMALL, c)
            x = self.num(target, x, y, SMALL, c) + 2
        if fw:
            x = self.text('F', x, y, SMALL, c)
            x = self.num(frame, x, y, SMALL, c) + 2
        if ew:
            x = self.text('E', x, y, SMALL, c)
            self.num(end, x, y, SMALL, c)

    def _rules(self, view):
        """Setup and game-over page: the target, frame and end ('T15 F5 E1')."""
        if self.large:
            self._tokens(view, 0, self.w, 5)
        else:
            self._tokens(view, 0, self.w, 1)

    def _counts(self, view, key, word, letter):
        """Setup and game-over page: a count of each side (games won, legs, collars), red's
        at the left in red, blue's at the right in blue, the word between them."""
        r = side_num(view, key, 'red')
        b = side_num(view, key, 'blue')
        w = self.w
        if self.large:
            font, ly, lfont = MEDIUM, 4, MEDIUM
            sy = 2
        else:
            font, ly, lfont = DIGITS, 1, SMALL
            sy = 1
        wr = self.num_width(r, font)
        wb = self.num_width(b, font)
        self.num(r, 0, 0, font, self.c_red, sy)
        self.num(b, w - wb, 0, font, self.c_blue, sy)
        room = w - wr - wb - 4
        if self.text_width(word, lfont) > room:
            word = letter
            if self.text_width(word, lfont) > room:
                return
        x = wr + 2 + (room - self.text_width(word, lfont)) // 2
        self.text(word, x, ly, lfont, self.c_info)

    def _page(self, view, pg):
        if pg == _P_RULES:
            self._rules(view)
        elif pg == _P_GAMES:
            self._counts(view, 'games', 'WON', 'W')
        elif pg == _P_LEGS:
            self._counts(view, 'legs', 'LEGS', 'L')
        else:
            self._counts(view, 'collars', 'COLL', 'C')

    # -- shove ha'penny ---------------------------------------------------------------------------
    def _shove(self, view, phase):
        on = blink(phase)
        marker = vocab.marker(view)
        if not self.large and phase % _TOTALS_PERIOD >= _TOTALS_PERIOD - _TOTALS_SHOW:
            self._totals(view, num(view, 'red'), num(view, 'blue'), 0, 0, on,
                         marker)
            return
        fb = self.drv
        beds = view.get('beds')
        red_beds = beds.get('red') if beds else None
        blue_beds = beds.get('blue') if beds else None
        nb = len(red_beds) if red_beds else 9
        cursor = view.get('cursor')
        w = self.w
        side = marker & 3
        show_marker = side and (not (marker & 4) or on)
        if self.large:
            # totals on the left, marker bars beside them, beds from x = 14
            self.num(num(view, 'red'), 0, 0, MEDIUM, self.c_red)
            self.num(num(view, 'blue'), 0, 9, MEDIUM, self.c_blue)
            if show_marker:
                if side == 1:
                    fb.vline(12, 0, 7, self.c_red)
                else:
                    fb.vline(12, 9, 7, self.c_blue)
            x0 = 14
            red_row, blue_row, step = 6, 9, 2
            cur_y = 7
        else:
            if show_marker:
                if side == 1:
                    fb.fill_rect(0, 0, 2, 3, self.c_red)
                else:
                    fb.fill_rect(0, 5, 2, 3, self.c_blue)
            x0 = 3
            red_row, blue_row, step = 2, 5, 1
            cur_y = 3
        pitch = (w - x0 - 2) // nb
        mw = pitch - 1
        # The bed grid: every slot is drawn, a mark as a bar; an empty slot dim on a colour
        # panel, a single dot on a mono one (which has no dim), so each mark's bed can be told.
        dot = (mw - 1) // 2
        mono = not self.colour
        for i in range(nb):
            x = x0 + i * pitch
            mr = red_beds[i] if red_beds and i < len(red_beds) else 0
            mb = blue_beds[i] if blue_beds and i < len(blue_beds) else 0
            for k in range(3):
                y = red_row - k * step
                if k < mr:
                    fb.hline(x, y, mw, self.c_red)
                elif mono:
                    fb.pixel(x + dot, y, 1)
                else:
                    fb.hline(x, y, mw, self.c_dim)
                y = blue_row + k * step
                if k < mb:
                    fb.hline(x, y, mw, self.c_blue)
                elif mono:
                    fb.pixel(x + dot, y, 1)
                else:
                    fb.hline(x, y, mw, self.c_dim)
            if cursor == i + 1:
                fb.fill_rect(x, cur_y, mw, 2, self.c_info)
        if cursor == 'end':
            fb.fill_rect(w - 2, cur_y, 2, 2, self.c_info)

    # -- game over --------------------------------------------------------------------------------
    def _pages(self, view, phase):
        """The page of a setup or game-over screen showing in this phase."""
        if view.get('screen') == 'over' and vocab.collars(view):
            return page(phase, 5)
        return page(phase, 4)

    def _over(self, view, phase):
        pg = self._pages(view, phase)
        if pg != _P_TEXT:
            self._page(view, pg)
            return
        winner = view.get('winner')
        r = num(view, 'red')
        b = num(view, 'blue')
        c = self.c_red if winner == 'red' else self.c_blue
        name = _named(view, winner, 'RED' if winner == 'red' else 'BLUE')
        marker = 1 if winner == 'red' else (2 if winner == 'blue' else 0)
        if self.large:
            if winner:
                nw = self.text_width(name, MEDIUM)
                tw = nw + 6 + self.text_width('WINS', MEDIUM)
                if tw <= self.w:
                    x = (self.w - tw) // 2
                    self._name(name, x, 0, MEDIUM, c, nw)
                    self.text('WINS', x + nw + 6, 0, MEDIUM, self.c_info)
                else:                       # a long name: the name alone
                    self._name(name, (self.w - min(nw, self.w)) // 2, 0, MEDIUM, c, self.w)
            self.num(r, 0, 9, MEDIUM, self.c_red)
            self.num(b, self.w - self.num_width(b, MEDIUM), 9, MEDIUM, self.c_blue)
            gap_l = self.num_width(r, MEDIUM) + 2
            gap_r = self.w - self.num_width(b, MEDIUM) - 2
            self._dots(side_num(view, 'games', 'red'), gap_l, self.h - 2, 2, self.c_red)
            self._dots(side_num(view, 'games', 'blue'), gap_r - 1, self.h - 2, -2,
                       self.c_blue)
            return
        if winner and ((phase >> 2) & 1) == 0:
            nw = min(self.text_width(name, MEDIUM), self.w)
            self._name(name, (self.w - nw) // 2, 0, MEDIUM, c, self.w)
            return
        self._totals(view, r, b, 0, 0, True, marker)

    # -- setup ------------------------------------------------------------------------------------
    def _setup(self, view, phase):
        pg = self._pages(view, phase)
        if pg != _P_TEXT:
            self._page(view, pg)
            return
        fb = self.drv
        marker = vocab.marker(view)
        side = marker & 3
        c = self.c_red if side == 1 else self.c_blue
        if self.large:
            self.text('SET', 0, 1, SMALL, self.c_info)
            label = vocab.word(view.get('game'), vocab.FULL)
            if label:
                self.text(label, self.w - self.text_width(label, MEDIUM), 0, MEDIUM, self.c_info)
            if side:
                word = 'FIRST' if vocab.turn_game(view) else 'HAMMER'
                room = self.w - self.text(word, 0, 10, SMALL, self.c_info) - 1
                name = _named(view, 'red' if side == 1 else 'blue',
                              'RED' if side == 1 else 'BLUE')
                wn = self._name(name, self.w, 8, MEDIUM, c, room, True)
                fb.hline(self.w - wn, self.h - 1, wn, c)
            return
        x = self.text('SET', 0, 0, MEDIUM, self.c_info)
        if side:
            name = _named(view, 'red' if side == 1 else 'blue', None)
            if name is not None:        # the name (3x5) where the side's letter would be
                wn = self._name(name, self.w, 1, SMALL, c, self.w - x - 1, True)
                fb.hline(self.w - wn, 7, wn, c)
                return
            x = self.w - 5
            self.text('R' if side == 1 else 'B', x, 0, MEDIUM, c)
            fb.hline(x, 7, 5, c)

    # -- menu -------------------------------------------------------------------------------------
    def _menu(self, view):
        m = view.get('menu')
        if not m:
            return
        item = m.get('item')
        value = m.get('value')
        form = vocab.FULL if self.large else vocab.COMPACT
        if value is None:
            value = 'NONE'
        elif value is True or value is False or isinstance(value, str):
            v = vocab.word(value, form)
            if v is not None:
                value = v
        elif not isinstance(value, int):
            value = '?'
        label = vocab.label(item, form)
        w = self.w
        c = self.c_info
        if self.large:
            self.text(label, 0, 0, MEDIUM, c)
            vw = self._value_width(value, MEDIUM)
            if vw <= w:
                self._value(value, (w - vw) // 2, 9, MEDIUM, c)
            else:
                self._value(value, 0, 10, SMALL, c)
            return
        # The full name where it fits without making the value smaller than it would be.
        full = vocab.label(item, vocab.FULL)
        fw = self.text_width(full, SMALL) + 2
        vm = self._value_width(value, MEDIUM)
        if fw + vm <= w or (self.text_width(label, SMALL) + 2 + vm > w and
                            fw + self._value_width(value, SMALL) <= w):
            label = full
        lw = self.text(label, 0, 1, SMALL, c)
        room = w - lw - 1
        vw = self._value_width(value, MEDIUM)
        if vw <= room:
            self._value(value, w - vw, 0, MEDIUM, c)
        else:
            self._value(value, w - self._value_width(value, SMALL), 1, SMALL, c)

    # -- the pairing PIN --------------------------------------------------------------------------
    def _pin(self, pin):
        c = self.c_info
        w = self.w
        if self.large:              # 'PIN 1234' in 5x14, centred
            tw = self.text_width('PIN ', MEDIUM) + 1 + self.text_width(pin, MEDIUM)
            x = self.text('PIN ', (w - tw) // 2 if tw < w else 0, 1, MEDIUM, c, 2)
            self.text(pin, x, 1, MEDIUM, c, 2)
            return
        # 'PIN' in 3x5 at the left, the PIN in 4x7 digits at the right
        self.text('PIN', 0, 1, SMALL, c)
        self.text(pin, w - self.text_width(pin, DIGITS), 0, DIGITS, c)

    # -- messages ---------------------------------------------------------------------------------
    def _message(self, msg, phase):
        if msg != self._msg:
            self._msg = msg
            self._msg_start = phase
        c = self.c_info
        w = self.w
        if self.large:
            y, sy = 1, 2
        else:
            y, sy = 0, 1
        tw = self.text_width(msg, MEDIUM)
        if tw <= w:
            self.text(msg, (w - tw) // 2, y, MEDIUM, c, sy)
            return
        # a marquee: the text, a 2-character gap, the text again; one character per phase
        cycle = 6 * (len(msg) + 2)
        x = -6 * ((phase - self._msg_start) % (len(msg) + 2))
        self.text(msg, x, y, MEDIUM, c, sy)
        if x + cycle < w:
            self.text(msg, x + cycle, y, MEDIUM, c, sy)
