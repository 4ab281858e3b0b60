# The view model (DESIGN section 4): the plain dict every display draws, built from the
# controller when something changed (the controller caches it until the next change).
from ..core import BLUE, RED, traits


def build(c):
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
    v = {
        'screen': screen, 'game': kind, 'red': red, 'blue': blue,
        'pending': {RED: c.pending[RED], BLUE: c.pending[BLUE]},
        'hammer': hammer, 'turn': turn, 'frame': frame, 'end': end, 'target': target,
        'winner': winner, 'games': dict(c.match.games), 'legs': dict(c.match.legs),
        'message': c.message, 'names': {RED: c.names[RED], BLUE: c.names[BLUE]},
    }
    if cls.ENTRY == 'bed':
        if g is not None:
            v['beds'] = {RED: g.beds(RED), BLUE: g.beds(BLUE)}
        else:
            n = c.opts(kind)['beds']
            v['beds'] = {RED: [0] * n, BLUE: [0] * n}
        v['cursor'] = c.cursor
    if cls.COLLARS:
        if g is not None:
            v['collars'] = {RED: g.collars(RED), BLUE: g.collars(BLUE)}
        else:
            v['collars'] = {RED: 0, BLUE: 0}
    m = c.menu
    if m is not None:
        item = m['items'][m['i']]
        v['menu'] = {'item': item, 'value': m['values'][item]}
    if c.pin is not None:
        v['pin'] = c.pin
    return v
