# The board's displays on the virtual board (tools/vboard.py), under the MicroPython unix port.
#
# A real board's display chips are wired before power-on. So, at every boot, before boot.py and
# main.py, the agent (repl_agent.py) calls attach(): it reads /board.py from the flash and
# attaches the chips its wiring() describes (virtual_board.py: the same virtual board the
# simulator uses). When the firmware then drives its displays, the chips decode what really
# reached them, and anyone can read them back:
#
#   mpremote connect /dev/pts/N resume exec "import vboard_chips; print(vboard_chips.picture())"
#
# (`resume` keeps mpremote from soft-resetting the board, which would stop the firmware.)
board = None    # the VirtualBoard of /board.py, once attached
error = None    # why attaching failed (a broken or foreign board.py), else None


def attach():
    """Attach the chips of /board.py; returns how many. Never raises for a bad board file."""
    global board, error
    board = None
    error = None
    try:
        import board as b
    except ImportError:
        return 0          # nothing deployed yet
    except Exception as e:
        error = 'board.py: %r' % (e,)
        return 0
    from virtual_board import VirtualBoard
    try:
        board = VirtualBoard(b)
    except Exception as e:
        error = 'board.wiring(): %r' % (e,)
        return 0
    if board.error:
        error = board.error
    return len(board.chips())


def groups():
    """One list of chip views per display (empty before attach)."""
    return board.groups if board is not None else []


def picture(colour=False):
    """The board's displays as they look now, one block per display (as the simulator draws)."""
    if error:
        return 'no virtual display: ' + error
    if board is None or not board.groups:
        return 'no virtual display (no board.py on the flash?)'
    return '\n'.join(board.picture(colour))
