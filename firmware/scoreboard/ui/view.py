# The view model (DESIGN section 4): the plain dict every display draws, built from the
# controller when something changed (the controller caches it until the next change).
from ..core import BLUE, RED, traits


_ZERO = {RED: 0, BLUE: 0}


def _pair(d, src):
    d[RED] = src[RED]
    d[BLUE] = src[BLUE]


def build(c, v=None):
    """The view of controller c. Given v, the view it built before, v is updated in place and
    returned (a change of a few values allocates nothing; its nested dicts are reused too), so
    hold a copy, not the dict, to compare a view with a later one."""
    g = c.game
    kind = c.kind
    cls = traits(kind)
    if g is not None:
        red, blue = g.points(RED), g.points(BLUE)
        hammer, turn, frame, end = g.hammer, g.turn, g.frame, g.end
        target, winner = g.target, g.winner
    else:
        red = blue = 0
        hammer = None if cls.TURNS else c.choice
        turn = c.choice if cls.TURNS else None
        frame, end, winner = 1, 1, None
        target = c.opts(kind).get('target')
    screen = c.screen
    if c.asleep:
        screen = 'sleep'
    elif c.menu is not None:
        screen = 'menu'
    if v is None:
        v = {'pending': {RED: 0, BLUE: 0}, 'games': {RED: 0, BLUE: 0},
             'legs': {RED: 0, BLUE: 0}, 'names': {RED: None, BLUE: None}}
    v['screen'] = screen
    v['game'] = kind
    v['red'] = red
    v['blue'] = blue
    _pair(v['pending'], c.pending)
    v['hammer'] = hammer
    v['turn'] = turn
    v['frame'] = frame
    v['end'] = end
    v['target'] = target
    v['winner'] = winner
    _pair(v['games'], c.match.games)
    _pair(v['legs'], c.match.legs)
    v['message'] = c.message
    _pair(v['names'], c.names)
    bed = cls.ENTRY == 'bed'
    if bed:
        if g is not None:
            v['beds'] = {RED: g.beds(RED), BLUE: g.beds(BLUE)}
        else:
            n = c.opts(kind)['beds']
            v['beds'] = {RED: [0] * n, BLUE: [0] * n}
        v['cursor'] = c.cursor
    if cls.COLLARS:
        if 'collars' not in v:
            v['collars'] = {RED: 0, BLUE: 0}
        if g is not None:
            v['collars'][RED] = g.collars(RED)
            v['collars'][BLUE] = g.collars(BLUE)
        else:
            _pair(v['collars'], _ZERO)
    m = c.menu
    if m is not None:
        item = m['items'][m['i']]
        v['menu'] = {'item': item, 'value': m['values'][item]}
    if c.pin is not None:
        v['pin'] = c.pin
    _drop(v, 'beds', bed)
    _drop(v, 'cursor', bed)
    _drop(v, 'collars', cls.COLLARS)
    _drop(v, 'menu', m is not None)
    _drop(v, 'pin', c.pin is not None)
    return v


def _drop(v, key, keep):
    # a key a view built before had and this one has not
    if not keep and key in v:
        del v[key]
