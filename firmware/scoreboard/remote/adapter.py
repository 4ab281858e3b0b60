"""Decoded remote codes as a key bitmap, so remote keys go through the buttons' input path.

`bits(now_ms)` drains the receiver's edge ring through its decoder and returns the keys the
remote holds down, in the bit positions of `ui/keys.py`; the app ORs it into the button scan
before debounce and gestures, so tap, long, hold, auto-repeat and the chord work exactly as on
the board's buttons. A key is down from the first code until `release_ms` after the last code
or repeat that keeps it held (NEC repeat codes, EV1527's repeated frames). A fresh NEC frame is
a fresh press even for the key already down: the key reads up for one call (and GAP_MS), so two
quick taps are two taps. An EV1527 code with several data bits set (two fob keys at once) is the
keys of each data bit together, when the board binds each of them: the RED+BLUE chord.

`learn()` arms learning: the next fresh press is not a key but `learned` (the code), and it
stays mute until released. `last_code` and `presses` tell the menu's `test` item each code
received, bound or not. Nothing here allocates per call (ints, a dict lookup, one bound method
made in the constructor).
"""

from ..ui import keys
from ..ticks import add, diff

from ..compat import const


_GAP_MS = const(25)
_REPEAT = const(-1)  # nec.REPEAT, named here so that a board with RF alone loads no NEC code


class RemoteKeys:
    def __init__(self, ring, decoder, codes=None, release_ms=None):
        """ring: an EdgeRing; decoder: a decoder class (NEC, EV1527) built here with our sink;
        codes: {code: button name}; release_ms: the decoder's RELEASE_MS unless given."""
        self._ring = ring
        self.kind = None  # 'ir' or 'rf', set by remote.board
        self.pin = None
        self.decoder = decoder(self._on_code)
        self.release_ms = decoder.RELEASE_MS if release_ms is None else release_ms
        self._split = decoder.DATA_BITS  # low 4 bits: one per fob key, they may combine
        self._same_press = decoder.REPEATS_FRAMES  # a repeated frame is the same press
        self._map = {}
        self._names = {}
        if codes:
            for code in codes:
                self.bind(code, codes[code])
        self._now = 0
        self._code = -1  # the code held down, -1: none
        self._bits = 0
        self._until = 0  # release when this tick is reached
        self._gap = False  # a fresh press of the key already down: read up once first
        self._gap_until = 0
        self._mute = False  # the held press was learned: it is no key
        self._learning = False
        self.learned = None
        self.last_code = None
        self.presses = 0  # fresh presses seen, bound or not

    # --- the codes
    @property
    def codes(self):
        """{code: button name}, the board file's form, to save after learning."""
        return dict(self._names)

    def bind(self, code, name):
        """Map `code` to a button ('RED', 'BLUE', 'OK', ...); a name of None unbinds it. The
        code may be a string, as a JSON object's keys are ('0x10EF' or '4335')."""
        if isinstance(code, str):
            code = int(code, 0) if code[:2] in ('0x', '0X') else int(code)
        if name is None:
            self._map.pop(code, None)
            self._names.pop(code, None)
            return
        self._map[code] = keys.BIT(keys.index(name))
        self._names[code] = name.upper().replace('-', '_')

    def _lookup(self, code):
        b = self._map.get(code, 0)
        if b or not self._split or not code & 0xF:
            return b
        # Several data bits: the key of each, all bound, or nothing.
        base = code & ~0xF
        m = 1
        while m < 16:
            if code & m:
                k = self._map.get(base | m, 0)
                if not k:
                    return 0
                b |= k
            m <<= 1
        return b

    # --- learning
    def learn(self):
        """The next fresh press is learned, not acted on."""
        self._learning = True
        self.learned = None

    def cancel(self):
        self._learning = False

    @property
    def learning(self):
        return self._learning

    # --- the loop
    def bits(self, now):
        """The remote's keys down at `now` (ms tick); drains and decodes the waiting edges."""
        self._now = now
        ring = self._ring
        if ring.head != ring.tail or ring.lost:   # the idle pass: nothing to drain
            ring.drain(self.decoder)
        if self._code < 0 and not self._gap:
            return 0
        if self._code >= 0 and diff(now, self._until) >= 0:
            self._code = -1
            self._bits = 0
            self._mute = False
        if self._gap:
            if diff(now, self._gap_until) >= 0:
                self._gap = False
            return 0
        if self._mute:
            return 0
        return self._bits

    def _on_code(self, code, t):
        now = self._now
        if code == _REPEAT:
            if self._code >= 0:
                self._until = add(now, self.release_ms)
            return
        if self._code == code and self._same_press:
            self._until = add(now, self.release_ms)
            return
        if self._code >= 0 and not self._mute and self._bits:
            self._gap = True  # let the key read up before it goes down again
            self._gap_until = add(now, _GAP_MS)
        self._code = code
        self._until = add(now, self.release_ms)
        self.last_code = code
        self.presses += 1
        self._mute = False
        if self._learning:
            self._learning = False
            self.learned = code
            self._mute = True
            self._bits = 0
            return
        self._bits = self._lookup(code)

