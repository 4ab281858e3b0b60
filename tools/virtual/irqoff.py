# Interrupts turned off on the virtual board, on the receivers' microsecond clock (host only).
#
# On an RP2040, `neopixel.write` (machine.bitstream) keeps interrupts off for the whole strip,
# about 30 us a LED. A pin's edge in that time sets its IRQ pending; the handler runs once when
# interrupts come back on, reading the tick and the level of that moment: the first edge comes
# late, the ones after it are lost. The stand-in neopixel calls `off(us)`; the virtual
# receiver (virtual/receiver.py) holds back every edge that falls in a window and delivers the
# line's level at the window's end, through the IRQ, once.
#
#   irqoff.clock        the Clock the receivers read (the last Receiver built sets it);
#                       None: no receiver, nothing recorded
#   irqoff.n            windows not yet past
#   irqoff.total_us     interrupt-off time so far; irqoff.count: how many windows
#   irqoff.late, irqoff.lost   edges delivered late (one a window) and edges swallowed
US_PER_LED = 30      # 24 bits at 800 kHz

clock = None
SLOTS = 64
_start = [0] * SLOTS  # the windows not yet past, oldest first, in a ring: recording one
_end = [0] * SLOTS    # allocates nothing (a write may run with the heap locked twice)
_first = 0
n = 0                 # windows held
total_us = 0
count = 0
late = 0
lost = 0


def reset():
    global clock, total_us, count, late, lost
    clock = None
    _forget()
    total_us = count = late = lost = 0


def _forget():
    global _first, n
    _first = 0
    n = 0


def off(us):
    """Interrupts off from the clock's now for `us` microseconds."""
    global total_us, count, n
    if clock is None:
        return
    t = clock.us
    last = (_first + n - 1) % SLOTS
    if n and _end[last] >= t:        # back to back: one longer window
        if t + us > _end[last]:
            _end[last] = t + us
    else:
        if n == SLOTS:               # (a harness that never plays the receiver)
            past(_end[_first])
        i = (_first + n) % SLOTS
        _start[i] = t
        _end[i] = t + us
        n += 1
    total_us += us
    count += 1


def window_end(t):
    """The end of the interrupt-off window holding tick `t` (us, unmasked), or None."""
    for k in range(n):
        i = (_first + k) % SLOTS
        if _start[i] <= t < _end[i]:
            return _end[i]
        if _start[i] > t:
            break
    return None


def past(t):
    """Forget the windows that ended by `t`."""
    global _first, n
    while n and _end[_first] <= t:
        _first = (_first + 1) % SLOTS
        n -= 1


def _reset_part():          # a power cut: no write in progress (the receivers' clock stays)
    _forget()


try:
    import machine
    machine.resets.append(_reset_part)
except (ImportError, AttributeError):
    pass
