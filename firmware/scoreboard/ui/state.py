# The saved state: everything of the controller a power cut must not lose, as JSON-safe data,
# written (dump) and read (parse) here and nowhere else. parse() builds everything first and
# changes nothing, so a state it refuses leaves the controller as it was; check() is what the
# store calls to know whether a slot is usable (DESIGN section 7: a slot the firmware cannot
# use counts as damaged, and the store falls back to the other).
#
# The format, version 1 (a dict; the store adds its own header and CRC around the JSON):
#   v         1
#   settings  {game: the chosen kind, brightness: 1..8 or 'auto', sound: 'on'|'off',
#              opts: {kind: {option: value}} (each game's own options, setup choices excluded),
#              remote: {'ir'|'rf': {'0x10EF': 'RED', ...}} (only once the menu learned codes)}
#   match     Match.to_dict(): {best_of, games {red, blue}, legs {red, blue}, decided}
#   screen    'setup', 'play' or 'over': for a reader of the file (tools, tests); never read
#             back, the screen follows from the game (setup without one, over when it is won)
#   game      the game in play, the core's compact to_dict() (undo and redo included), or None
#   cursor    shove ha'penny: the bed cursor (1..beds or 'end') of the game in play
#   choice    setup: the side chosen to have the hammer (turn games: to shoot first)
#   opener    the side that opened the last banked game (the starter alternates), or None
#   names     {red, blue}: each a name (name_ok) or None
#   aside     the game set aside, or None: {game, match (the tally before its bank, or None),
#             opener, choice, cursor, names}
# Missing keys read as their defaults (states of earlier builds of version 1 lacked `names`,
# `aside`, `sound`, `remote`), unknown keys are ignored.
#
# A state of an earlier version is brought up to this one on read, one step at a time
# (MIGRATE); a version with no step to it is refused (the store then falls back to its other
# slot). Version 1 is still the one written: a board rolled back to the firmware before this
# file's MIGRATE (DESIGN section 12) must still read what this one saved, and readers of the
# file use `screen` and `game`. Changing the format: add a field that older firmware can
# ignore, or, where that cannot be, bump VERSION and add the step from the one before to
# MIGRATE; keep the fixtures of host_tests/fixtures/saved resuming (docs/ARCHITECTURE.md,
# "Change the save format").
from ..core import BLUE, RED, load_game, new_game, traits
from . import keys
from .match import Match

VERSION = 1
DEFAULT_BRIGHTNESS = 6
BRIGHTNESS_MAX = 8      # the user's levels are 1..8


def name_ok(n):
    """A player's or pair's name: None, or a name by the rule of scoreboard/names.py (loaded
    only when there is a name to check: a board nobody names never pays for it)."""
    if n is None:
        return True
    from .. import names
    return names.valid(n)


def _side(v):
    return v if v == RED or v == BLUE else None


def _cursor(cur, game):
    if traits(game.KIND).ENTRY == 'bed' and (
            cur == 'end' or type(cur) is int and 1 <= cur <= game.options['beds']):
        return cur
    return 1


def _names(d):
    out = {RED: None, BLUE: None}
    if type(d) is dict:
        for s in (RED, BLUE):
            if name_ok(d.get(s)):
                out[s] = d.get(s)
    return out


def _remote(d):
    # The codes the menu's learn item saved: {'ir': {'0x10EF': 'RED', ...}, 'rf': {...}}.
    if type(d) is not dict:
        return None
    out = {}
    for kind in d:
        codes = d[kind]
        if kind not in ('ir', 'rf') or type(codes) is not dict:
            continue
        mine = {}
        for code in codes:
            name = codes[code]
            if type(code) is str and type(name) is str:
                try:
                    int(code, 0) if code[:2] in ('0x', '0X') else int(code)
                    keys.index(name)
                except ValueError:
                    continue
                mine[code] = name
        out[kind] = mine
    return out


