# A second input (the phone, a remote; DESIGN section 10) drives the controller here, without
# faking keys: press() gives exactly what a gesture on the board's buttons gives (it goes through
# the same event() calls), act() takes the actions of POST /api/action. Loaded on the first use,
# so a board that has no second input never holds this code.
from ..core import BLUE, KINDS, RED, RuleError, new_game
from . import state as states
from .gestures import CHORD, HOLD, LONG, TAP
from .input import HELD, PRESS
from .keys import BLUE as K_BLUE
from .keys import BLUE_MINUS, RED_MINUS, index
from .keys import NAMES as KEY_NAMES
from .keys import RED as K_RED

GESTURES = {'tap': TAP, 'long': LONG, 'hold': HOLD}
REPEATS = (K_RED, K_BLUE, RED_MINUS, BLUE_MINUS)   # keys that repeat instead of a long press


def press(c, button, gesture, now):
    """Exactly what that gesture on the board's buttons does: button 'RED', 'BLUE', 'OK',
    'RED_MINUS' or 'BLUE_MINUS', gesture 'tap', 'long' or 'hold' (RED, BLUE and the minus
    keys repeat when held, so they take only 'tap'); the chord is (('RED', 'BLUE'),
    'chord'). ValueError for anything else; RuleError (nothing changed but the message) when
    the press commits an entry the rules refuse."""
    if gesture == 'chord':
        if (type(button) not in (tuple, list) or len(button) != 2
                or [index(b) for b in button if type(b) is str] not in (
                    [K_RED, K_BLUE], [K_BLUE, K_RED])):
            raise ValueError('the chord is RED and BLUE')
        keys = (K_RED, K_BLUE)
        kind = CHORD
    else:
        if type(button) is not str:
            raise ValueError('unknown button')
        key = index(button)
        kind = GESTURES.get(gesture) if type(gesture) is str else None
        if kind is None:
            raise ValueError('unknown gesture %r' % (gesture,))
        if kind != TAP and key in REPEATS:
            raise ValueError('%s repeats when held: tap it' % KEY_NAMES[key])
        keys = (key,)
    woke = False
    c.refused = None
    for k in keys:
        woke = c.event(PRESS, k, now) or woke
    if woke:
        return                  # the press only woke the display, as on the board
    if kind == LONG or kind == HOLD:
        c.event(HELD, keys[0], now)
    c.event(kind, keys[0], now)
    if c.refused is not None:   # the rules refused the entry: the board says why, as a
        why, c.refused = c.refused, None   # press there would, and so does the answer
        raise RuleError(why)


def act(c, action, now):
    """One action of DESIGN section 10's POST /api/action. Raises RuleError (the rules) or
    ValueError (malformed) with a reason and changes nothing; returns None when done (and
    saved as a button's change is)."""
    if type(action) is not dict:
        raise ValueError('an action is an object')
    do = action.get('do')
    fn = ACTIONS.get(do) if type(do) is str else None
    if fn is None:
        raise ValueError('unknown action %r' % (do,))
    if c.menu is not None:
        raise RuleError('menu open')
    c.perform(fn, action, now)


def _keys(action, allowed):
    for k in action:
        if k != 'do' and k not in allowed:
            raise ValueError('%s takes %s' % (action['do'], ', '.join(allowed) or 'nothing'))


def _in_play(c):
    if c.game is None:
        raise RuleError('no game in play')
    return c.game


def _act_frame(c, action, now):
    if c.game is None and c.screen == 'setup':
        # A frame entered on the setup screen starts the game first, as OK there would (the
        # hammer as chosen); a refused entry takes the start back, so nothing changes.
        from .match import Match
        before = c.match.to_dict()
        c.start(now, persist=False)
        try:
            _enter_frame(c, action, now)
        except Exception:
            c.game = None
            c.screen = 'setup'
            c.pending = c.zero()
            c.cursor = 1
            c.match = Match.from_dict(before)
            raise
        return
    _enter_frame(c, action, now)


