# Bench of every display driver and layout, for MicroPython (unix port or a board):
#
#   .venv/bin/micropython tools/bench_displays.py        # on the host, virtual pins and bus
#   mpremote run tools/bench_displays.py                 # on a Pico/ESP32 with firmware/ copied
#
# For each driver + layout it prints: the RAM the drivers and layout took when built (buffers,
# tables, command buffers; gc.mem_alloc), whether a refresh allocates (every sample screen over
# 96 phases run with the heap locked, as the app runs it: any allocation raises), the garbage
# left per refresh (gc.mem_alloc, must be 0), microseconds per refresh (drawing, and a push when
# the picture changed) and per forced push (driver.show(): the whole bus transaction). On a
# board the pins used below must be free; on the host the pins are virtual wires with nothing
# listening, so the times are the firmware's own work (the TM1637 bit delay does not sleep on
# the host).
import gc
import sys
import time

HOST = sys.platform == 'linux'
if HOST:   # (on a board the firmware is on the flash and machine is the port's own)
    import paths
    paths.add(paths.FIRMWARE, paths.VIRTUAL)

from machine import SPI, Pin  # noqa: E402
from micropython import heap_lock, heap_unlock  # noqa: E402

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
    {'screen': 'sleep'},
)
WARM = 32       # phases drawn first, so every path has run once
PHASES = 96     # phases measured per view


def spi(baudrate):
    return SPI(0, baudrate=baudrate, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))


def build(kind):
    """The display object for a bench name; imports only that driver and layout."""
    if kind.startswith('tm1637'):
        from scoreboard.drivers.tm1637 import ORDER_6, TM1637
        from scoreboard.render.segments import SidesLayout
        from scoreboard.render.single import SingleLayout
        if kind == 'tm1637 sides 4+4':
            return SidesLayout(TM1637(Pin(2), Pin(3)), TM1637(Pin(4), Pin(5)), marker=1)
        if kind == 'tm1637 sides 6+6':
            return SidesLayout(TM1637(Pin(2), Pin(3), digits=6, order=ORDER_6),
                               TM1637(Pin(4), Pin(5), digits=6, order=ORDER_6))
        return SingleLayout(TM1637(Pin(2), Pin(3)))
    if kind == 'max7219 single 8':
        from scoreboard.drivers.max7219_digits import MAX7219Digits
        from scoreboard.render.single import SingleLayout
        return SingleLayout(MAX7219Digits(spi(5000000), Pin(17, Pin.OUT, value=1)))
    if kind.startswith('595'):
        from scoreboard.drivers.sr595 import SR595
        from scoreboard.render.single import SingleLayout
        if kind == '595 spi single 6':
            return SingleLayout(SR595(latch=Pin(17), spi=spi(1000000), oe=Pin(20), digits=6))
        return SingleLayout(SR595(Pin(10), Pin(11), Pin(12), digits=4))
    if kind == 'ws2812 digits 6':
        from scoreboard.drivers.ws2812_digits import WS2812Digits
        from scoreboard.render.single import SingleLayout
        # 6 digits, 3 LEDs a segment and a dp LED: 132 LEDs
        return SingleLayout(WS2812Digits(Pin(13, Pin.OUT), digits=6, leds=3, dp_leds=1))
    from scoreboard.render.matrix import MatrixLayout
    if kind.startswith('max7219'):
        from scoreboard.drivers.max7219_matrix import MAX7219Matrix
        cs = Pin(17, Pin.OUT, value=1)
        if kind == 'max7219 32x8':
            return MatrixLayout(MAX7219Matrix(spi(5000000), cs, 32, 8))
        return MatrixLayout(MAX7219Matrix(spi(5000000), cs, 64, 16, serpentine=True))
    from scoreboard.drivers.ws2812_panel import WS2812Panel
    return MatrixLayout(WS2812Panel(Pin(13, Pin.OUT), 32, 8), colour=True)


KINDS = ('tm1637 sides 4+4', 'tm1637 sides 6+6', 'tm1637 single 4', 'max7219 single 8',
         '595 spi single 6', '595 bitbang single 4', 'ws2812 digits 6',
         'max7219 32x8', 'max7219 64x16', 'ws2812 32x8')


def locked_refreshes(disp):
    """Every view over PHASES phases with the heap locked; True if nothing allocated."""
    heap_lock()
    try:
        for v in VIEWS:
            for phase in range(WARM, WARM + PHASES):
                disp.show(v, phase)
        ok = True
    except MemoryError:
        ok = False
    heap_unlock()
    return ok


def bench(kind):
    build(kind).deinit()            # imports its modules, so `built` counts the objects only
    gc.collect()
    before = gc.mem_alloc()
    disp = build(kind)
    gc.collect()
    ram = gc.mem_alloc() - before
    for v in VIEWS:
        for phase in range(WARM):
            disp.show(v, phase)
    locked_ok = locked_refreshes(disp)
    garbage = 0
    t_us = 0
    for v in VIEWS:
        gc.collect()
        a = gc.mem_alloc()
        t = time.ticks_us()
        for phase in range(WARM, WARM + PHASES):
            disp.show(v, phase)
        t_us += time.ticks_diff(time.ticks_us(), t)
        garbage += gc.mem_alloc() - a
    shows = len(VIEWS) * PHASES
    t = time.ticks_us()
    for _ in range(20):
        for d in disp.drivers:
            d.show()
    push_us = time.ticks_diff(time.ticks_us(), t) // 20
    print('%-20s built %5d B  heap-locked refresh %s  garbage %d B in %d refreshes  '
          'refresh %4d us  push %5d us' % (kind, ram, 'ok' if locked_ok else 'ALLOCATES',
                                             garbage, shows, t_us // shows, push_us))
    disp.deinit()
    return garbage + (0 if locked_ok else 1)


def main():
    print('bench_displays on %s (%s)' % (sys.platform, 'virtual pins' if HOST else 'hardware'))
    bad = 0
    for kind in KINDS:
        bad += bench(kind)
    print('drivers and layouts that allocate while refreshing: %s' % ('none' if not bad else bad))


main()
