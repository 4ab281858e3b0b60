# The screens of the scoreboard (DESIGN section 4): setup, play, game over, menu and sleep. It
# turns gestures (from ui/input.py, or press() from a second input) and actions (act(), the
# phone's direct entries) into core entries, keeps the tally of games and legs, the set-aside
# game and the settings, and saves through the store before the view that confirms a change
# exists. It never touches hardware, files or the clock itself: time arrives as `now` (masked
# ticks, compared only with ticks.diff). What a game is comes from its traits (core.traits),
# never from its name; the view model is built by ui/view.py, the saved state by ui/state.py.
from ..core import BLUE, KINDS, RED, RuleError, new_game, other, traits
from . import state as states
from .gestures import CHORD, HOLD, LONG, REPEAT, TAP
from .input import HELD, PRESS
from .keys import BLUE_MINUS, OK, RED_MINUS
from .keys import BLUE as K_BLUE
from .keys import NAMES as KEY_NAMES
from .keys import RED as K_RED
from .match import Match
from .ticks import add, diff

SIDE_FOR_KEY = {K_RED: RED, K_BLUE: BLUE, RED_MINUS: RED, BLUE_MINUS: BLUE}
CHOICE_OPTIONS = ('hammer', 'first')   # chosen on the setup screen, not in the settings


def _opener(g):
    """The side that opened game g: in turn games the one shooting first, else the one
    without the hammer in frame 1."""
    if traits(g.KIND).TURNS:
        return g.options['first']
    return other(g.options['hammer'])


def _zero():
    return {RED: 0, BLUE: 0}


def _entries(g):
    return len(g.to_dict(compact=True)['log'])   # the compact form shares the log: no copy


