# The first boot of a board installed with `mpremote mip install`: there is no /board.py yet,
# only the board files in /boards. main.py calls ensure() before it loads the app.
#
#   /board.py there: nothing happens.
#   Otherwise every board file made for this chip (its MCU line: 'rp2' on a Pico, 'esp32' on an
#   ESP32; all of them on a chip that is neither, such as the virtual board) is tried in turn:
#   its displays light every segment and pixel (lamp(), where the display has it), then show
#   'OK', for WINDOW_MS while its OK button is watched. Press OK while your display is lit:
#   that board file is copied to /board.py and the board restarts as that board. The names
#   are printed on the USB console as they come.
#   From a computer, choose(name) does the same at once:
#     mpremote exec "from scoreboard import boardpick; boardpick.choose('pico_tm1637')"
#
# Trying a board drives only its display pins. On every chip the board files here put their
# displays and their buttons on separate pins (a test checks it), so a candidate never drives a
# pin that another board wires to a button.
import os

from .files import join

BOARDS = '/boards'
BOARD = '/board.py'
WINDOW_MS = 3000
POLL_MS = 20

showing = None      # the board file lit now (for the console and the tests)

# A view the layouts draw: setup of a new game with the message 'OK'.
VIEW = {'screen': 'setup', 'game': 'knockoff', 'red': 0, 'blue': 0,
        'pending': {'red': 0, 'blue': 0}, 'hammer': 'blue', 'turn': None, 'frame': 1, 'end': 1,
        'target': 15, 'winner': None, 'games': {'red': 0, 'blue': 0},
        'legs': {'red': 0, 'blue': 0}, 'message': 'OK', 'names': {'red': None, 'blue': None}}


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _mcu(path):
    """The MCU = '...' value of a board file, read from its text (no import)."""
    with open(path) as f:
        for line in f:
            if line.startswith('MCU'):
                for q in ('"', "'"):
                    parts = line.split(q)
                    if len(parts) >= 3:
                        return parts[1]
    return None


def candidates(folder=BOARDS, platform=None):
    """Names of the board files in folder made for this chip, sorted."""
    if platform is None:
        import sys
        platform = sys.platform
    try:
        names = sorted([n[:-3] for n in os.listdir(folder)
                        if n.endswith('.py') and not n.startswith('_')])
    except OSError:
        return []
    mine = [n for n in names if _mcu(join(folder, n + '.py')) == platform]
    return mine if mine else names


def choose(name, folder=BOARDS, target=BOARD):
    """Copy folder/name.py to /board.py (what `make deploy` puts there)."""
    src = join(folder, name + '.py')
    if not _exists(src):
        raise ValueError('no board file %s; there are: %s' % (src, ' '.join(candidates(folder))))
    from .files import copy, move
    tmp = target + '.new'
    copy(src, tmp)
    move(tmp, target)       # a cut leaves the old board.py or the new one, never half of one
    return target


def _forget():
    import sys
    import scoreboard
    sys.modules.pop(__name__, None)
    try:
        delattr(scoreboard, 'boardpick')
    except AttributeError:
        pass


def _load(path):
    ns = {}
    with open(path) as f:
        exec(f.read(), ns)
    return ns


def _try(name, folder, clock, sleep_ms, window_ms):
    """Light board `name`'s displays for window_ms; True if its OK button was pressed."""
    global showing
    import gc
    from machine import Pin
    from .ticks import diff
    ns = _load(join(folder, name + '.py'))
    ok = Pin(ns['BUTTONS']['OK'], Pin.IN, Pin.PULL_UP)
    displays = []
    try:
        displays = ns['displays']()
    except Exception as e:  # a board whose parts are not there may fail to build: skip it
        print('boardpick: %s: %r' % (name, e))
    showing = name
    print('boardpick: %s lit: press OK if this is your display' % name)
    for d in displays:
        lamp = getattr(d, 'lamp', None)
        if lamp is not None:
            lamp()
        else:
            d.show(VIEW, 0)
    pressed = False
    t0 = clock()
    half = window_ms // 2
    shown = False
    while True:
        age = diff(clock(), t0)     # the clock read once a pass
        if age >= window_ms:
            break
        if not shown and age >= half:
            for d in displays:      # the second half: the word, in case the lamp is unclear
                d.show(VIEW, 0)
            shown = True
        if not ok.value():
            pressed = True
            break
        sleep_ms(POLL_MS)
    for d in displays:
        try:
            d.power(False)
        except Exception:
            pass
    showing = None
    del displays, ns
    gc.collect()
    return pressed


def pick(folder=BOARDS, target=BOARD, clock=None, sleep_ms=None, window_ms=WINDOW_MS,
         rounds=None, platform=None):
    """Offer each candidate in turn until OK is pressed on one; returns its name (None when
    there is none, or after `rounds` rounds)."""
    import time
    from .ticks import mask
    if clock is None:
        def clock():
            return mask(time.ticks_ms())
    if sleep_ms is None:
        sleep_ms = time.sleep_ms
    names = candidates(folder, platform)
    if not names:
        print('boardpick: no board files in %s: copy one to %s' % (folder, target))
        return None
    n = 0
    while rounds is None or n < rounds:
        for name in names:
            if _try(name, folder, clock, sleep_ms, window_ms):
                choose(name, folder, target)
                print('boardpick: this is %s, saved as %s' % (name, target))
                return name
        n += 1
    return None


def ensure(folder=BOARDS, target=BOARD):
    """At boot: nothing when /board.py exists, else the choice above, then a restart. Either
    way this module then lets go of itself, so a board that runs keeps no RAM for it."""
    if _exists(target):
        _forget()
        return
    if pick(folder, target) is not None:
        import machine
        machine.reset()
