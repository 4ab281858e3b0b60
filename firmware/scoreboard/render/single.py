# The seven-segment layout of one module for both sides (segments.py has the pictures and the
# drawing primitives): a module of its own so that a board with one module a side never loads
# it. (board files import it from here).
from scoreboard.render.font7 import BAR, FONT
from scoreboard.render import vocab
from scoreboard.render.vocab import num, side_num, marked, blink
from scoreboard.render.segments import (BaseLayout, end_word, lead_token, screen_page, wants_cell,
                                        cells, clear, counted, field, label, number, score, text,
                                        value, COUNT_KEYS)

from ..compat import const

_DP = const(0x80)
_ALT = const(3)          # one side at a time: switch every 2**_ALT phases (2 s)
_P_TEXT = const(0)       # (segments.py's pages)
_P_WORDS = const(1)
_P_RULES = const(2)
_P_GAMES = const(3)


class SingleLayout(BaseLayout):
    """One module of 4, 6 or 8 digits for both sides: red on the left half, blue on the right
    half. The hammer/turn marker is the outer cell of a side's half, segment d (6 digits and
    more; marker=None), else the dp of the last digit of a side's field."""

    def __init__(self, drv, marker=None):
        BaseLayout.__init__(self, (drv,))
        self.drv = drv
        self.hw = drv.width // 2
        self.cell = marker is None and drv.width >= 6

    def _draw(self, view, phase):
        buf = self.buf
        w = self.width
        hw = self.hw
        blink_on = blink(phase)
        screen = view.get('screen')
        if screen == 'menu':
            m = view.get('menu')
            text(buf, 0, hw, label(m.get('item') if m else None, hw))
            vw = w - hw
            if vw > 2:
                vw -= 1          # a blank cell between label and value
                buf[hw] = 0
            value(buf, w - vw, vw, m.get('value') if m else None)
            return
        if screen == 'setup' or screen == 'over':
            pg = screen_page(view, phase)
            if pg != _P_TEXT:
                self.screen_page(view, pg, phase)
                return
        if screen == 'setup':
            chosen = view.get('hammer')
            if vocab.turn_game(view) or chosen is None:
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
        red = num(view, 'red')
        blue = num(view, 'blue')
        over = screen == 'over'
        if over:
            pr = 0
            pb = 0
        else:
            pr = side_num(view, 'pending', 'red')
            pb = side_num(view, 'pending', 'blue')
            if vocab.cursor_shown(view, phase):
                self._shove(view, blink_on)
                return
        # Marker cells at both outer edges; a side's score keeps clear of its cell unless it
        # needs it ('12=2' in a half of four cells), and the marker then shows only where the
        # score leaves the cell blank. When the cells would leave no room for both sides (two
        # 2-digit totals on 6 digits), the marker falls back to the dp.
        c = 1 if self.cell and not over else 0
        cr = 0 if wants_cell(red, pr, hw, c) else c
        cb = 0 if wants_cell(blue, pb, w - hw, c) else c
        fr = field(red, pr, hw - cr)
        fb = field(blue, pb, w - hw - cb)
        if c and (fr > hw - cr or fb > w - hw - cb or fr + fb >= w - cr - cb):
            c = cr = cb = 0
            fr = field(red, pr, hw)
            fb = field(blue, pb, w - hw)
            if fr + fb < w and fr <= hw and fb <= w - hw:
                c = 0          # both fit without the cells
            else:
                c = 1          # one side at a time anyway: keep the marker cell
                cr = cb = 1
                fr = field(red, pr, hw - 1)
                fb = field(blue, pb, w - hw - 1)
        clear(buf, 0, w)
        if fr > hw - cr or fb > w - hw - cb or (w >= 6 and fr + fb >= w - cr - cb):
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
            t = red if red_side else blue
            p = pr if red_side else pb
            if wants_cell(t, p, w - 1, c):
                c = 0 if not self.cell else 2      # the score takes the cell: marker if blank
            score(buf, 1, w - 1 - (c & 1), t, p, blink_on)
            if over and not blink_on and view.get('winner') == side:
                clear(buf, 1, w - 1)
            if not over and marked(view, side, blink_on):
                if not c:
                    buf[w - 1] |= _DP
                elif buf[w - 1] == 0:
                    buf[w - 1] = BAR
            return
        # Red from the left edge, blue to the right edge: a gap between them whenever possible.
        rlast = score(buf, cr, hw - cr, red, pr, blink_on, True)
        score(buf, hw, w - hw - cb, blue, pb, blink_on)
        if over:
            if not blink_on:
                win = view.get('winner')
                if win == 'red':
                    clear(buf, 0, hw)
                elif win == 'blue':
                    clear(buf, hw, w - hw)
            return
        if marked(view, 'red', blink_on):
            if not c:
                buf[rlast] |= _DP
            elif buf[0] == 0:
                buf[0] = BAR
        if marked(view, 'blue', blink_on):
            if not c:
                buf[w - 1] |= _DP
            elif buf[w - 1] == 0:
                buf[w - 1] = BAR

    def screen_page(self, view, pg, phase):
        buf = self.buf
        w = self.width
        hw = self.hw
        clear(buf, 0, w)
        if pg == _P_WORDS:
            name = vocab.winner_word(view)
            if cells(name) + 5 <= w:                 # 'rEd uuin'
                text(buf, 0, w, name)
                text(buf, w - 4, 4, 'uuin')
            elif (phase >> 2) & 1 == 0:              # by turns: 'rEd', then 'uuin'
                text(buf, 0, w, name)
            else:
                text(buf, 0, w, 'uuin')
        elif pg == _P_RULES:
            n = lead_token(None, 0, 0, view)
            if n + 5 <= w:                           # 't15 End2'
                lead_token(buf, 0, n, view)
                end_word(buf, w - 4, 4, view)
            elif n + 3 <= w:                         # 't15 E2'
                lead_token(buf, 0, n, view)
                end_word(buf, w - 2, 2, view)
            elif (phase >> 2) & 1 == 0:
                lead_token(buf, 0, w, view)               # 't 15', then
            else:
                end_word(buf, 0, w, view)           # 'End2'
        else:
            key = COUNT_KEYS[pg - _P_GAMES]
            letter = 'GLC'[pg - _P_GAMES]
            counted(buf, 0, hw, letter, side_num(view, key, 'red'))
            counted(buf, hw, w - hw, letter, side_num(view, key, 'blue'))

    def _shove(self, view, blink_on):
        # The cursor bed between the sides' marks in it; the turn side's count blinks (its
        # marker, a whole digit's size).
        buf = self.buf
        w = self.width
        cur = view.get('cursor')
        turn = view.get('turn')
        clear(buf, 0, w)
        if isinstance(cur, int):
            if turn != 'red' or blink_on:
                number(buf, 0, 1, vocab.bed_marks(view, 'red'))
            if turn != 'blue' or blink_on:
                number(buf, w - 1, 1, vocab.bed_marks(view, 'blue'))
            p = (w - 2) // 2
            buf[p] = FONT[ord('b') - 32]
            number(buf, p + 1, 1, cur)
        else:
            text(buf, (w - 3) // 2, 3, 'End')
            if blink_on:
                if turn == 'red':
                    buf[0] = BAR if self.cell else _DP
                elif turn == 'blue':
                    buf[w - 1] = BAR if self.cell else _DP