def dump(c, into=None):
    """The controller's state, JSON-safe, in this version's format. The games are in their
    compact form, which shares the games' logs: serialise it at once (the store does). Given
    `into` (a dict this returned before, serialised since), that dict is filled again and
    returned: the saves reuse one."""
    a = _put(c.aside)
    d = into
    if d is None:
        d = {}
        m = c.match.to_dict()
    else:
        m = c.match.to_dict(d['match'])
    d['v'] = VERSION
    d['settings'] = c.settings
    d['match'] = m
    d['screen'] = c.screen
    d['choice'] = c.choice
    d['opener'] = c.opener
    d['cursor'] = c.cursor
    d['names'] = c.names
    d['game'] = c.game.to_dict(compact=True) if c.game is not None else None
    d['aside'] = a
    f = getattr(c, 'found', None)   # only while there is one: the usual state is as it was
    if f is not None:
        d['found'] = _put(f)
    elif 'found' in d:
        del d['found']
    return d


# version -> the step that turns a state of that version into one of the next, e.g.
#   def _from_v1(d): d = dict(d); d['v'] = 2; ...; return d
MIGRATE: dict = {}


def upgrade(d):
    """A saved state of this or an earlier version, as this version's format (a new dict
    where a step changed it). ValueError for a version this firmware cannot read."""
    if type(d) is not dict:
        raise ValueError('state version')
    v = d.get('v')
    while v != VERSION:
        step = MIGRATE.get(v) if type(v) is int else None
        if step is None:
            raise ValueError('state version')
        d = step(d)
        v = d.get('v')
    return d
def _put(a):
    # a set-aside (or found) game as data, field by field
    if a is not None:
        a = {'game': a['game'].to_dict(compact=True), 'match': a['match'],
             'opener': a['opener'], 'choice': a['choice'], 'cursor': a['cursor'],
             'names': a['names']}
    return a


def _aside(a):
    # The set-aside game (ui/controller.py): a damaged one is dropped, the rest still loads.
    try:
        g = load_game(a['game'])
        m = a.get('match')
        return {'game': g, 'match': Match.from_dict(m).to_dict() if type(m) is dict else None,
                'opener': _side(a.get('opener')), 'choice': _side(a.get('choice')),
                'cursor': _cursor(a.get('cursor'), g), 'names': _names(a.get('names'))}
    except Exception:
        return None


def parse(d):
    """The fields of a saved state (of any version MIGRATE reaches), checked: a dict of
    settings, match (a Match), game (a game or None), screen ('setup', 'play' or 'over', from
    the game), cursor, choice, opener, names and aside, which Controller.restore takes one by
    one. Raises (ValueError, RuleError, KeyError, ...) for a state the controller cannot use."""
    d = upgrade(d)
    s = d['settings']
    kind = s['game']
    traits(kind)                        # an unknown game raises here
    bright = s.get('brightness')
    if bright != 'auto' and (type(bright) is not int or not 1 <= bright <= BRIGHTNESS_MAX):
        bright = DEFAULT_BRIGHTNESS
    opts = s.get('opts') or {}
    settings = {'game': kind, 'brightness': bright, 'opts': {},
                'sound': 'off' if s.get('sound') == 'off' else 'on'}
    remote = _remote(s.get('remote'))
    if remote is not None:
        settings['remote'] = remote
    for k in opts:
        new_game(k, **opts[k])          # options the core refuses are not kept
        settings['opts'][k] = dict(opts[k])
    out = {'settings': settings, 'match': Match.from_dict(d.get('match') or {}),
           'choice': _side(d.get('choice')), 'opener': _side(d.get('opener')),
           'names': _names(d.get('names')), 'game': None, 'screen': 'setup', 'cursor': 1,
           'aside': None, 'found': None}
    if d.get('game') is not None:
        g = load_game(d['game'])
        settings['game'] = g.KIND
        out['game'] = g
        out['screen'] = 'over' if g.over else 'play'
        out['cursor'] = _cursor(d.get('cursor'), g)
    if type(d.get('aside')) is dict:
        out['aside'] = _aside(d['aside'])
    if type(d.get('found')) is dict:     # a game the flash could read only later (ui/found.py)
        out['found'] = _aside(d['found'])
    return out


def check(d):
    """For store.load(check): raises when the controller cannot use the state."""
    parse(d)
