"""Tournament matches sent to this table (DESIGN section 13), on the board.

The venue service publishes `shuffleboard/<venue>/<table>/match` (retained, QoS 1): `{"id",
"tournament", "round", "game", "options", "names"}`; an empty retained message clears it. The
MQTT client hands every incoming message to `offer(topic, payload)`; what is not this table's
own `match` topic, too large, not JSON, or not a well-formed match is refused (counted, the
reason kept in `why`) and changes nothing. A good match waits in `pending` until the board is at
setup with no game in play and no menu open (`poll(ctl, now)`, from the venue link's pass):
then it becomes the setup's game, options and names (the phone's `new` action, so it is checked
and saved as that is), the board says `Ann v Bob`, and OK starts it. A match is never applied
over a game in play: it waits.

The applied match is kept on flash (`match.json`, written whole to a temporary name and
renamed) with the last ids banked, so after a power cut the saved game still carries its match,
and the retained message the broker sends again on every reconnect is not applied twice.
`banked(game, names)` (the venue link's bank) gives the id for the record: only when the banked
game is the match's game (same kind and names), so a game the players started by other means
is not taken for the match.
"""

import json
import os

from scoreboard.catalogue import KINDS, name_ok

MAX_ID = 40
MAX_OPTIONS = 8
KEEP_DONE = 8        # ids of banked matches remembered
_ID_OK = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:'


def _ticks():
    import time
    from scoreboard.ui import ticks
    if hasattr(time, 'ticks_ms'):
        return ticks.mask(time.ticks_ms())
    return ticks.mask(int(time.monotonic() * 1000))


def _id_ok(s):
    if type(s) is not str or not 0 < len(s) <= MAX_ID:
        return False
    for c in s:
        if c not in _ID_OK:
            return False
    return True


def check(d):
    """A match message's fields, checked: the match dict, or ValueError with the reason."""
    if type(d) is not dict:
        raise ValueError('not an object')
    mid = d.get('id')
    if not _id_ok(mid):
        raise ValueError('bad id')
    t = d.get('tournament')
    if not (_id_ok(t) or type(t) is int and 0 <= t < 1 << 30):
        raise ValueError('bad tournament')
    r = d.get('round')
    if type(r) is not int or not 0 < r < 1000:
        raise ValueError('bad round')
    game = d.get('game')
    if type(game) is not str or game not in KINDS:
        raise ValueError('unknown game')
    opts = d.get('options')
    if opts is None:
        opts = {}
    if type(opts) is not dict or len(opts) > MAX_OPTIONS:
        raise ValueError('bad options')
    for k in opts:
        v = opts[k]
        if type(k) is not str or len(k) > 16 or not (
                type(v) is int or type(v) is str and len(v) <= 16):
            raise ValueError('bad options')
    names = d.get('names')
    if type(names) is not dict:
        raise ValueError('bad names')
    for k in names:
        if k != 'red' and k != 'blue':
            raise ValueError('bad names')
    red, blue = names.get('red'), names.get('blue')
    if not name_ok(red) or not name_ok(blue):
        raise ValueError('bad names')
    return {'id': mid, 'tournament': t, 'round': r, 'game': game, 'options': dict(opts),
            'names': {'red': red, 'blue': blue}}


class MatchLink:
    def __init__(self, root, topic, max_payload=512):
        self.path = (root.rstrip('/') + '/match.json') if root else 'match.json'
        self.topic = topic
        self.max_payload = max_payload
        self.pending = None      # a checked match waiting for the setup screen
        self.current = None      # the match applied to this board (its game, once started)
        self.done = []           # ids banked, newest last
        self.refused = 0
        self.why = None          # the last refusal's reason
        self.changes = 0         # matches applied or cleared (tests and the console)
        self._clear = False      # an empty retained `match` waits for the setup too
        self._wipe = False       # a match was banked: its names leave the setup screen
        self._load()

    # -- flash ----------------------------------------------------------------------------
    def _load(self):
        try:
            with open(self.path) as f:
                d = json.loads(f.read())
            cur = d.get('current')
            self.current = check(cur) if cur is not None else None
            self.done = [x for x in d.get('done', []) if _id_ok(x)][-KEEP_DONE:]
        except Exception:    # none yet, or damaged: no match
            self.current = None
            self.done = []

    def _save(self):
        tmp = self.path + '.tmp'
        try:
            with open(tmp, 'w') as f:
                f.write(json.dumps({'v': 1, 'current': self.current, 'done': self.done}))
            os.rename(tmp, self.path)
        except OSError:
            pass

    # -- from the broker ------------------------------------------------------------------
    def _refuse(self, why):
        self.refused += 1
        self.why = why
        return False

    def offer(self, topic, payload):
        """One incoming message (the MQTT client's on_message). True when taken."""
        if topic != self.topic:
            return self._refuse('foreign topic')
        if not payload:
            self.pending = None
            self._clear = True
            return True
        if len(payload) > self.max_payload:
            return self._refuse('too large')
        try:
            d = json.loads(payload)
        except Exception:    # ValueError, and whatever a hostile nesting raises
            return self._refuse('not JSON')
        try:
            m = check(d)
        except ValueError as e:
            return self._refuse(str(e))
        self._clear = False
        if m['id'] in self.done or (self.current is not None and
                                    self.current['id'] == m['id']):
            self.pending = None  # the broker's retained copy again: applied already
            return True
        self.pending = m
        return True

    # -- on the board ---------------------------------------------------------------------
    def poll(self, ctl, now=None):
        """Apply what waits, if the board is at setup with no game in play. True if applied."""
        if self.pending is None and not self._clear and not self._wipe:
            return False
        if ctl.screen != 'setup' or ctl.game is not None or ctl.menu is not None:
            if self._clear and self.pending is None:
                # cleared while its game is in play: that game is no longer the match's
                self._clear = False
                if self.current is not None:
                    self.current = None
                    self._save()
            return False
        if now is None:
            now = _ticks()
        if self._wipe:
            # The match is banked: its names go, so nobody takes the setup for the match still
            # to play (the next match, when one waits, puts its own names there at once).
            self._wipe = False
            if self.pending is None and not self._clear:
                try:
                    ctl.act({'do': 'new', 'names': {}}, now)
                except Exception:
                    pass
                return False
        if self._clear:
            self._clear = False
            if self.current is not None:
                self.current = None
                self._save()
                self.changes += 1
                try:
                    ctl.act({'do': 'new', 'names': {}}, now)   # the match's names go
                except Exception:
                    pass
                return True
            return False
        m = self.pending
        self.pending = None
        try:
            ctl.act({'do': 'new', 'game': m['game'], 'options': m['options'],
                     'names': m['names']}, now)
        except Exception as e:   # options the core refuses: the match cannot be played here
            return self._refuse('refused by the board: %s' % (e,))
        self.current = m
        self._save()
        self.changes += 1
        say = getattr(ctl, 'say', None)
        if say is not None:
            say('%s v %s' % (m['names']['red'] or 'red', m['names']['blue'] or 'blue'), now)
        return True

    def banked(self, game, names):
        """The match id for the record of this banked game, or None."""
        m = self.current
        if m is None:
            return None
        names = names or {}
        if game.KIND != m['game'] or names.get('red') != m['names']['red'] or \
                names.get('blue') != m['names']['blue']:
            return None
        self.current = None
        self._wipe = True
        self.done.append(m['id'])
        del self.done[:-KEEP_DONE]
        self._save()
        return m['id']
