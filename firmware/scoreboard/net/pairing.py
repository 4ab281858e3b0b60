# Pairing phones with the board (DESIGN section 10): a phone asks, the board shows a 4-digit PIN
# for 60 s, the phone sends it back and gets a token; a paired phone acts with that token. At most
# four phones, the oldest dropped; five wrong PINs lock pairing for 60 s. The tokens survive a
# power cut: only their SHA-256 is on the flash, written so that a cut at any byte leaves the old
# or the new list (the new file is complete before the old one goes).
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
LOCK_MS = 60 * 1000
MAX_WRONG = 5
MAX_PHONES = 4
TOKEN_BYTES = 16


class Locked(Exception):
    """Too many wrong PINs: pairing is refused until the lock ends."""


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


class Pairing:
    """`show_pin(pin_or_None, now)` is the controller's (the board shows the PIN); `root` is the
    flash folder; `rand(n)` gives n random bytes (tests may fix it)."""

    def __init__(self, root='', show_pin=None, rand=None):
        self.root = root
        self.show_pin = show_pin
        self.rand = rand or _random_bytes
        self.pin = None          # the PIN on the display, or None
        self._pin_at = 0
        self.wrong = 0
        self.locked_at = None    # when the lock began, or None
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

    def locked(self, now):
        if self.locked_at is not None and diff(now, self.locked_at) >= LOCK_MS:
            self.locked_at = None
            self.wrong = 0
        return self.locked_at is not None

    def request(self, now):
        """A phone asks to pair: show a PIN (the one already shown stays). Raises Locked."""
        if self.locked(now):
            raise Locked()
        self.tick(now)
        if self.pin is None:
            b = self.rand(2)
            self.pin = '%0*d' % (PIN_DIGITS, (b[0] << 8 | b[1]) % 10 ** PIN_DIGITS)
            self._pin_at = now
            if self.show_pin is not None:
                self.show_pin(self.pin, now)
        return self.pin

    def tick(self, now):
        """The shown PIN expires after PIN_MS."""
        if self.pin is not None and diff(now, self._pin_at) >= PIN_MS:
            self._clear(now)

    def _clear(self, now):
        self.pin = None
        if self.show_pin is not None:
            self.show_pin(None, now)

    def confirm(self, pin, now):
        """The phone sends the PIN back: a new token, or WrongPin / Locked."""
        if self.locked(now):
            raise Locked()
        self.tick(now)
        if self.pin is None or not isinstance(pin, str) or pin != self.pin:
            self.wrong += 1
            if self.wrong >= MAX_WRONG:
                self.locked_at = now
                if self.pin is not None:
                    self._clear(now)     # a locked board shows no PIN to guess at
            raise WrongPin()
        self.wrong = 0
        self._clear(now)
        token = _hex(self.rand(TOKEN_BYTES))
        self.phones.append(digest(token))
        while len(self.phones) > MAX_PHONES:
            self.phones.pop(0)           # the oldest phone is dropped
        self._save()
        return token

    # --- tokens ---------------------------------------------------------------------------

    def paired(self, token):
        if not isinstance(token, str) or not token:
            return False
        return digest(token) in self.phones

    def forget_all(self):
        """The menu's `unpair`: every phone must pair again."""
        self.phones = []
        self._save()