class Controller:
    MESSAGE_MS = 2000            # a message stays this long, or until the next press
    DIM_MS = 10 * 60 * 1000      # idle this long: dim
    SLEEP_MS = 60 * 60 * 1000    # idle this long: display off
    RETRY_MS = 10000             # unsaved: the save is tried again, and said again, this often
    PIN_MS = 60000               # a pairing PIN is shown at most this long
    REST_MS = 250                # the shove ha'penny cursor is saved once it rests this long
    RECHECK_MS = 1000            # the timers are looked at least this often
    DEFAULT_BRIGHTNESS = states.DEFAULT_BRIGHTNESS

    def __init__(self, now, store=None, saved=None, message=None, sticky=False):
        self._store = store
        self._saving = None         # the dict the saves fill (states.dump)
        self.on_bank = None         # called as on_bank(game, names) after a bank is saved
        self.on_unpair = None       # the menu's `unpair`: set by the network runner (Wi-Fi)
        self.refused = None         # the rules' reason when the last commit was refused
        self._sticky = sticky       # the message stays until a press (the safe screen)
        self.version = 0
        self._view = None
        self._kept = None           # the view dict, kept: the next view updates it in place
        self._due = None            # when tick() next has work (None: at once)
        self.settings = {'game': KINDS[0], 'brightness': self.DEFAULT_BRIGHTNESS, 'opts': {},
                         'sound': 'on'}
        # The board's optional parts (DESIGN section 11), set by the app: the buzzer (`cues`,
        # a sound.Sound), the remotes (remote.adapter.RemoteKeys), the menu items they bring
        # (`parts`: 'sound', 'learn'), whether brightness may be 'auto' (a light sensor) and
        # the level the room asks for then (`room`, 1..8), the board's button names.
        self.cues = None
        self.remotes = ()
        self.parts = ()
        self.has_light = False
        self.room = self.DEFAULT_BRIGHTNESS
        self.buttons = KEY_NAMES[:3]
        self.learning = None        # the menu's learn round (remote.learn.Learn) while it runs
        self._heard = []            # the remotes' press counts the menu has shown
        self.match = Match(1)
        self.game = None
        self.screen = 'setup'
        self.choice = None          # setup: who has the hammer (turn games: shoots first)
        self.opener = None          # who opened the last game banked: the starter alternates
        self.pending = _zero()
        self.cursor = 1             # shove ha'penny: a bed number or 'end'
        self.menu = None
        self.names = {RED: None, BLUE: None}
        self.aside = None           # the game a menu change, new_game or a bank set aside
        self.pin = None
        self._pin_at = now
        self.message = None
        self._msg_at = now
        self._feedback = False      # the message says what letting go of OK will do
        self.unsaved = None         # why the last save failed, until a save succeeds
        self._unsaid = False
        self._retry_at = now
        self._rest_at = None        # the cursor moved then: saved once it has rested
        self._last = now            # last press, for dimming and sleep
        self.dimmed = False
        self.asleep = False
        if saved is not None:
            try:
                st = states.parse(saved)
            except Exception:       # a state we cannot read is never a crash loop
                st = None
                message = 'state lost'
            if st is not None:
                for name in st:
                    setattr(self, name, st[name])
        if self.choice is None:
            self.choice = self._default_choice()
        if message:
            self._say(message, now)

    # --- settings ---------------------------------------------------------------------------

    @property
    def kind(self):
        return self.settings['game']

    def opts(self, kind):
        """The options a new game of `kind` gets: what the players set, else the core's
        default (the setup choice, hammer or first, comes from the setup screen)."""
        mine = self.settings['opts'].get(kind, {})
        out = {}
        for name, default, _ in traits(kind).OPTIONS:
            if name not in CHOICE_OPTIONS:
                out[name] = mine.get(name, default)
        return out

    def _default_choice(self):
        # Frame games choose the hammer; turn games choose who shoots first. The side that
        # opened the last banked game does not open this one (a game set aside by the menu or
        # new_game is no game of the match: the next one opens as it would have).
        opener = other(self.opener) if self.opener else RED
        return opener if traits(self.kind).TURNS else other(opener)

    @property
    def brightness(self):
        """0..7 for the displays: the user's 1..8 (with 'auto', the room's), or 0 while
        dimmed."""
        b = self.settings['brightness']
        if b == 'auto':
            b = self.room
        return 0 if self.dimmed else b - 1

    # --- time -------------------------------------------------------------------------------

    def touch(self, now):
        """A key went down (or a remote acted). Returns True when it only woke the display."""
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
        """Timers: messages expire, an unsaved state is tried again, the display dims and
        sleeps. Allocates nothing unless something changes. Between changes one comparison:
        the moment the next timer is due is worked out when the controller changes (and at
        least every RECHECK_MS, so a timer whose length was changed is seen)."""
        if self._due is not None and diff(now, self._due) < 0:
            return
        self._timers(now)
        self._due = self._next_due(now)

    def _timers(self, now):
        if (self.message is not None and not self._sticky and not self._feedback
                and diff(now, self._msg_at) >= self.MESSAGE_MS):
            self.message = None
            self._changed()
        if self.unsaved is not None and diff(now, self._retry_at) >= self.RETRY_MS:
            self._retry(now)
        if self._rest_at is not None and diff(now, self._rest_at) >= self.REST_MS:
            self._persist(now)
            self._done(now)
        if self.pin is not None and diff(now, self._pin_at) >= self.PIN_MS:
            self.pin = None
            self._changed()
        if not self.asleep:
            idle = diff(now, self._last)
            if idle >= self.SLEEP_MS:
                self.asleep = True
                self._changed()
            elif idle >= self.DIM_MS and not self.dimmed:
                self.dimmed = True
                self._changed()
        if self.menu is not None and self.remotes:
            from .menu import menu_tick     # learn and test listen to the remotes
            menu_tick(self, now)

    def _next_due(self, now):
        # The earliest moment a timer of _timers() can fire, at most RECHECK_MS away. Early is
        # harmless (the timers are looked at and the moment worked out again), late never is:
        # whatever can bring a timer forward goes through _changed(), which drops it.
        if self.menu is not None and self.remotes:
            return now      # the menu's learn and test listen to the remotes at every pass
        due = self.RECHECK_MS
        if self.message is not None and not self._sticky and not self._feedback:
            due = min(due, self.MESSAGE_MS - diff(now, self._msg_at))
        if self.unsaved is not None:
            due = min(due, self.RETRY_MS - diff(now, self._retry_at))
        if self._rest_at is not None:
            due = min(due, self.REST_MS - diff(now, self._rest_at))
        if self.pin is not None:
            due = min(due, self.PIN_MS - diff(now, self._pin_at))
        if not self.asleep:
            due = min(due, (self.SLEEP_MS if self.dimmed else self.DIM_MS)
                      - diff(now, self._last))
        return add(now, due if due > 0 else 0)

    # --- gestures ---------------------------------------------------------------------------

    def event(self, kind, key, now):
        """One input event (ui/input.py). For PRESS, returns True when the press only woke
        the display: the input layer then ignores the keys down."""
        if kind == PRESS:
            return self._pressed(key, now)
        if self.asleep:
            return False
        if kind == HELD:
            self._held(key, now)
            return False
        if self.message is not None:
            self.message = None
            self._sticky = False
        self._feedback = False
        self._last = now
        screen = self.screen
        if self.menu is not None:
            from .menu import menu_event
            menu_event(self, kind, key, now)
        elif screen == 'play':
            self._play_event(kind, key, now)
        elif screen == 'over':
            self._over_event(kind, key, now)
        else:
            self._setup_event(kind, key, now)
        self._done(now)
        return False

    def _pressed(self, key, now):
        s = self.cues
        if s is not None:
            s.click(now)
        if self.touch(now):
            return True
        m = self.menu
        if m is not None and m['items'][m['i']] == 'test':
            m['values']['test'] = KEY_NAMES[key]    # the wiring check: the key's name
            self._changed()
        return False

    def _held(self, key, now):
        # OK held past a tap: say what letting go will do (HOLD then says 'menu').
        if key != OK or self.menu is not None:
            return
        if self.screen == 'play':
            text = 'clear' if self.pending[RED] or self.pending[BLUE] else 'undo'
        elif self.screen == 'over':
            text = 'undo'
        elif self.aside is not None:
            text = 'back'
        else:
            return
        self._say(text, now)
        self._feedback = True

    def _done(self, now):
        if self._unsaid:
            self._unsaid = False
            self._say('not saved ' + self.unsaved, now)
        self._changed()

    def _say(self, text, now):
        self.message = text
        self._msg_at = now
        self._feedback = False
        self._changed()

    def _play_event(self, kind, key, now):
        g = self.game
        if key == OK:
            if kind == TAP:
                self._commit(now)
            elif kind == LONG:
                if self.pending[RED] or self.pending[BLUE]:
                    self.pending = _zero()
                    self._say('clear', now)     # as an undo says 'undo'
                else:
                    self._undo(now)
            elif kind == HOLD:
                self._open_menu(now)
            return
        if kind == CHORD:
            self._redo(now)
            return
        if kind != TAP and kind != REPEAT:
            return
        if g.ENTRY == 'bed':
            if key == K_RED or key == K_BLUE:
                # The cursor is part of the screen a cut must keep, but not an entry: it is
                # saved when it rests, so a held (or stuck) key does not write every 150 ms.
                self._move_cursor(1 if key == K_BLUE else -1)
                self._rest_at = now
            return
        side = SIDE_FOR_KEY.get(key)
        if side is None:
            return
        if g.TURNS:
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
            if g.ENTRY == 'bed':
                if self.cursor == 'end':
                    g.end_turn()
                    self.cursor = 1
                else:
                    self._mark(self.cursor, now)
            else:
                self._enter(self.pending, now)
        except RuleError as e:
            self.refused = str(e)
            self._say(self.refused, now)    # the pending points stay for a correction
            if self.cues is not None:
                self.cues.refuse(now)
            return
        self.pending = _zero()
        self._after_entry(now)
        self._entered(now)

    def _entered(self, now):
        # An entry committed: the buzzer chimes, or plays the win tune when it ended the game.
        s = self.cues
        if s is not None:
            if self.game.over:
                s.win(now)
            else:
                s.chime(now)

    def _enter(self, points, now):
        """Points of a frame (`points` {red, blue}), a turn or a shot (the turn side's)."""
        g = self.game
        if g.ENTRY == 'frame':
            g.enter_frame(red=points[RED], blue=points[BLUE])
            if g.options.get('doubles') and not g.over:
                # Doubles: the pair at the other end shoots now; said for 2 s, never left in
                # a side's score position.
                self._say('end %d' % g.end, now)
            return
        side = g.turn
        before = g.collars(side) if g.COLLARS else 0
        if g.ENTRY == 'shot':
            g.enter_shot(points[side])
        else:
            g.enter_frame(**{side: points[side]})
        if g.COLLARS and g.collars(side) > before:
            self._say('collar', now)

    def _mark(self, bed, now):
        g = self.game
        got = g.mark(bed)
        if got is None:
            self._say('no mark', now)
        elif got != g.turn:
            self._say('gift ' + got, now)

    def _after_entry(self, now):
        self.screen = 'over' if self.game.over else 'play'
        self.aside = None           # the new game has an entry: the old one is gone for good
        self._persist(now)

    def _undo(self, now):
        if self.game.undo():
            self._say('undo', now)
            self._after_entry(now)
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
            self._after_entry(now)
        else:
            self._say('no redo', now)

    def _over_event(self, kind, key, now):
        if key != OK:
            return
        if kind == TAP:
            self._bank(now)
        elif kind == LONG:
            self._undo(now)
        elif kind == HOLD:
            self._open_menu(now)

    def _bank(self, now):
        g = self.game
        before = self.match.to_dict()
        won = self.match.bank(g.winner)
        self._set_aside(g, before)
        self.opener = _opener(g)
        self._to_setup()
        self._persist(now)
        if won is not None and self.match.best_of > 1:
            self._say(won + ' match', now)
        hook = self.on_bank
        if hook is not None:
            try:
                hook(g, {RED: self.names[RED], BLUE: self.names[BLUE]})
            except Exception:       # the venue's record is not worth the scoring loop
                pass

    def _set_aside(self, g, match=None):
        # A game that a bank, a menu change or new_game replaces: OK long on the setup that
        # follows brings it back. A game without an entry keeps the one already set aside.
        if match is None and _entries(g) == 0:
            return
        self.aside = {'game': g, 'match': match, 'opener': self.opener, 'choice': self.choice,
                      'cursor': self.cursor, 'names': dict(self.names)}

    def _to_setup(self):
        self.game = None
        self.cursor = 1
        self.screen = 'setup'
        self.pending = _zero()
        self.choice = self._default_choice()

    def _bring_back(self, now):
        a = self.aside
        if a is None:
            self._say('no game', now)
            return
        g = a['game']
        self.aside = None
        self.game = g
        text = 'game back'
        if a['match'] is not None:
            self.match = Match.from_dict(a['match'])    # the bank taken off the tally
            text = 'bank undone'
        self.opener = a['opener']
        self.choice = a['choice'] or self.choice
        self.cursor = a['cursor']
        self.names = a['names']
        kind = g.KIND
        self.settings['game'] = kind
        mine = {}
        for name in g.options:
            if name not in CHOICE_OPTIONS:
                mine[name] = g.options[name]
        self.settings['opts'][kind] = mine
        self.pending = _zero()
        self.screen = 'over' if g.over else 'play'
        self._persist(now)
        self._say(text, now)

    def _setup_event(self, kind, key, now):
        if key == OK:
            if kind == TAP:
                self._start(now)
            elif kind == LONG:
                self._bring_back(now)
            elif kind == HOLD:
                self._open_menu(now)
            return
        if kind == TAP or kind == REPEAT:
            side = SIDE_FOR_KEY.get(key)
            if side is not None and side != self.choice:
                self.choice = side
                self._persist(now)

    def _start(self, now=None, persist=True):
        kind = self.kind
        opts = self.opts(kind)
        who = self.choice
        if traits(kind).TURNS:
            opts['first'] = who
        else:
            opts['hammer'] = who
        self.game = new_game(kind, **opts)
        self.match.next_game()
        self.pending = _zero()
        self.cursor = 1
        self.screen = 'play'
        if persist:
            self._persist(now)

    # --- menu (ui/menu.py) --------------------------------------------------------------------

    def _open_menu(self, now):
        from .menu import open_menu     # the menu's code is loaded when it is first opened
        open_menu(self, now)

    def _move_line(self, target, now):
        g = self.game
        g.set_target(target)
        self.screen = 'over' if g.over else 'play'
        self.aside = None
        self._say('target %d' % target, now)

    # --- a second input: the phone, a remote (ui/actions.py, loaded when first used) ------

    def press(self, button, gesture, now):
        """Exactly what that gesture on the board's buttons does (ui/actions.py)."""
        from .actions import press
        press(self, button, gesture, now)

    def act(self, action, now):
        """One action of DESIGN section 10's POST /api/action (ui/actions.py): RuleError or
        ValueError with a reason and nothing changed, or None when done and saved."""
        from .actions import act
        act(self, action, now)

    def show_pin(self, pin, now):
        """The pairing PIN for the view (key `pin`) for at most PIN_MS, or None to hide it."""
        if pin is not None and (type(pin) is not str or not 0 < len(pin) <= 8
                                or not pin.isdigit()):
            raise ValueError('a PIN is digits')
        if pin != self.pin:
            self.pin = pin
            self._pin_at = now
            self._changed()

    def say(self, text, now):
        """A message from outside the buttons (a tournament match arrived: `Ann v Bob`)."""
        self._say(text, now)

    # --- view ---------------------------------------------------------------------------------

    def _changed(self):
        self._view = None
        self._due = None            # the timers are looked at again at the next tick
        self.version += 1

    @property
    def view(self):
        if self._view is None:
            from .view import build
            self._view = build(self, self._kept)    # the dict of the last view, updated
            self._kept = self._view
        return self._view

    # --- saving -------------------------------------------------------------------------------

    def state(self):
        """Everything a power cut must not lose, JSON-safe (ui/state.py)."""
        return states.dump(self)

    def _persist(self, now=None):
        self._changed()
        self._rest_at = None        # whatever was waiting is in this save
        if self._store is None:
            return
        if self._write():
            return
        self._unsaid = True         # said when the event is done, over any other message
        if now is not None:
            self._retry_at = now

    def _write(self):
        st = self._store
        try:
            # one state dict for every save (the store serialises it at once)
            self._saving = states.dump(self, self._saving)
            ok = st.save(self._saving)
        except Exception:
            ok = False
        if ok:
            if self.unsaved is not None:
                self.unsaved = None
                if self.message is not None and self.message.startswith('not saved'):
                    self.message = None
                self._changed()
            return True
        self.unsaved = getattr(st, 'problem', None) or 'flash error'
        return False

    def _retry(self, now):
        self._retry_at = now
        if not self._write():
            self._say('not saved ' + self.unsaved, now)

