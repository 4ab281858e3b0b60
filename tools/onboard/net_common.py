# tools/bench_net.py's harness on the unix port: a flash folder per run, the virtual board's
# chips, what they show, and a microsecond clock. Importing it loads what every run loads
# before its first reading (asyncio, the stand-in machine and network, the script engine), so
# that no figure counts them.
import gc
import json  # noqa: F401
import os
import time

import asyncio  # noqa: F401
import machine
import network  # noqa: F401
import sim_engine  # noqa: F401


def flash(tag):
    d = '/tmp/sb-bench-net/' + tag
    try:
        os.mkdir(d)
    except OSError:
        for n in os.listdir(d):
            os.remove(d + '/' + n)
    return d


def attach(board):
    machine.reset_all()
    from virtual_board import VirtualBoard
    chips = VirtualBoard(board).chips()
    gc.collect()
    return chips


def picture(chips):
    return [c.digits() if c.kind == 'segments' else None for c in chips]


def us():
    return time.ticks_us()


def since(t):
    return time.ticks_diff(time.ticks_us(), t)
