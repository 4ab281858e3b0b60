# The settings menu: which items a game shows, in which order, how RED/BLUE step a value, and
# what leaving it does. The controller loads this module when the menu is opened, and leaving
# the menu lets go of it again (_let_go): its code is not resident during play.
# A game's options and the values they take come from its core module (core.traits); this file
# knows only the menu's own items. Values are spelled as the core spells its options. Items that
# do not apply to the chosen game are left out (horse collar has no blank rule, shove ha'penny no
# target), so the list is rebuilt whenever the game item changes.
from ..core import KINDS, drop, traits
from .gestures import LONG, REPEAT, TAP
from .keys import BLUE as K_BLUE
from .keys import OK
from .state import BRIGHTNESS_MAX

# Every item in the order the menu shows them (DESIGN section 4).
ITEMS = ('game', 'target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds', 'gift',
         'last_mark', 'best_of', 'brightness', 'new_game', 'reset_games', 'sound', 'learn',
         'pair', 'unpair', 'test')
# Items of the board's optional parts (DESIGN sections 10, 11): shown only where the board has
# them (`pair` and `unpair` where the network runner gave the controller its on_pair and
# on_unpair: Wi-Fi boards).
PART_ITEMS = ('sound', 'learn', 'pair', 'unpair')
# The items that are options of the game (shown when the chosen game has them).
GAME_ITEMS = ('target', 'doubles', 'blank', 'hanger', 'handicap', 'corner', 'beds', 'gift',
              'last_mark')
# Game options that change nothing already entered: they apply to the game in play at once.
AT_ONCE = ('doubles',)
NO_YES = ('no', 'yes')

# The menu's own items: a tuple of choices, or a list [lo, hi] (as core/base.py's `allowed`).
OWN = {
    'game': KINDS,
    'best_of': (1, 3, 5, 7),
    'brightness': [1, BRIGHTNESS_MAX],
    'new_game': NO_YES,
    'reset_games': NO_YES,
    'sound': ('on', 'off'),
    'unpair': NO_YES,
}
LEARN_MIN = 3       # a learn round may stop once RED, BLUE and OK have their codes


def items_for(kind, parts=()):
    """The menu items shown while `kind` is the chosen game, on a board whose optional parts
    bring the items `parts` ('sound', 'learn', 'unpair')."""
    cls = traits(kind)
    return [i for i in ITEMS if (i not in GAME_ITEMS or cls.allowed(i) is not None)
            and (i not in PART_ITEMS or i in parts)]


def _parts(c):
    # The parts' items of this board: the app's (sound, learn), and `unpair` where the network
    # runner set on_unpair (Wi-Fi boards, NETWORK = 'wlan').
    extra = ()
    if getattr(c, 'on_pair', None) is not None:
        extra += ('pair',)
    if getattr(c, 'on_unpair', None) is not None:
        extra += ('unpair',)
    return tuple(c.parts) + extra if extra else c.parts


def step(item, value, delta, kind):
    """`value` of `item` moved one step (delta +1 for BLUE, -1 for RED). Choices wrap round;
    numbers stop at their ends. `test` has no values to step (it shows the keys pressed)."""
    allowed = OWN.get(item)
    if allowed is None:
        allowed = traits(kind).allowed(item)
    if allowed is None:
        return value
    if type(allowed) is list:
        v = value + delta
        return allowed[0] if v < allowed[0] else allowed[1] if v > allowed[1] else v
    i = 0
    for j in range(len(allowed)):
        if allowed[j] == value and type(allowed[j]) is type(value):
            i = j
    return allowed[(i + delta) % len(allowed)]


# --- the menu screen of the controller (c, a ui.controller.Controller) -----------------

def open_menu(c, now):
    kind = c.kind
    values = c.opts(kind)
    values['game'] = kind
    values['best_of'] = c.match.best_of
    values['brightness'] = c.settings['brightness']
    values['new_game'] = 'no'
    values['reset_games'] = 'no'
    values['unpair'] = 'no'
    values['pair'] = '-'
    values['test'] = '-'
    values['sound'] = c.settings.get('sound', 'on')
    values['learn'] = '-'
    g = c.game
    if g is not None:
        for name in AT_ONCE:      # these follow the game in play
            if name in g.options:
                values[name] = g.options[name]
        if g.target is not None:
            values['target'] = g.target
    # `heard`: the remotes' press counts the menu has shown (`test` shows each new code)
    c.menu = {'items': items_for(kind, _parts(c)), 'i': 0, 'values': values,
              'heard': [r.presses for r in c.remotes]}
    c.say('menu', now)


