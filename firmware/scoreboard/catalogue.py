# The catalogue: the facts that the parts around the firmware's core tell others (the phone's
# page and API, the venue link, the venue service in tools/venue), each read from the one place
# it is declared, never copied: the games and their traits from the core (core.KINDS and each
# kind's TITLE, OPTIONS, ENTRY), the buttons from ui/keys.py, the name rule from names.py;
# the gestures a second input may send and the PIN's form are declared here (ui/actions.py
# maps the same gesture names to the gesture kinds; a test keeps the two alike).
# net/ reads the games only through this module (never the core itself), so a seventh game
# is one module in core/ and a name in core.KINDS: the page offers it, the board sends it,
# the venue keeps it.
from .core import KINDS, drop, traits
from .ui.keys import NAMES as BUTTONS
from .names import MAX as NAME_MAX
from .names import valid as name_ok

__all__ = ('KINDS', 'BUTTONS', 'GESTURES', 'NAME_MAX', 'PIN_DIGITS', 'VIEW_FORMAT', 'name_ok',
           'pin_ok',
           'title', 'turns', 'games')

# What POST /api/press takes as `gesture` (the chord is its own form, RED and BLUE together).
GESTURES = ('tap', 'long', 'hold')
PIN_DIGITS = 4      # the pairing PIN the board shows (DESIGN section 10)
# The format of the view model as GET /api/view sends it (its X-View-Format header; the MQTT
# `state` carries it as `v`): docs/formats.md.
VIEW_FORMAT = '1'


def pin_ok(pin):
    """A pairing PIN as a phone sends it: PIN_DIGITS digits, as a string."""
    return type(pin) is str and len(pin) == PIN_DIGITS and pin.isdigit()


def title(kind):
    """The game's name in words ('Knock-off'), or the kind itself where its module has none.
    RuleError for a kind the core does not know."""
    return _read(kind, _title)


def _title(t):
    return t.TITLE or t.KIND


def turns(kind):
    """True where the sides take turns (the setup's choice is `first`, not `hammer`)."""
    return _read(kind, _turns)


def _turns(t):
    return bool(t.TURNS)


def games():
    """Each game as the page needs it: {kind: {'title', 'entry', 'options'}}, the options as
    [name, default, choices] (a list of the choices, or None for a yes/no option) or
    [name, default, None, [lo, hi]] for a number; entry as the core's ENTRY ('frame', 'turn',
    'shot', 'bed')."""
    out = {}
    for kind in KINDS:
        out[kind] = _read(kind, _page)
    return out


def _page(t):
    opts = []
    for name, default, allowed in t.OPTIONS:
        if isinstance(allowed, tuple) and (False not in allowed or True not in allowed):
            opts.append([name, default, list(allowed)])
        elif isinstance(allowed, list):
            opts.append([name, default, None, allowed])
        else:
            opts.append([name, default, None])
    return {'title': _title(t), 'options': opts, 'entry': t.ENTRY}


def _read(kind, fn):
    # A kind's module read for the catalogue only is let go of again (about 1 KB each): a
    # board keeps the code of the games it plays, not of every game a page lists.
    import sys
    name = 'scoreboard.core.' + kind
    loaded = name in sys.modules
    try:
        return fn(traits(kind))
    finally:
        if not loaded:
            drop(name)
