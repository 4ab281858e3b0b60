# Pairing phones with the board (DESIGN section 10): a phone asks, the board shows a 4-digit PIN
# for 60 s, the phone sends it back and gets a token; a paired phone acts with that token. At most
# four phones, the oldest dropped. Wrong PINs are counted per client address: five lock that
# address for 60 s, each further lock of it twice as long (at most 24 h); more than 20 wrong PINs
# in an hour from all addresses together close pairing until the board opens it (the menu's
# `pair`: a PIN at once, every lock cleared). The tokens survive a power cut: only their SHA-256
# is on the flash, written so that a cut at any byte leaves the old or the new list (the new file
# is complete before the old one goes).
import json
import os

from ..catalogue import PIN_DIGITS
from ..files import join, replace
from ..ticks import diff

try:
    from hashlib import sha256
except ImportError:  # pragma: no cover  (every port we run on has it)
    from uhashlib import sha256  # type: ignore[import-not-found,no-redef]

FILE = 'phones.json'
NEW = 'phones.new'
PIN_MS = 60 * 1000
LOCK_MS = 60 * 1000              # the first lock of an address; each further one doubles
LOCK_MAX_MS = 24 * 3600 * 1000
MAX_WRONG = 5                    # wrong PINs of one address that lock it
HOUR_MS = 3600 * 1000
HOUR_WRONG = 20                  # more wrong PINs than this in an hour close pairing
MAX_CLIENTS = 32                 # addresses remembered (the least locked, longest quiet go)
MAX_PHONES = 4
TOKEN_BYTES = 16


class Locked(Exception):
    """Pairing refused for now: this address is locked (`ms` left), or pairing is closed until
    the board opens it (`ms` None)."""

    def __init__(self, ms=None):
        super().__init__('locked')
        self.ms = ms


class WrongPin(Exception):
    pass


def _hex(b):
    out = ''
    for x in b:
        out += '%02x' % x
    return out


def digest(token):
    return _hex(sha256(token.encode()).digest())


def _random_bytes(n):
    try:
        return os.urandom(n)
    except (AttributeError, NotImplementedError):  # pragma: no cover  (a port without urandom)
        import random
        return bytes([random.getrandbits(8) for _ in range(n)])


class _Client:
    """What pairing remembers of one address: its wrong PINs since its last lock, how many
    locks it had, the lock in force (its start and length) and when it was last heard."""

    def __init__(self, now):
        self.wrong = 0
        self.locks = 0
        self.lock_at = 0
        self.lock_ms = 0
        self.seen = now

    def locked_for(self, now):
        """ms left of this address's lock, 0 when none."""
        if not self.lock_ms:
            return 0
        left = self.lock_ms - diff(now, self.lock_at)
        if left <= 0:
            self.lock_ms = 0
            self.wrong = 0
            return 0
        return left


