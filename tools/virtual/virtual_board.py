# The one virtual board: the chips of a board file as its wiring() describes them, built once
# per boot before the firmware starts (a real board's chips are soldered on before power-on),
# for the simulator (tools/sim_engine.py), the pty board (vboard_chips.py) and the tests.
#
# A board file describes its wiring as data, apart from the drivers it builds in displays():
#
#   def wiring():
#       return [[{'chip': 'tm1637', 'clk': 2, 'dio': 3, 'digits': 4, 'dp': (), 'colon': 1}, ...]]
#
# one list per display (in the order displays() returns them), one dict per chip module left to
# right; WIRED names the chip models, each chip module's from_wiring() its keys. The
# chip models take nothing from the drivers: a driver that sends a digit to the wrong grid or
# lights a panel in the wrong zig-zag shows the wrong picture. Runs under MicroPython and
# CPython; drawing pictures needs only draw_segments/draw_pixels (PNG through Pillow elsewhere).
# The chip a wiring entry names -> the chip model's module (imported only when a board has one).
WIRED = {
    'tm1637': 'tm1637',
    'max7219-digits': 'max7219',
    'max7219-matrix': 'max7219_matrix',
    '595': 'sr595',
    'ws2812-digits': 'ws2812_digits',
    'ws2812-panel': 'ws2812_panel',
}


def from_wiring(w):
    """The chip views of one entry of a board file's wiring() (a dict naming its 'chip')."""
    name = WIRED.get(w.get('chip'))
    if name is None:
        raise ValueError('no virtual chip %r' % (w.get('chip'),))
    return __import__(name, None, None, ['from_wiring']).from_wiring(w)


class VirtualBoard:
    def __init__(self, board):
        """Attach the chips of board module `board`; machine.reset_all() first for a cold
        boot. A board file with no wiring() gets no chips (error says so)."""
        self.groups = []        # one list of chip views per display
        self.error = None
        wiring = getattr(board, 'wiring', None)
        if wiring is None:
            self.error = 'the board file has no wiring()'
            return
        for display in wiring():
            group = []
            for w in display:
                group += from_wiring(w)
            self.groups.append(group)

    def chips(self):
        out = []
        for g in self.groups:
            out += g
        return out

    def deaf(self):
        """The chips that have heard nothing on their wires: where the wiring() names pins
        the drivers do not use (call it after the firmware first drew its displays)."""
        return [c for c in self.chips() if not heard(c)]

    def picture(self, colour=False):
        """The displays as their chips show them: text lines (draw_board.py)."""
        from draw_board import picture
        return picture(self.groups, colour)


def heard(chip):
    """Whether anything reached the chip: frames, latches or LED writes it counted."""
    for name in ('frames', 'writes', 'latches'):
        n = getattr(chip, name, None)
        if n is not None:
            return n > 0
    chain = getattr(chip, 'chain', None)        # a module on a MAX7219 chain
    return chain is None or chain.frames > 0
