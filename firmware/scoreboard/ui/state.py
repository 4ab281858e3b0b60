# The saved-state format: everything of the controller a power cut must not lose, as JSON-safe
# data, and the parser that reads it back. parse() builds everything first and changes nothing,
# so a state it refuses leaves the controller as it was; check() is what the store calls to
# know whether a slot is usable (DESIGN section 7: a slot the firmware cannot use counts as
# damaged, and the store falls back to the other).
from ..core import BLUE, RED, load_game, new_game, traits
from . import keys
from .match import Match

VERSION = 1
DEFAULT_BRIGHTNESS = 6
BRIGHTNESS_MAX = 8      # the user's levels are 1..8
NAME_MAX = 12


def name_ok(n):
    """A player's or pair's name: None, or 1..NAME_MAX printable characters."""
    if n is None:
        return True
    if type(n) is not str or not 0 < len(n) <= NAME_MAX:
        return False
    for c in n:
        o = ord(c)
        if o < 32 or 127 <= o < 160:
            return False
    return True


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
    """The controller's state, JSON-safe. The games are in their compact form, which shares
    the games' logs: serialise it at once (the store does). Given `into` (a dict this returned
    before, serialised since), that dict is filled again and returned: the saves reuse one."""
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


def _put(a):
    # a set-aside (or found) game as data
    if a is not None:
        a = dict(a)
        a['game'] = a['game'].to_dict(compact=True)
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
    """The fields of a saved state, checked; raises (ValueError, RuleError, KeyError, ...) for
    a state the controller cannot use."""
    if type(d) is not dict or d.get('v') != VERSION:
        raise ValueError('state version')
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
