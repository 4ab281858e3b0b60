# A saved game the flash could not read at boot (issue 25). The store writes nothing while a
# slot it could not read may hold a newer game than the one the board resumed (store.pending);
# the controller asks it again at every save and at least once a second (take()), and once the
# slot reads, its game comes back: at once when nothing was entered since the boot, else as the
# found game, which OK long on the setup screen brings back like the set-aside game (and which
# the entries of the game in play do not throw away). Loaded only when the store says so.
from . import state as states

KEPT = 'old game kept'
BACK = 'game back'


def _entries(g):
    return len(g.to_dict(compact=True)['log'])


def _fresh(c):
    # nothing entered since the boot: no game with an entry, nothing set aside or found
    return ((c.game is None or _entries(c.game) == 0) and c.aside is None
            and c.found is None and c.menu is None)


def take(c, store, now):
    """Asks the store for the game it could not read before (store.recover()); if it reads
    now, the controller gets it back. Returns True when something changed."""
    if c.menu is not None:
        return False            # the menu's values are in flight: asked again when it closes
    d = store.recover()
    if d is None:
        return False
    try:
        st = states.parse(d)
    except Exception:           # the store's check passed it: only a broken state gets here
        return False
    if _fresh(c):
        c.restore(st)
        if c.choice is None:
            c.choice = c.default_choice()
        c.pending = {'red': 0, 'blue': 0}
        c.say(BACK, now)
        return True
    g = st['game']
    match = st['match'].to_dict()
    a = None
    if g is None or _entries(g) == 0:
        a = st['aside']         # at setup after a bank or a new game: the game set aside then
        if a is None:
            a = st.get('found')
        if a is None:
            return False        # no game in it (its settings and tally are the board's now)
        g = a['game']
        if a['match'] is not None:
            match = a['match']
    c.found = {'game': g, 'match': match,
               'opener': a['opener'] if a else st['opener'],
               'choice': a['choice'] if a else st['choice'],
               'cursor': a['cursor'] if a else st['cursor'],
               'names': a['names'] if a else st['names']}
    c.say(KEPT, now)
    return True

