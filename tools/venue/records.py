"""What the service accepts from a venue topic. Everything else is refused with a reason
(Reject), logged and dropped: a message is data from anyone on the bar's network. The formats
and their versions are in docs/formats.md."""

import json
import unicodedata

from scoreboard import catalogue    # the games the firmware's core knows, read at each check
SIDES = ('red', 'blue')
MAX_GAME = 64 * 1024    # a 100-frame game is about 2 KB as JSON
MAX_STATE = 8 * 1024
MAX_NAME = 40
MAX_BEDS = 12
MAX_POINTS = 100000
VERSION = 1      # the `v` of the `state` and `game` formats read here; none: version 1
_LEVEL = set('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-')


class Reject(ValueError):
    pass


def level_ok(s):
    return 0 < len(s) <= 32 and set(s) <= _LEVEL


def parse_topic(topic):
    """'shuffleboard/<venue>/<table>/<what>' -> (venue, table, what)."""
    parts = topic.split('/')
    if len(parts) != 4 or parts[0] != 'shuffleboard':
        raise Reject('not a table topic')
    _, venue, table, what = parts
    if not level_ok(venue) or not level_ok(table):
        raise Reject('bad venue or table name')
    return venue, table, what


def text(payload):
    """The payload as text. Valid UTF-8, or, as a first MicroPython firmware stored a name sent
    as JSON escapes, a character outside the first plane as its two UTF-16 halves encoded one by
    one: those halves are joined again. Anything else is refused."""
    try:
        return payload.decode('utf-8')
    except UnicodeDecodeError as e:
        first = e
    try:
        s = payload.decode('utf-8', 'surrogatepass')
        return s.encode('utf-16-le', 'surrogatepass').decode('utf-16-le')
    except UnicodeError:
        raise Reject('not UTF-8: %s' % str(first)[:60])


def _json(payload, limit):
    if len(payload) > limit:
        raise Reject('too large (%d bytes)' % len(payload))
    s = text(payload)
    try:
        d = json.loads(s)
    except ValueError as e:
        raise Reject('not JSON: %s' % str(e)[:60])
    if isinstance(d, dict):
        v = d.get('v', 1)
        if type(v) is not int or v < 1:
            raise Reject('v: expected a format version, 1 or more')
    return d


def _int(v, what, lo=0, hi=MAX_POINTS):
    if type(v) is not int or not lo <= v <= hi:
        raise Reject('%s: expected a whole number %d..%d' % (what, lo, hi))
    return v


def _names(v):
    if v is None:
        return {'red': None, 'blue': None}
    if not isinstance(v, dict):
        raise Reject('names: expected an object')
    out = {}
    for side in SIDES:
        n = v.get(side)
        if n is not None:
            if not isinstance(n, str) or len(n) > MAX_NAME:
                raise Reject('names.%s: expected a name of at most %d characters'
                             % (side, MAX_NAME))
            n = clean_name(n)
        out[side] = n
    return out


def clean_name(n):
    """A name as the TV shows it and the leaderboard counts it: control and format characters
    (zero-width, bidi overrides) and lone surrogates left out, spaces collapsed; None when
    nothing is left. (The board refuses such names; this is for a board that did not.)"""
    n = ''.join(c for c in n if unicodedata.category(c)[0] != 'C')
    return ' '.join(n.split()) or None


def game(payload, table):
    """A `game` record, checked; `table` is the topic's, and a record naming another is
    forged."""
    d = _json(payload, MAX_GAME)
    if not isinstance(d, dict):
        raise Reject('record: expected an object')
    rid = d.get('id')
    if not isinstance(rid, str) or not 0 < len(rid) <= 100:
        raise Reject('id: expected a string')
    if d.get('table') != table:
        raise Reject('table %r in a record on the topic of table %r'
                     % (str(d.get('table'))[:40], table))
    if d.get('game') not in catalogue.KINDS:
        raise Reject('game: unknown kind')
    if not isinstance(d.get('options', {}), dict):
        raise Reject('options: expected an object')
    if not isinstance(d.get('frames', []), list):
        raise Reject('frames: expected a list')
    winner = d.get('winner')
    if winner is not None and winner not in SIDES:
        raise Reject('winner: expected red, blue or null')
    ended = d.get('ended', 0)
    if type(ended) not in (int, float) or not 0 <= ended < 1e11:
        raise Reject('ended: expected seconds')
    match = d.get('match')   # a tournament match's id (DESIGN section 13), when it was one
    if match is not None and (not isinstance(match, str) or not 0 < len(match) <= 40):
        raise Reject('match: expected a match id')
    out = {'v': d.get('v', VERSION), 'id': rid, 'table': table, 'game': d['game'],
           'options': d.get('options', {}),
            'names': _names(d.get('names')), 'red': _int(d.get('red'), 'red'),
            'blue': _int(d.get('blue'), 'blue'), 'winner': winner,
            'frames': d.get('frames', []), 'ended': ended}
    if match is not None:
        out['match'] = match
    return out


def state(payload):
    """A `state` (the board's view model), reduced to what the TV shows, checked."""
    d = _json(payload, MAX_STATE)
    if not isinstance(d, dict):
        raise Reject('state: expected an object')
    screen = d.get('screen')
    if not isinstance(screen, str) or len(screen) > 10:
        raise Reject('screen: expected a screen name')
    game = d.get('game')
    if game is not None and game not in catalogue.KINDS:
        raise Reject('game: unknown kind')
    out = {'v': d.get('v', VERSION), 'screen': screen, 'game': game,
           'names': _names(d.get('names'))}
    for side in SIDES:
        out[side] = _int(d.get(side, 0), side)
    for key in ('hammer', 'turn', 'winner'):
        v = d.get(key)
        if v is not None and v not in SIDES:
            raise Reject('%s: expected red, blue or null' % key)
        out[key] = v
    for key in ('frame', 'target', 'end'):
        v = d.get(key)
        out[key] = None if v is None else _int(v, key)
    for key in ('pending', 'games', 'legs'):
        v = d.get(key)
        if v is None:
            out[key] = None
            continue
        if not isinstance(v, dict):
            raise Reject('%s: expected an object' % key)
        out[key] = {side: _int(v.get(side, 0), '%s.%s' % (key, side)) for side in SIDES}
    # horse collar's collars and shove ha'penny's beds, where the game has them
    v = d.get('collars')
    if v is not None:
        if not isinstance(v, dict):
            raise Reject('collars: expected an object')
        out['collars'] = {side: _int(v.get(side, 0), 'collars.' + side) for side in SIDES}
    v = d.get('beds')
    if v is not None:
        if not isinstance(v, dict):
            raise Reject('beds: expected an object')
        beds = {}
        for side in SIDES:
            b = v.get(side)
            if not isinstance(b, list) or len(b) > MAX_BEDS:
                raise Reject('beds.%s: expected a list of at most %d beds' % (side, MAX_BEDS))
            beds[side] = [_int(x, 'beds.' + side, 0, 99) for x in b]
        out['beds'] = beds
        c = d.get('cursor')
        if c is not None and c != 'end':
            c = _int(c, 'cursor', 1, MAX_BEDS)
        out['cursor'] = c
    return out