def menu_event(c, kind, key, now):
    m = c.menu
    item = m['items'][m['i']]
    if key == OK:
        if c.learning is not None:
            _learn_stop(c, now)     # the board's OK ends a round: saved if enough is learned
        if kind == LONG:
            _leave(c, now)
        elif kind == TAP and item != 'test':
            m['i'] = (m['i'] + 1) % len(m['items'])
        return
    if kind != TAP and kind != REPEAT or item == 'test':
        return
    if item == 'learn':
        if kind == TAP and c.learning is None:
            _learn_start(c, now)
        return
    if item == 'pair':
        # RED or BLUE opens pairing at the board: a PIN at once, over the menu, every lock
        # of the phone remote cleared (DESIGN section 10).
        if kind == TAP and getattr(c, 'on_pair', None) is not None:
            c.on_pair(now)
        return
    vals = m['values']
    if item == 'brightness' and c.has_light and (vals[item] == 'auto' or (
            vals[item] == BRIGHTNESS_MAX and key == K_BLUE)):
        new = BRIGHTNESS_MAX if key != K_BLUE else 'auto'  # 'auto' follows the top level
    else:
        new = step(item, vals[item], 1 if key == K_BLUE else -1, vals['game'])
    if new == vals[item] and type(new) is type(vals[item]):
        return                  # at the end of its range: nothing changed, nothing saved
    vals[item] = new
    if item == 'game':
        # Each game remembers its own options; show the chosen game's items and values.
        keep = {}
        for name in ('best_of', 'brightness', 'new_game', 'reset_games', 'test', 'sound',
                     'learn', 'pair', 'unpair'):
            keep[name] = vals[name]
        vals = c.opts(new)
        vals.update(keep)
        vals['game'] = new
        m['values'] = vals
        m['items'] = items_for(new, _parts(c))
    elif item == 'brightness':
        # Brightness applies at once, so it is saved at once: what the display shows
        # survives a power cut (the menu's other changes apply when it is left).
        c.settings['brightness'] = new
        c.persist(now)
    elif item == 'sound':
        c.settings['sound'] = new   # at once too, and heard at once: the next press clicks
        if c.cues is not None:
            c.cues.on = new == 'on'
        c.persist(now)


# --- the remotes in the menu: learn and test (DESIGN section 11) ---------------------------

def _learn_start(c, now):
    from ..remote.learn import Learn
    lr = Learn(c.remotes, c.buttons)
    lr.start()
    c.learning = lr
    _show(c, 'learn', lr.button)


def _learn_stop(c, now):
    lr = c.learning
    c.learning = None
    n = len(c.buttons) if lr.button is None else c.buttons.index(lr.button)  # learned so far
    if n < LEARN_MIN:
        lr.cancel()                 # too few keys for a remote that can score: nothing kept
        _show(c, 'learn', '-')
        return
    lr.cancel()
    _learn_save(c, lr, now)


def _learn_save(c, lr, now):
    # Each receiver kind the round bound gets exactly its new codes; a kind it did not touch
    # keeps what it had (the board file's codes stay the board file's, not saved copies).
    codes = lr.result()
    saved = dict(c.settings.get('remote') or {})
    for kind in codes:
        if kind not in lr.kinds:
            continue
        mine = {}
        for code in codes[kind]:
            mine['0x%X' % code] = codes[kind][code]
        saved[kind] = mine
    c.settings['remote'] = saved
    c.persist(now)
    _show(c, 'learn', 'done')


def _show(c, item, value):
    m = c.menu
    if m is not None:
        m['values'][item] = value
        c.changed()


def menu_tick(c, now):
    """Each loop pass while the menu is open on a board with remotes: the learn round takes
    the codes the remotes decoded, `test` shows each code received (hex) and the button it is."""
    lr = c.learning
    if lr is not None:
        refused = lr.refused
        got = lr.poll()
        if lr.refused != refused and c.cues is not None:
            c.cues.refuse(now)      # a key already taken this round
        if got is not None:
            if c.cues is not None:
                c.cues.chime(now)
            if lr.done:
                c.learning = None
                _learn_save(c, lr, now)
            else:
                _show(c, 'learn', lr.button)
    heard = c.menu['heard']
    rs = c.remotes
    i = 0
    while i < len(rs):
        r = rs[i]
        if i < len(heard) and r.presses != heard[i]:
            heard[i] = r.presses
            m = c.menu
            if m['items'][m['i']] == 'test' and r.last_code is not None:
                name = r.codes.get(r.last_code)
                text = '%X' % r.last_code
                _show(c, 'test', text + ' ' + name if name else text)
        i += 1


def _leave(c, now):
    vals = c.menu['values']
    if c.learning is not None:
        c.learning.cancel()
        c.learning = None
    c.menu = None
    kind = vals['game']
    before = c.opts(kind)
    rules = {}
    for name in before:
        rules[name] = vals[name]
    c.settings['brightness'] = vals['brightness']
    restart = kind != c.kind or vals['new_game'] == 'yes'
    for name in rules:
        if name != 'target' and name not in AT_ONCE and rules[name] != before[name]:
            restart = True
    c.settings['game'] = kind
    c.settings['opts'][kind] = rules
    g = c.game
    if not restart and g is not None:
        for name in AT_ONCE:      # nothing entered depends on them: apply at once
            if name in rules:
                g.options[name] = rules[name]
        if 'target' in rules and rules['target'] != g.target:
            # Moving the line is an entry of the game: undoable, and it may end or reopen it.
            c.move_line(rules['target'], now)
    if vals['best_of'] != c.match.best_of:
        c.match.best_of = vals['best_of']
        c.match.legs = {'red': 0, 'blue': 0}
        c.match.decided = None
    if vals['reset_games'] == 'yes':
        c.match.reset()
    if vals.get('unpair') == 'yes' and getattr(c, 'on_unpair', None) is not None:
        c.on_unpair()           # the runner's pairing.forget_all: every phone must pair again
    if restart:
        if g is not None:
            c.set_aside(g)
        c.to_setup()
    c.persist(now)
    _let_go(c)


def _let_go(c):
    # Stepping through the games loaded each one's module (its traits); keep only the modules
    # of the chosen game, the game in play and the one set aside, so a visit to the menu does
    # not leave every game's code in the heap. A dropped module loads again when asked for.
    keep = [c.kind]
    for g in (c.game, c.aside['game'] if c.aside else None):
        if g is not None:
            keep.append(g.KIND)
    for kind in KINDS:
        if kind not in keep:
            drop('scoreboard.core.' + kind)
    # The menu's own code and its learn round's go too: the next opening loads them again.
    drop('scoreboard.remote.learn')
    drop(__name__)
