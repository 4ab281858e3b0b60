# tools/bench_app.py: the firmware's code as a board loads it, for the heap breakdowns: the app,
# the store and the knock-off game, then load_board().
import scoreboard.app  # noqa: F401
import scoreboard.store  # noqa: F401
import scoreboard.core.knockoff  # noqa: F401
import virtual_board


def load_board(name):
    # the board file, its display drivers and layouts (built once, as the app's boot builds
    # them), and the chip models its wiring names (the virtual board)
    b = __import__(name)
    b.displays()
    virtual_board.VirtualBoard(b)
