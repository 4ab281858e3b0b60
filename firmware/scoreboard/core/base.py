# The machinery every game shares: sides, the rule error, option checking, the entry log with
# undo and redo, and the save format. A game kind only says how one entry changes its state
# (_apply) and who has won (_decide); everything else is derived by replaying the log, so undo,
# redo and reload can never disagree with playing forward.

# The shared names live in codes.py; the games import them from here.
from .codes import (ARG_MAX, BLUE, END, FORMAT, FRAME, MARK, RED, SHOT, SIDES,  # noqa: F401
                    TARGET, RuleError, encode)


def other(side):
    return BLUE if side == RED else RED


def check_side(side):
    if side != RED and side != BLUE:
        raise RuleError('side must be red or blue')
    return side


def check_points(v, name='points'):
    # type() rather than isinstance(): bool is an int subclass on CPython, not on MicroPython,
    # and a float or a bool typed into a scoreboard is always a mistake.
    if type(v) is not int:
        raise RuleError('%s must be a whole number' % name)
    if v < 0:
        raise RuleError('%s cannot be negative' % name)
    return v


# Option values: each option of a kind is (name, default, allowed), where `allowed` is a tuple of
# the choices (in the order the menu steps through them) or a list [lo, hi] of whole numbers. The
# core checks options against it and the menu steps through it: a range lives here only.
BOOL = (False, True)
SIDE = (RED, BLUE)
SIDE_OR_NONE = (None, RED, BLUE)


def possible(mask, n):
    return (mask >> n) & 1 == 1


def winner_at_line(red, blue, target):
    """Who has won when the totals are compared with the line: a side at or past it with the
    higher total; both past and equal (or nobody past): nobody yet."""
    if red < target and blue < target:
        return None
    if red > blue:
        return RED
    if blue > red:
        return BLUE
    return None


def higher(red, blue):
    if red > blue:
        return RED
    if blue > red:
        return BLUE
    return None


def ended_in_pairs(done, length):
    """A fixed-length match is decided after `length` units, then after every further pair."""
    return done >= length and (done - length) % 2 == 0


class Game:
    KIND = ''
    TITLE = ''         # the game's name in words ('Knock-off'), for pages and the venue's TV
    # The traits other parts read instead of comparing a game's name (scoreboard.core.traits):
    TURNS = False      # True: the sides take turns (g.turn); False: frames with a hammer
    ENTRY = 'frame'    # how points go in: 'frame' (both sides), 'turn' (the side whose turn it
    #                    is, a whole turn), 'shot' (one weight) or 'bed' (a coin in a bed)
    FRAMES: object = None  # the fixed frame count of the default game, or None (a target)
    COLLARS = False    # the game counts scoreless turns (g.collars)
    # (name, default, allowed) for every option this kind accepts (see make.check_option).
    OPTIONS: tuple = ()

    def __init__(self, opts):
        self.options = opts
        self._log = []
        self._redo = []
        self._replay()

    # --- what a kind provides ------------------------------------------------------------

    def _reset(self):
        raise RuleError('no rules for ' + self.KIND)

    def _apply(self, op, a, b):
        """Check the entry (operation op, arguments a and b) against the current state and
        apply it; raise RuleError before changing anything if it is not allowed."""
        raise RuleError('not an entry of ' + self.KIND)

    def _decide(self):
        return None

    # --- entries ---------------------------------------------------------------------------

    def enter_frame(self, red=0, blue=0):
        raise RuleError('%s has no frame entry' % self.KIND)

    def enter_shot(self, points):
        raise RuleError('%s has no single shots' % self.KIND)

    def mark(self, bed):
        raise RuleError('%s has no beds' % self.KIND)

    def end_turn(self):
        raise RuleError('%s has no turns to end' % self.KIND)

    @classmethod
    def allowed(cls, name):
        """The values option `name` takes (a choices tuple or a [lo, hi] list), or None."""
        for n, _, a in cls.OPTIONS:
            if n == name:
                return a
        return None

    def set_target(self, target):
        a = self.allowed('target')
        if a is None:
            raise RuleError('%s has no target line' % self.KIND)
        if type(target) is not int or target < a[0] or target > a[1]:
            raise RuleError('target must be %d..%d' % (a[0], a[1]))
        if target != self.target:
            self._enter(encode(TARGET, target))

    def _step(self, code):
        op = code & 7
        # Moving the line is the one entry allowed after the game is over: raising it above
        # the winner's total puts the game back in play.
        if op == TARGET and self.target is not None:
            a = (code >> 3) & ARG_MAX
            r = self.allowed('target')
            if a < r[0] or a > r[1]:
                raise RuleError('bad target entry')
            self.target = a
        elif self.winner is not None:
            raise RuleError('game over')
        else:
            self._apply(op, (code >> 3) & ARG_MAX, code >> 13)
        self.winner = self._decide()

    def _enter(self, code):
        self._step(code)
        self._log.append(code)
        if self._redo:
            self._redo = []

    def _replay(self):
        self.winner = None
        self.target = self.options.get('target')
        self._reset()
        for e in self._log:
            self._step(e)

    def restore(self, log, redo):
        """Take the entry log and redo stack of a saved game (entry codes; core/saved.py reads
        them): every entry is played as it was entered, the redo stack on top of the log (last
        first, as redo would apply it), so a damaged one raises RuleError now rather than at
        some later redo."""
        for e in log:
            self._step(e)
        for i in range(len(redo) - 1, -1, -1):
            self._step(redo[i])
        self._log = log
        self._redo = redo
        self._replay()

    # --- undo and redo ---------------------------------------------------------------------

    def undo(self):
        if not self._log:
            return False
        self._redo.append(self._log.pop())
        self._replay()
        return True

    def redo(self):
        if not self._redo:
            return False
        e = self._redo[-1]
        self._step(e)
        self._redo.pop()
        self._log.append(e)
        return True

    # --- state ------------------------------------------------------------------------------

    @property
    def kind(self):
        return self.KIND

    @property
    def over(self):
        return self.winner is not None

    def points(self, side):
        return self._pts[check_side(side)]

    def beds(self, side):
        raise RuleError('%s has no beds' % self.KIND)

    def collars(self, side):
        raise RuleError('%s has no collars' % self.KIND)

    hammer = None
    turn = None

    @property
    def end(self):
        return 1 if self.frame % 2 else 2

    # --- saving -----------------------------------------------------------------------------

    def to_dict(self, compact=False):
        """The game as JSON-safe data. Entries are short lists (['f', 0, 5]); with compact,
        the log's own small ints, which is what the board saves (half the bytes on flash).
        The compact form shares the game's log and redo lists instead of copying them, so that
        a save builds nothing the size of the game: serialise it at once, before the next
        entry. load_game() reads both, and copies what it is given."""
        opts = {}
        for name, _, _ in self.OPTIONS:
            opts[name] = self.options[name]
        if compact:
            log = self._log
            redo = self._redo
        else:
            from .saved import entry_to_list
            log = [entry_to_list(e) for e in self._log]
            redo = [entry_to_list(e) for e in self._redo]
        return {'format': FORMAT, 'kind': self.KIND, 'options': opts, 'log': log, 'redo': redo}


def __getattr__(name):
    # what building a game needs once lives in core/make.py (loaded for new_game, dropped
    # after); base.totals_bitmask and base.make_options still name it
    if name in ('totals_bitmask', 'make_options', 'check_option'):
        from . import make
        return getattr(make, name)
    raise AttributeError(name)
