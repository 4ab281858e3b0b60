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
# right; chip_map.WIRED names the chip models, each chip module's from_wiring() its keys. The
# chip models take nothing from the drivers: a driver that sends a digit to the wrong grid or
# lights a panel in the wrong zig-zag shows the wrong picture. Runs under MicroPython and
# CPython; drawing pictures needs only draw_segments/draw_pixels (PNG through Pillow elsewhere).
from chip_map import from_wiring


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

    def picture(self, colour=False):
        """The displays as their chips show them: text lines, one block per display (headed
        'end N' where there are several), chips side by side. colour: ANSI colour codes."""
        lines = []
        groups = self.groups
        for i in range(len(groups)):
            if len(groups) > 1:
                lines.append('end %d' % (i + 1))
            blocks = [term(c, colour) for c in groups[i]]
            height = max([len(b) for b in blocks]) if blocks else 0
            for r in range(height):
                row = ''
                for b in blocks:
                    row += (b[r] if r < len(b) else '') + '   '
                lines.append(row.rstrip())
        return lines


def term(chip, colour=False):
    """Text lines of one chip: seven-segment art with exactly the module's segments, or pixel
    rows ('#'/'.' without colour, half blocks in 24-bit colour with it)."""
    if chip.kind == 'pixels':
        if colour:
            import draw_pixels
            return draw_pixels.term(chip)
        return chip.rows()
    import draw_segments
    return draw_segments.term(chip, colour)
