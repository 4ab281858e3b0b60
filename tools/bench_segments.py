# Bench of the seven-segment drivers and layouts, for MicroPython (unix port or a board):
#
#   .venv/bin/micropython tools/bench_segments.py        # on the host, virtual pins and bus
#   mpremote run tools/bench_segments.py                 # on a Pico/ESP32 with firmware/ copied
#
# For each driver + layout it prints: the RAM the drivers and layout took when built, bytes
# allocated while refreshing (disp.show(view, phase) over every screen and 64 phases: must be
# 0), microseconds per refresh (drawing + a push when the picture changed) and per forced push
# (driver.show(): the whole bus transaction). On a board the pins below must be free; on the
# host the pins are virtual wires with nothing listening, so the times are the firmware's own
# work (the TM1637 bit delay does not sleep on the host).
import gc
import sys
import time

HOST = sys.platform == 'linux'
if HOST:
    _here = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
    for _p in (_here + '/../firmware', _here + '/virtual'):
        sys.path.insert(0, _p)

from machine import Pin, SPI  # noqa: E402
from scoreboard.drivers.tm1637 import TM1637, ORDER_6  # noqa: E402
from scoreboard.drivers.max7219_digits import MAX7219Digits  # noqa: E402
from scoreboard.drivers.sr595 import SR595  # noqa: E402
from scoreboard.drivers.ws2812_digits import WS2812Digits  # noqa: E402
from scoreboard.render.segments import SidesLayout, SingleLayout  # noqa: E402

VIEWS = (
    {'screen': 'play', 'game': 'knockoff', 'red': 12, 'blue': 7,
     'pending': {'red': 2, 'blue': 0}, 'hammer': 'blue', 'turn': None, 'frame': 5, 'end': 1,
     'target': 15, 'winner': None, 'games': {'red': 1, 'blue': 0},
     'legs': {'red': 0, 'blue': 0}, 'message': None},
    {'screen': 'play', 'game': 'horsecollar', 'red': 104, 'blue': 87,
     'pending': {'red': 26, 'blue': 0}, 'turn': 'red', 'frame': 7, 'end': 1, 'target': 51},
    {'screen': 'play', 'game': 'shovehapenny', 'red': 7, 'blue': 6, 'turn': 'blue',
     'beds': {'red': [3, 2, 1, 0, 0, 1, 0, 0, 0], 'blue': [0, 1, 3, 1, 0, 0, 0, 0, 1]},
     'cursor': 3},
    {'screen': 'over', 'game': 'knockoff', 'red': 15, 'blue': 9, 'winner': 'red'},
    {'screen': 'setup', 'game': 'knockoff', 'red': 0, 'blue': 0, 'hammer': 'blue'},
    {'screen': 'menu', 'menu': {'item': 'target', 'value': 21}},
    {'screen': 'play', 'game': 'knockoff', 'red': 3, 'blue': 0, 'message': 'no entry here'},
    {'screen': 'sleep'},
)


class NullNP:
    """Host only: a NeoPixel that sends nowhere (the virtual one builds a bus key per write)."""
    ORDER = (1, 0, 2, 3)

    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.bpp = 3

    def write(self):
        pass


def build(kind):
    if kind == 'tm1637 sides 4+4':
        return SidesLayout(TM1637(Pin(2), Pin(3)), TM1637(Pin(4), Pin(5)), marker=1)
    if kind == 'tm1637 sides 6+6':
        return SidesLayout(TM1637(Pin(2), Pin(3), digits=6, order=ORDER_6),
                           TM1637(Pin(4), Pin(5), digits=6, order=ORDER_6))
    if kind == 'tm1637 single 4':
        return SingleLayout(TM1637(Pin(2), Pin(3)))
    if kind == 'max7219 single 8':
        spi = SPI(0, baudrate=5000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
        return SingleLayout(MAX7219Digits(spi, Pin(17, Pin.OUT, value=1)))
    if kind == '595 spi single 6':
        spi = SPI(0, baudrate=1000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
        return SingleLayout(SR595(latch=Pin(17), spi=spi, oe=Pin(20), digits=6))
    if kind == '595 bitbang single 4':
        return SingleLayout(SR595(Pin(10), Pin(11), Pin(12), digits=4))
    # ws2812: 6 digits, 3 LEDs a segment and a dp LED: 132 LEDs
    np = NullNP(6 * 22) if HOST else None
    return SingleLayout(WS2812Digits(Pin(13, Pin.OUT), digits=6, leds=3, dp_leds=1, np=np))


def bench(kind):
    gc.collect()
    before = gc.mem_alloc()
    disp = build(kind)
    gc.collect()
    ram = gc.mem_alloc() - before
    for v in VIEWS:                                # warm up every path
        for phase in range(32):
            disp.show(v, phase)
    alloc = 0
    shows = 0
    t_us = 0
    for v in VIEWS:
        gc.collect()
        a = gc.mem_alloc()
        t = time.ticks_us()
        for phase in range(32, 96):
            disp.show(v, phase)
        t_us += time.ticks_diff(time.ticks_us(), t)
        alloc += gc.mem_alloc() - a
        shows += 64
    t = time.ticks_us()
    for _ in range(20):
        for d in disp.drivers:
            d.show()
    push_us = time.ticks_diff(time.ticks_us(), t) // 20
    print('%-22s built %5d B  allocated %d B in %d refreshes  refresh %5d us  push %6d us'
          % (kind, ram, alloc, shows, t_us // shows, push_us))
    disp.deinit()
    return alloc


def main():
    print('bench_segments on %s (%s)' % (sys.platform, 'virtual pins' if HOST else 'hardware'))
    total = 0
    for kind in ('tm1637 sides 4+4', 'tm1637 sides 6+6', 'tm1637 single 4',
                 'max7219 single 8', '595 spi single 6', '595 bitbang single 4',
                 'ws2812 single 6'):
        total += bench(kind)
    print('total bytes allocated while refreshing: %d' % total)


main()