class Pairing:
    """`show_pin(pin_or_None, now)` is the controller's (the board shows the PIN); `root` is the
    flash folder; `rand(n)` gives n random bytes (tests may fix it). `who` is the client's
    address (the IP as a string; None counts as one address)."""

    def __init__(self, root='', show_pin=None, rand=None):
        self.root = root
        self.show_pin = show_pin
        self.rand = rand or _random_bytes
        self.pin = None          # the PIN on the display, or None
        self._pin_at = 0
        self.clients = {}        # address -> _Client, only those that sent a wrong PIN
        self.recent = []         # when the last wrong PINs came (at most HOUR_WRONG + 1)
        self.closed = False      # over the hourly ceiling: closed until the board opens it
        self.phones = self._load()

    # --- the flash ------------------------------------------------------------------------

    def _read(self, name):
        try:
            with open(join(self.root, name)) as f:
                d = json.loads(f.read())
        except (OSError, ValueError):
            return None
        if not isinstance(d, dict) or d.get('v') != 1 or not isinstance(d.get('phones'), list):
            return None
        out = []
        for h in d['phones']:
            if isinstance(h, str) and len(h) == 64:
                out.append(h)
        return out[-MAX_PHONES:]

    def _load(self):
        got = self._read(FILE)
        if got is None:
            got = self._read(NEW)        # a cut between removing the old file and the rename
        return got or []

    def _save(self):
        text = json.dumps({'v': 1, 'phones': self.phones})
        new = join(self.root, NEW)
        old = join(self.root, FILE)
        replace(old, new, text)

    # --- the PIN --------------------------------------------------------------------------

    def locked(self, now, who=None):
        """0 when `who` may try; else the ms its lock has left, or -1 while pairing is closed."""
        if self.closed:
            return -1
        c = self.clients.get(who)
        return c.locked_for(now) if c is not None else 0

    def _check(self, now, who):
        left = self.locked(now, who)
        if left:
            raise Locked(left if left > 0 else None)

    def request(self, now, who=None):
        """A phone asks to pair: show a PIN (the one already shown stays). Raises Locked."""
        self._check(now, who)
        self.tick(now)
        if self.pin is None:
            self._new_pin(now)
        return self.pin

    def open_at_board(self, now):
        """The menu's `pair`: a new PIN at once for PIN_MS, whatever the locks, and every lock
        and count cleared."""
        self.clients = {}
        self.recent = []
        self.closed = False
        self._new_pin(now)
        return self.pin

    def _new_pin(self, now):
        b = self.rand(2)
        self.pin = '%0*d' % (PIN_DIGITS, (b[0] << 8 | b[1]) % 10 ** PIN_DIGITS)
        self._pin_at = now
        if self.show_pin is not None:
            self.show_pin(self.pin, now)

    def tick(self, now):
        """The shown PIN expires after PIN_MS."""
        if self.pin is not None and diff(now, self._pin_at) >= PIN_MS:
            self._clear(now)

    def _clear(self, now):
        self.pin = None
        if self.show_pin is not None:
            self.show_pin(None, now)

    def confirm(self, pin, now, who=None):
        """The phone sends the PIN back: a new token, or WrongPin / Locked."""
        self._check(now, who)
        self.tick(now)
        if self.pin is None or not isinstance(pin, str) or pin != self.pin:
            self._wrong(now, who)
            raise WrongPin()
        if who in self.clients:
            del self.clients[who]        # a pairing clears its address's locks
        self._clear(now)
        token = _hex(self.rand(TOKEN_BYTES))
        self.phones.append(digest(token))
        while len(self.phones) > MAX_PHONES:
            self.phones.pop(0)           # the oldest phone is dropped
        self._save()
        return token

    def _wrong(self, now, who):
        c = self.clients.get(who)
        if c is None:
            self._make_room(now)
            c = self.clients[who] = _Client(now)
        c.seen = now
        c.wrong += 1
        if c.wrong >= MAX_WRONG:
            ms = LOCK_MS
            for _ in range(c.locks):
                ms *= 2
                if ms >= LOCK_MAX_MS:
                    ms = LOCK_MAX_MS
                    break
            c.locks += 1
            c.lock_at = now
            c.lock_ms = ms
            c.wrong = 0
        r = self.recent
        while r and diff(now, r[0]) >= HOUR_MS:
            r.pop(0)
        r.append(now)
        if len(r) > HOUR_WRONG:
            self.closed = True           # until the board opens it again
            r.pop(0)
            if self.pin is not None:
                self._clear(now)         # a closed board shows no PIN to guess at

    def _make_room(self, now):
        # The least locked address that has been quiet longest goes (its count with it).
        if len(self.clients) < MAX_CLIENTS:
            return
        worst = None
        key = None
        for k in self.clients:
            c = self.clients[k]
            rank = (c.locks, -diff(now, c.seen))
            if key is None or rank < key:
                worst = k
                key = rank
        del self.clients[worst]

    # --- tokens ---------------------------------------------------------------------------

    def paired(self, token):
        if not isinstance(token, str) or not token:
            return False
        return digest(token) in self.phones

    def forget_all(self):
        """The menu's `unpair`: every phone must pair again."""
        self.phones = []
        self._save()
