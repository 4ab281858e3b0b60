# The screens of the scoreboard (DESIGN section 4): setup, play, game over, menu and sleep. It
# turns gestures into core entries, keeps the tally of games and legs, owns the settings and
# builds the view model the displays draw. It saves through one callable, before the view that
# confirms a change exists, and never touches hardware, files or the clock itself: time arrives as
# `now` (masked ticks, compared only with ticks.diff).
from ..core import BLUE, RED, RuleError, load_game, new_game, options
from . import menu as menus
from .gestures import CHORD, HOLD, LONG, REPEAT, TAP
from .keys import BLUE_MINUS, OK, RED_MINUS
from .keys import BLUE as K_BLUE
from .keys import RED as K_RED
from .match import Match
from .ticks import diff

STATE_VERSION = 1
TURN_GAMES = ('horsecollar', 'practice', 'shovehapenny')
SIDE_FOR_KEY = {K_RED: RED, K_BLUE: BLUE, RED_MINUS: RED, BLUE_MINUS: BLUE}


def other(side):
    return BLUE if side == RED else RED


class Controller:
    MESSAGE_MS = 2000            # a message stays this long, or until the next press
    DIM_MS = 10 * 60 * 1000      # idle this long: dim
    SLEEP_MS = 60 * 60 * 1000    # idle this long: display off
    DEFAULT_BRIGHTNESS = 6

    def __init__(self, now, save=None, saved=None, message=None, sticky=False):
        self._save = save
        self._sticky = sticky       # the message stays until a press (the safe screen)
        self.version = 0
        self._view = None
        self.settings = {'game': 'knockoff', 'brightness': self.DEFAULT_BRIGHTNESS, 'opts': {}}
        self.match = Match(1)
        self.game = None
        self.screen = 'setup'
        self.choice = None          # setup: who has the hammer (turn games: shoots first)
        self.opener = None          # who opened the last game started: the starter alternates
        self.pending = {RED: 0, BLUE: 0}
        self.cursor = 1             # shove ha'penny: a bed number or 'end'
        self.menu = None
        self.message = None
        self._msg_at = now
        self._last = now            # last press, for dimming and sleep
        self.dimmed = False
        self.asleep = False
        if saved is not None:
            try:
                self._restore(saved)
            except Exception:       # a state we cannot read is never a crash loop
                self.__init__(now, save, None, 'state lost')
                return
        if self.choice is None:
            self.choice = self._default_choice()
        if message:
            self._say(message, now)

    # --- settings ---------------------------------------------------------------------------

    @property
    def kind(self):
        return self.settings['game']

    def _opts(self, kind):
        """The menu-managed options of `kind`: what the players set, else the core's default."""
        mine = self.settings['opts'].get(kind, {})
        out = {}
        for name, default in options(kind):
            if name in menus.GAME_ITEMS:
                out[name] = mine.get(name, default)
        return out

    def _default_choice(self):
        # Frame games choose the hammer; turn games choose who shoots first. The side that
        # opened the last game does not open this one.
        opener = other(self.opener) if self.opener else RED
        return opener if self.kind in TURN_GAMES else other(opener)

    @property
    def brightness(self):
        """0..7 for the displays: the user's 1..8, or 0 while dimmed."""
        return 0 if self.dimmed else self.settings['brightness'] - 1

    # --- time -------------------------------------------------------------------------------

    def touch(self, now):
        """A key went down. Returns True when the press only wakes the display (the caller
        then swallows it)."""
        self._last = now
        if self.asleep:
            self.asleep = False
            self.dimmed = False
            self._changed()
            return True
        if self.dimmed:
            self.dimmed = False
            self._changed()
        return False

    def tick(self, now):
        """Timers: messages expire, the display dims and sleeps. Allocates nothing unless
        something changes."""
        if (self.message is not None and not self._sticky
                and diff(now, self._msg_at) >= self.MESSAGE_MS):
            self.message = None
            self._changed()
        if not self.asleep:
            idle = diff(now, self._last)
            if idle >= self.SLEEP_MS:
                self.asleep = True
                self._changed()
            elif idle >= self.DIM_MS and not self.dimmed:
                self.dimmed = True
                self._changed()

    # --- gestures ---------------------------------------------------------------------------

    def event(self, kind, key, now):
        if self.asleep:
            return
        if self.message is not None:
            self.message = None
            self._sticky = False
        self._last = now
        screen = self.screen
        if self.menu is not None:
            self._menu_event(kind, key, now)
        elif screen == 'play':
            self._play_event(kind, key, now)
        elif screen == 'over':
            self._over_event(kind, key, now)
        else:
            self._setup_event(kind, key, now)
        self._changed()

    def _say(self, text, now):
        self.message = text
        self._msg_at = now
        self._changed()

    def _play_event(self, kind, key, now):
        g = self.game
        if key == OK:
            if kind == TAP:
                self._commit(now)
            elif kind == LONG:
                if self.pending[RED] or self.pending[BLUE]:
                    self.pending = {RED: 0, BLUE: 0}
                else:
                    self._undo(now)
            elif kind == HOLD:
                self._open_menu()
            return
        if kind == CHORD:
            self._redo(now)
            return
        if kind != TAP and kind != REPEAT:
            return
        if g.KIND == 'shovehapenny':
            if key == K_RED or key == K_BLUE:
                self._move_cursor(1 if key == K_BLUE else -1)
                self._persist()         # the cursor is part of the screen a cut must keep
            return
        side = SIDE_FOR_KEY.get(key)
        if side is None:
            return
        if g.KIND in TURN_GAMES:
            side = g.turn       # either button counts for the side whose turn it is
        if key == RED_MINUS or key == BLUE_MINUS:
            if self.pending[side]:
                self.pending[side] -= 1
        else:
            self.pending[side] += 1

    def _move_cursor(self, delta):
        n = self.game.options['beds']
        pos = n + 1 if self.cursor == 'end' else self.cursor   # END sits after the last bed
        pos = (pos - 1 + delta) % (n + 1) + 1
        self.cursor = 'end' if pos == n + 1 else pos

    def _commit(self, now):
        g = self.game
        try:
            if g.KIND == 'shovehapenny':
                if self.cursor == 'end':
                    g.end_turn()
                    self.cursor = 1
                else:
                    got = g.mark(self.cursor)
                    if got is None:
                        self._say('no mark', now)
                    elif got != g.turn:
                        self._say('gift ' + got, now)
            elif g.KIND == 'practice':
                g.enter_shot(self.pending[g.turn])
            elif g.KIND == 'horsecollar':
                side = g.turn
                g.enter_frame(**{side: self.pending[side]})
            else:
                g.enter_frame(red=self.pending[RED], blue=self.pending[BLUE])
        except RuleError as e:
            self._say(str(e), now)      # the pending points stay for a correction
            return
        self.pending = {RED: 0, BLUE: 0}
        self._after_entry()

    def _after_entry(self):
        self.screen = 'over' if self.game.over else 'play'
        self._persist()

    def _undo(self, now):
        if self.game.undo():
            self._say('undo', now)
            self._after_entry()
        else:
            self._say('no undo', now)

    def _redo(self, now):
        if self.pending[RED] or self.pending[BLUE]:
            # The points pending belong to the frame or turn in play; a redo would move play
            # past them (entered twice, or dropped when the turn changes). Enter or clear first.
            self._say('points pending', now)
            return
        if self.game.redo():
            self._say('redo', now)
            self._after_entry()
        else:
            self._say('no redo', now)

    def _over_event(self, kind, key, now):
        if key != OK:
            return
        if kind == TAP:
            won = self.match.bank(self.game.winner)
            self.game = None
            self.cursor = 1
            self.screen = 'setup'
            self.choice = self._default_choice()
            self._persist()
            if won is not None and self.match.best_of > 1:
                self._say(won + ' match', now)
        elif kind == LONG:
            self._undo(now)
        elif kind == HOLD:
            self._open_menu()

    def _setup_event(self, kind, key, now):
        if key == OK:
            if kind == TAP:
                self._start()
            elif kind == HOLD:
                self._open_menu()
            return
        if kind == TAP or kind == REPEAT:
            side = SIDE_FOR_KEY.get(key)
            if side is not None and side != self.choice:
                self.choice = side
                self._persist()

    def _start(self):
        kind = self.kind
        opts = self._opts(kind)
        who = self.choice
        if kind in TURN_GAMES:
            opts['first'] = who
            self.opener = who
        else:
            opts['hammer'] = who
            self.opener = other(who)
        self.game = new_game(kind, **opts)
        self.match.next_game()
        self.pending = {RED: 0, BLUE: 0}
        self.cursor = 1
        self.screen = 'play'
        self._persist()

    # --- menu -------------------------------------------------------------------------------

    def _open_menu(self):
        kind = self.kind
        values = self._opts(kind)
        values['game'] = kind
        values['best_of'] = self.match.best_of
        values['brightness'] = self.settings['brightness']
        values['reset_games'] = 'no'
        if self.game is not None and self.game.target is not None:
            values['target'] = self.game.target
        self.menu = {'items': menus.items_for(kind), 'i': 0, 'values': values}

    def _menu_event(self, kind, key, now):
        m = self.menu
        item = m['items'][m['i']]
        if key == OK:
            if kind == TAP:
                m['i'] = (m['i'] + 1) % len(m['items'])
            elif kind == LONG:
                self._leave_menu(now)
            return
        if kind != TAP and kind != REPEAT:
            return
        delta = 1 if key == K_BLUE else -1
        vals = m['values']
        new = menus.step(item, vals[item], delta, vals['game'])
        vals[item] = new
        if item == 'game':
            # Each game remembers its own options; show the chosen game's items and values.
            keep = {}
            for name in ('best_of', 'brightness', 'reset_games'):
                keep[name] = vals[name]
            vals = self._opts(new)
            vals.update(keep)
            vals['game'] = new
            m['values'] = vals
            m['items'] = menus.items_for(new)
        elif item == 'brightness':
            # Brightness applies at once, so it is saved at once: what the display shows
            # survives a power cut (the menu's other changes apply when it is left).
            self.settings['brightness'] = new
            self._persist()

    def _leave_menu(self, now):
        vals = self.menu['values']
        self.menu = None
        kind = vals['game']
        before = self._opts(kind)
        rules = {}
        for name in before:
            rules[name] = vals[name]
        self.settings['brightness'] = vals['brightness']
        restart = kind != self.kind
        for name in rules:
            if name != 'target' and rules[name] != before[name]:
                restart = True
        g = self.game
        if not restart and g is not None and 'target' in rules and rules['target'] != g.target:
            # Moving the line is an entry of the game: undoable, and it may end or reopen it.
            g.set_target(rules['target'])
            self.screen = 'over' if g.over else 'play'
        self.settings['game'] = kind
        self.settings['opts'][kind] = rules
        if vals['best_of'] != self.match.best_of:
            self.match.best_of = vals['best_of']
            self.match.legs = {RED: 0, BLUE: 0}
            self.match.decided = None
        if vals['reset_games'] == 'yes':
            self.match.reset()
        if restart:
            self.game = None
            self.cursor = 1
            self.screen = 'setup'
            self.pending = {RED: 0, BLUE: 0}
            self.choice = self._default_choice()
        self._persist()

    # --- view ---------------------------------------------------------------------------------

    def _changed(self):
        self._view = None
        self.version += 1

    @property
    def view(self):
        if self._view is None:
            self._view = self._build_view()
        return self._view

    def _build_view(self):
        g = self.game
        kind = self.kind
        turn_game = kind in TURN_GAMES
        if g is not None:
            red, blue = g.points(RED), g.points(BLUE)
            hammer, turn, frame, end = g.hammer, g.turn, g.frame, g.end
            target, winner = g.target, g.winner
        else:
            red = blue = 0
            hammer = None if turn_game else self.choice
            turn = self.choice if turn_game else None
            frame, end, winner = 1, 1, None
            target = self._opts(kind).get('target')
        screen = self.screen
        if self.asleep:
            screen = 'sleep'
        elif self.menu is not None:
            screen = 'menu'
        v = {
            'screen': screen, 'game': kind, 'red': red, 'blue': blue,
            'pending': {RED: self.pending[RED], BLUE: self.pending[BLUE]},
            'hammer': hammer, 'turn': turn, 'frame': frame, 'end': end, 'target': target,
            'winner': winner, 'games': dict(self.match.games), 'legs': dict(self.match.legs),
            'message': self.message,
        }
        if kind == 'shovehapenny':
            if g is not None:
                v['beds'] = {RED: g.beds(RED), BLUE: g.beds(BLUE)}
            else:
                n = self._opts(kind)['beds']
                v['beds'] = {RED: [0] * n, BLUE: [0] * n}
            v['cursor'] = self.cursor
        if self.menu is not None:
            m = self.menu
            item = m['items'][m['i']]
            v['menu'] = {'item': item, 'value': m['values'][item]}
        return v

    # --- saving -------------------------------------------------------------------------------

    def state(self):
        """Everything a power cut must not lose, JSON-safe."""
        return {
            'v': STATE_VERSION,
            'settings': self.settings,
            'match': self.match.to_dict(),
            'screen': self.screen,
            'choice': self.choice,
            'opener': self.opener,
            'cursor': self.cursor,
            'game': self.game.to_dict(compact=True) if self.game is not None else None,
        }

    def _persist(self):
        if self._save is not None:
            self._save(self.state())
        self._changed()

    def _restore(self, d):
        if d.get('v') != STATE_VERSION:
            raise ValueError('state version')
        s = d['settings']
        kind = s['game']
        options(kind)                       # an unknown game raises here
        bright = s.get('brightness')
        if type(bright) is not int or not 1 <= bright <= menus.BRIGHTNESS_MAX:
            bright = self.DEFAULT_BRIGHTNESS
        opts = s.get('opts') or {}
        self.settings = {'game': kind, 'brightness': bright, 'opts': {}}
        for k in opts:
            new_game(k, **opts[k])          # options the core refuses are not kept
            self.settings['opts'][k] = dict(opts[k])
        self.match = Match.from_dict(d.get('match') or {})
        for name in ('choice', 'opener'):
            side = d.get(name)
            setattr(self, name, side if side in (RED, BLUE) else None)
        if d.get('game') is not None:
            self.game = load_game(d['game'])
            self.settings['game'] = self.game.KIND
            self.screen = 'over' if self.game.over else 'play'
            cur = d.get('cursor')
            if self.game.KIND == 'shovehapenny' and (
                    cur == 'end' or type(cur) is int and 1 <= cur <= self.game.options['beds']):
                self.cursor = cur
        else:
            self.screen = 'setup'
