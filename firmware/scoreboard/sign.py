# The update key and the signature of a package's manifest (DESIGN section 12): HMAC-SHA256
# (RFC 2104) on the port's hashlib, which has no hmac module. The key is made on the host
# (outside the repository), put on the board by the first USB deploy as update.key (64 hex
# digits), and never shown or logged.
import hashlib

KEY = 'update.key'
BLOCK = 64


class Hmac:
    """HMAC-SHA256 fed a piece at a time (an update's manifest is checked as it arrives)."""

    def __init__(self, key):
        if len(key) > BLOCK:
            key = hashlib.sha256(key).digest()
        key = key + bytes(BLOCK - len(key))
        self.inner = hashlib.sha256(bytes([b ^ 0x36 for b in key]))
        self.outer = hashlib.sha256(bytes([b ^ 0x5C for b in key]))

    def update(self, msg):
        self.inner.update(msg)

    def digest(self):
        self.outer.update(self.inner.digest())
        return self.outer.digest()


def hmac_sha256(key, msg):
    h = Hmac(key)
    h.update(msg)
    return h.digest()


def hexdigest(b):
    import binascii
    return binascii.hexlify(b).decode()


def same(a, b):
    """Equal strings, compared in a time that does not depend on where they differ."""
    if len(a) != len(b):
        return False
    d = 0
    for i in range(len(a)):
        d |= ord(a[i]) ^ ord(b[i])
    return d == 0


def board_key(root=''):
    """The update key on the flash, as bytes, or None."""
    import binascii
    try:
        with open(root + '/' + KEY if root else KEY) as f:
            text = f.read().strip()
        key = binascii.unhexlify(text)
    except (OSError, ValueError):
        return None
    return key if len(key) >= 16 else None


def valid(manifest, sig, root=''):
    """True when `sig` (hex text) is the board key's signature of the manifest's bytes."""
    key = board_key(root)
    if key is None:
        return False
    return matches(hmac_sha256(key, manifest), sig)


def matches(digest, sig):
    """True when `sig` (hex text) is `digest`, an HMAC's."""
    if not isinstance(sig, str):
        return False
    return same(hexdigest(digest), sig.strip().lower())
