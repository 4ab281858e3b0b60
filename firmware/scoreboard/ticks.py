"""Tick arithmetic on a 2**29 period, the one clock every part of the firmware compares.

Device clocks wrap at different periods (`time.ticks_ms()` at 2**30 on rp2/esp32, at 2**62 on
the unix port). Masking every reading to 2**29 gives one period everywhere, and because 2**29
divides both, differences of masked readings are still right across the device's own wrap. With
values below 2**29 no step here leaves the 31-bit small-int range of a 32-bit MCU, so nothing
allocates (the idea of adafruit_ticks). Compare times only with `diff`, never with `<`.
"""

from .compat import const


PERIOD = const(0x20000000)  # 2**29
MASK = const(0x1FFFFFFF)
_HALF = const(0x10000000)


def mask(raw):
    """A raw device reading (ticks_ms(), any period that 2**29 divides) on this clock."""
    return raw & MASK


def add(t, d):
    """The tick `d` ms after `t` (d may be negative; |d| < PERIOD // 2)."""
    return (t + d) & MASK


def diff(a, b):
    """a - b in ms, signed, in [-PERIOD//2, PERIOD//2): MicroPython ticks_diff for this period.

    Both arguments are masked first, so every intermediate stays below 2**30 in magnitude.
    """
    return (((a & MASK) - (b & MASK) + _HALF) & MASK) - _HALF


def reader():
    """A function that reads the device's ms clock on this period: time.ticks_ms masked, or
    time.monotonic where the port has none (CPython). Only the parts that own time call it
    (the host, the network's timeouts); everything else is given `now`."""
    import time
    if hasattr(time, 'ticks_ms'):
        ms = time.ticks_ms

        def clock():
            return ms() & MASK
    else:
        mono = time.monotonic

        def clock():
            return int(mono() * 1000) & MASK
    return clock
