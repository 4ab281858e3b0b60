# Bench of the LED-matrix drivers and layouts, for MicroPython (unix port or a board):
#
#   .venv/bin/micropython tools/bench_matrix.py          # on the host, virtual pins and bus
#   mpremote run tools/bench_matrix.py                   # on a Pico/ESP32 with firmware/ copied
#
# For each driver + layout it prints: the RAM the driver and layout took when built (buffers,
# index tables, command buffer, palette; measured with gc.mem_alloc), bytes allocated per
# refresh (disp.show(view, phase) over every screen and 88 phases; must be 0), microseconds per
# refresh (drawing + a push when the picture changed) and per forced push (driver.show()).
import gc
import sys
import time

HOST = sys.platform == 'linux'
if HOST:
    _here = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
    for _p in (_here + '/../firmware', _here + '/virtual'):
        sys.path.insert(0, _p)

import machine  # noqa: E402
from scoreboard.drivers.max7219_matrix import MAX7219Matrix  # noqa: E402
from scoreboard.drivers.ws2812_panel import WS2812Panel  # noqa: E402
from scoreboard.render.matrix import MatrixLayout  # noqa: E402

VIEWS = (
    {'screen': 'play', 'game': 'knockoff', 'red': 12, 'blue': 7,
     'pending': {'red': 2, 'blue': 0}, 'hammer': 'blue', 'turn': None, 'frame': 5, 'end': 1,
     'target': 15, 'winner': None, 'games': {'red': 1, 'blue': 0},
     'legs': {'red': 0, 'blue': 0}, 'message': None},
    {'screen': 'play', 'game': 'horsecollar', 'red': 104, 'blue': 87,
     'pending': {'red': 26, 'blue': 0}, 'turn': 'red', 'frame': 7, 'end': 1, 'target': 51,
     'games': {'red': 2, 'blue': 1}},
    {'screen': 'play', 'game': 'shovehapenny', 'red': 7, 'blue': 6, 'turn': 'blue',
     'beds': {'red': [3, 2, 1, 0, 0, 1, 0, 0, 0], 'blue': [0, 1, 3, 1, 0, 0, 0, 0, 1]},
     'cursor': 3, 'games': {'red': 0, 'blue': 1}},
    {'screen': 'over', 'game': 'knockoff', 'red': 15, 'blue': 9, 'winner': 'red',
     'games': {'red': 2, 'blue': 1}},
    {'screen': 'setup', 'game': 'knockoff', 'red': 0, 'blue': 0, 'hammer': 'blue'},
    {'screen': 'menu', 'menu': {'item': 'target', 'value': 21}},
    {'screen': 'play', 'game': 'knockoff', 'red': 3, 'blue': 0, 'message': 'no entry here'},
)


class NullNP:
    """Host only: a NeoPixel that sends nowhere (the virtual one builds a bus key per write)."""

    def __init__(self, n):
        self.buf = bytearray(3 * n)

    def write(self):
        pass


def build(kind):
    if kind == 'max7219 32x8':
        drv = MAX7219Matrix(machine.SPI(0), machine.Pin(17, machine.Pin.OUT, value=1), 32, 8)
        return MatrixLayout(drv)
    if kind == 'max7219 64x16':
        drv = MAX7219Matrix(machine.SPI(0), machine.Pin(17, machine.Pin.OUT, value=1), 64, 16,
                            serpentine=True)
        return MatrixLayout(drv)
    np = NullNP(256) if HOST else None
    drv = WS2812Panel(machine.Pin(13, machine.Pin.OUT), 32, 8, np=np)
    return MatrixLayout(drv, colour=True)


def bench(kind):
    gc.collect()
    before = gc.mem_alloc()
    disp = build(kind)
    gc.collect()
    ram = gc.mem_alloc() - before
    drv = disp.drivers[0]
    buffers = len(drv.buffer) * 2                  # framebuffer + last-push copy
    for v in VIEWS:                                # warm up every path
        for phase in range(44):
            disp.show(v, phase)
    alloc = 0
    shows = 0
    t_us = 0
    for v in VIEWS:
        gc.collect()
        a = gc.mem_alloc()
        t = time.ticks_us()
        for phase in range(44, 132):
            disp.show(v, phase)
        t_us += time.ticks_diff(time.ticks_us(), t)
        alloc += gc.mem_alloc() - a
        shows += 88
    t = time.ticks_us()
    for _ in range(20):
        drv.show()
    push_us = time.ticks_diff(time.ticks_us(), t) // 20
    print('%-14s  built %5d B (frame buffers %4d B)  alloc/refresh %d B  refresh %5d us  '
          'push %5d us' % (kind, ram, buffers, alloc // shows, t_us // shows, push_us))
    disp.deinit()
    return alloc


def main():
    print('bench_matrix on %s (%s)' % (sys.platform, 'virtual pins' if HOST else 'hardware'))
    total = 0
    for kind in ('max7219 32x8', 'max7219 64x16', 'ws2812 32x8'):
        total += bench(kind)
    print('total bytes allocated while refreshing: %d' % total)


main()
