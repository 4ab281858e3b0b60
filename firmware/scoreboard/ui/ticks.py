# The tick arithmetic lives in scoreboard/ticks.py (one clock for every part); this name is kept
# for the tools and tests that import it from here. Firmware modules import scoreboard.ticks.
from ..ticks import MASK, PERIOD, add, diff, mask  # noqa: F401
