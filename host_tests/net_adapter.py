# The smallest adapter from the Controller on main to the controller contract the web layer
# is built against (BRIEF contract 1: ctl.press, ctl.act, ctl.show_pin, `names` and `pin` in the
# view), for the tests only, until the real methods arrive. install() adds only what the class
# lacks, so once the controller has them, the tests run against the real thing unchanged.
from scoreboard.core import RuleError, new_game
from scoreboard.ui import gestures
from scoreboard.ui.controller import Controller
from scoreboard.ui.keys import OK, index

KINDS = {'tap': gestures.TAP, 'long': gestures.LONG, 'hold': gestures.HOLD}


def _press(self, button, gesture, now):
    if gesture == 'chord':
        if tuple(button) not in (('RED', 'BLUE'), ('BLUE', 'RED')):
            raise ValueError('the chord is RED and BLUE')
        kind, key = gestures.CHORD, index('RED')
    else:
        if gesture not in KINDS:
            raise ValueError('unknown gesture')
        kind, key = KINDS[gesture], index(button)
    if self.touch(now):
        return
    self.event(kind, key, now)


def _act(self, a, now):
    do = a.get('do')
    g = self.game
    if do == 'new':
        opts = a.get('options') or {}
        self.game = new_game(a['game'], **opts)      # RuleError/TypeError on bad options
        self.settings['game'] = a['game']
        self._names = dict(a.get('names') or {})
        self.match.next_game()
        self.pending = {'red': 0, 'blue': 0}
        self.cursor = 1
        self.screen = 'play'
        self._persist()
        return
    if do == 'bank':
        if self.screen != 'over':
            raise RuleError('no game to bank')
        self.event(gestures.TAP, OK, now)
        return
    if g is None or self.screen not in ('play', 'over'):
        raise RuleError('no game in play')
    if do == 'frame':
        if g.KIND == 'practice':
            g.enter_shot(a.get('points', 0))
        elif g.KIND == 'shovehapenny':
            g.mark(a.get('bed'))
        elif g.KIND == 'horsecollar':
            g.enter_frame(**{g.turn: a.get('points', 0)})
        else:
            g.enter_frame(red=a.get('red', 0), blue=a.get('blue', 0))
    elif do == 'undo':
        if not g.undo():
            raise RuleError('nothing to undo')
    elif do == 'redo':
        if not g.redo():
            raise RuleError('nothing to redo')
    elif do == 'target':
        g.set_target(a.get('value'))
    else:
        raise ValueError('unknown action')
    self.pending = {'red': 0, 'blue': 0}
    self._after_entry()


def _show_pin(self, pin, now):
    self._pin = pin
    self._changed()


def install():
    """Give Controller the contract's entry points it does not have yet."""
    if hasattr(Controller, 'act'):
        return False
    Controller.press = _press
    Controller.act = _act
    Controller.show_pin = _show_pin
    Controller._pin = None
    Controller._names = {}
    build = Controller._build_view

    def _build_view(self):
        v = build(self)
        v['names'] = {'red': self._names.get('red'), 'blue': self._names.get('blue')}
        if self._pin is not None:
            v['pin'] = self._pin
        return v
    Controller._build_view = _build_view
    return True