def _enter_frame(c, action, now):
    g = _in_play(c)
    e = g.ENTRY
    if e == 'bed':
        _keys(action, ('bed',))
        bed = action.get('bed')
        if bed == 'end':
            g.end_turn()
            c.cursor = 1
        else:
            c.mark(bed, now)
    elif e == 'frame':
        _keys(action, ('red', 'blue'))
        c.enter({RED: action.get('red', 0), BLUE: action.get('blue', 0)}, now)
    else:
        _keys(action, ('points',))
        p = c.zero()
        p[g.turn] = action.get('points', 0)
        c.enter(p, now)
    c.pending = c.zero()
    c.after_entry(now)
    c.chime(now)                     # the buzzer's chime (or win tune), as for OK


def _act_undo(c, action, now):
    _keys(action, ())
    if c.game is None and c.screen == 'setup':
        if c.aside is None and getattr(c, 'found', None) is None:   # as OK long at setup
            raise RuleError('nothing to undo')
        c.bring_back(now)
        return
    g = _in_play(c)
    if c.pending[RED] or c.pending[BLUE]:
        raise RuleError('points pending')
    if not g.undo():
        raise RuleError('nothing to undo')
    c.after_entry(now)


def _act_redo(c, action, now):
    _keys(action, ())
    g = _in_play(c)
    if c.pending[RED] or c.pending[BLUE]:
        raise RuleError('points pending')
    if not g.redo():
        raise RuleError('nothing to redo')
    c.after_entry(now)


def _act_target(c, action, now):
    _keys(action, ('value',))
    v = action.get('value')
    g = c.game
    if g is not None:
        if type(v) is int and v == g.target:
            return              # the line is there already: nothing changes
        c.move_line(v, now)     # the core refuses a game without a line, or a bad one
        c.persist(now)
        return
    kind = c.kind
    new_game(kind, target=v)            # the core checks the line (RuleError)
    mine = c.settings['opts'].get(kind, {})
    if mine.get('target') != v:
        mine = dict(mine)
        mine['target'] = v
        c.settings['opts'][kind] = mine
        c.persist(now)


def _act_bank(c, action, now):
    _keys(action, ())
    if c.screen != 'over':
        raise RuleError('game not over')
    c.bank(now)


def _act_new(c, action, now):
    _keys(action, ('game', 'options', 'names'))
    kind = action.get('game', c.kind)
    if type(kind) is not str or kind not in KINDS:
        raise ValueError('unknown game %r' % (kind,))
    opts = action.get('options')
    if opts is None:
        opts = {}
    if type(opts) is not dict:
        raise ValueError('options is an object')
    for k in opts:
        if type(k) is not str:
            raise ValueError('options are named')
    names = action.get('names')
    if names is None:
        names = {}
    if type(names) is not dict:
        raise ValueError('names is an object')
    for k in names:
        if k != RED and k != BLUE:
            raise ValueError('names are red and blue')
        if not states.name_ok(names[k]):
            from ..names import why     # the one name rule (DESIGN section 10)
            raise ValueError(why(names[k]))
    merged = c.opts(kind)
    for k in opts:
        merged[k] = opts[k]
    new_game(kind, **merged)            # every option checked by the core (RuleError)
    # Nothing refused: now change.
    if c.game is not None:
        c.set_aside(c.game)
    choice = None
    rules = {}
    for k in merged:
        if k in c.CHOICE_OPTIONS:
            choice = merged[k]
        else:
            rules[k] = merged[k]
    c.settings['game'] = kind
    c.settings['opts'][kind] = rules
    c.names = {RED: names.get(RED), BLUE: names.get(BLUE)}
    c.to_setup()
    if choice is not None:
        c.choice = choice
    c.persist(now)


ACTIONS = {
    'frame': _act_frame,
    'undo': _act_undo,
    'redo': _act_redo,
    'target': _act_target,
    'bank': _act_bank,
    'new': _act_new,
}
