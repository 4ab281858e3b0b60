# The watchdog and USB (DESIGN section 12). On an RP2040 a started watchdog cannot be stopped,
# and a soft reset (mpremote makes one before its first command) does not stop it either: the
# board would reset in the middle of a copy, a `mip install` or a REPL left open. So the
# firmware hands the watchdog to a feeder when a person takes the board over USB:
#   - app.main(), when a KeyboardInterrupt (mpremote's Ctrl-C) ends the loop: start(wdt);
#   - boot.py, after a soft reset that found the watchdog running (an RP2040's register
#     says; on an ESP32 nothing does, and the feeder starts at every boot): after_soft_reset().
# The feeder is a machine.Timer, fed for FOR_MS (each soft reset, so each mpremote command,
# starts it again): bounded, so a board left at the REPL resets and plays again by itself. A
# loop that hangs with nobody connected gets no feeder and is reset. The app takes the
# watchdog back (stop()) when it starts.
# Kept as source at the top of the flash, beside main.py and boot.py: it must work whichever
# app folder runs (or none).
FEED_MS = 1000
FOR_MS = 10 * 60 * 1000     # 10 minutes from the Ctrl-C or the last soft reset
RP2040_WATCHDOG_CTRL = 0x40058000
RP2350_WATCHDOG_CTRL = 0x400d8000
ENABLE = 1 << 30

_timer = None
_left = 0


def start(wdt, for_ms=FOR_MS):
    """Feed `wdt` every FEED_MS for for_ms, from a timer (the REPL or mpremote runs)."""
    global _timer, _left
    stop()
    from machine import Timer
    _left = for_ms // FEED_MS
    wdt.feed()

    def feed(t):
        global _left
        if _left <= 0:
            t.deinit()      # time is up: the watchdog resets the board, the firmware restarts
            return
        _left -= 1
        wdt.feed()

    _timer = Timer(-1, mode=Timer.PERIODIC, period=FEED_MS, callback=feed)


def stop():
    """The app feeds the watchdog itself from now on."""
    global _timer
    if _timer is not None:
        _timer.deinit()
        _timer = None


def feeding():
    return _timer is not None and _left > 0


def running(board):
    """True when the watchdog runs (read from the chip's register where the board says which
    chip it is; None where that cannot be known)."""
    if getattr(board, 'MCU', None) != 'rp2':
        return None
    import sys
    import machine
    ctrl = RP2040_WATCHDOG_CTRL
    if 'RP2350' in getattr(sys.implementation, '_machine', ''):
        ctrl = RP2350_WATCHDOG_CTRL
    return bool(machine.mem32[ctrl] & ENABLE)


def after_soft_reset():
    """boot.py: a watchdog that still runs after a soft reset gets the feeder.

    On an RP2040 the register says whether it runs. On an ESP32 nothing the firmware can read
    says so (the port keeps the task watchdog's user subscribed across a soft reset, and no
    call tells), and boot.py runs at every start as well as after a soft reset: so there the
    feeder is started whenever the board file has a watchdog. Where the watchdog did not run,
    that starts it a little before the app would have (the app takes it over at once), or,
    at a REPL reached before the app ever ran, gives the session the same bounded minutes as
    a running one; where it ran, the session is never cut. A loop that hangs is still never
    fed: the app stops the feeder when it starts."""
    try:
        import board
    except ImportError:
        return
    ms = getattr(board, 'WATCHDOG_MS', 0)
    if not ms:
        return
    on = running(board)
    if on or (on is None and getattr(board, 'MCU', None) == 'esp32'):
        from machine import WDT
        start(WDT(timeout=ms))
