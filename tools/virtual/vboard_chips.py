# The board's displays on the virtual board (tools/vboard.py), under the MicroPython unix port.
#
# A real board's display chips are wired before power-on. So, at every boot, before boot.py and
# main.py, the agent (repl_agent.py) calls attach(): it reads /board.py from the flash, builds
# its displays once to learn where the chips sit (as tools/sim_engine.py does) and attaches the
# virtual chips from tools/virtual to those pins and buses. When the firmware then drives its
# displays, the chips decode what really reached them, and anyone can read them back:
#
#   mpremote connect /dev/pts/N resume exec "import vboard_chips; print(vboard_chips.picture())"
#
# (`resume` keeps mpremote from soft-resetting the board, which would stop the firmware.)
import sys


groups = []     # one list of chip views per display of the board
error = None    # why attaching failed (a broken or foreign board.py), else None


def chips_for(drv):
    from chip_map import chips_for
    return chips_for(drv)


def attach():
    """Attach the chips of /board.py; returns how many. Never raises for a bad board file."""
    global groups, error
    groups = []
    error = None
    try:
        import board
    except ImportError:
        return 0          # nothing deployed yet
    except Exception as e:
        error = 'board.py: %r' % (e,)
        return 0
    try:
        for disp in board.displays():
            group = []
            for drv in getattr(disp, 'drivers', ()):
                group += chips_for(drv)
            groups.append(group)
    except Exception as e:
        error = 'board.displays(): %r' % (e,)
    return sum([len(g) for g in groups])


def term(chip, colour=False):
    """Text lines of one chip: seven-segment art, or '#'/'.' pixel rows."""
    if chip.kind == 'pixels':
        if colour:
            import draw_pixels
            return draw_pixels.term(chip)
        return chip.rows()
    import draw_segments
    return draw_segments.term(chip, colour)


def picture(colour=False):
    """The board's displays as they look now, one block per display (as the simulator draws)."""
    if error:
        return 'no virtual display: ' + error
    if not groups:
        return 'no virtual display (no board.py on the flash?)'
    lines = []
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
    return '\n'.join(lines)


def main_module():
    """The firmware's app module if it was started (by main.py), else None."""
    return sys.modules.get('scoreboard.app')
