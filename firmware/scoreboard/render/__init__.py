# Layouts draw text by indexing str objects. MicroPython turns a one-character string into an
# interned qstr, and the first time a character is seen that may allocate room in the qstr pool.
# The displays are refreshed with the heap locked, so every printable character is interned
# here, once, when the layouts are imported.
for _c in range(32, 127):
    chr(_c)


# Every INFO_PERIOD phases (250 ms each: 10 s), when nothing is pending, the last INFO_SHOW
# phases (2 s) of play show the info view instead of the totals: the target (or the frame in
# games with no target line) and the end that shoots (DESIGN: doubles show which end shoots).
INFO_PERIOD = 40
INFO_SHOW = 8


def info_phase(phase):
    return phase % INFO_PERIOD >= INFO_PERIOD - INFO_SHOW
