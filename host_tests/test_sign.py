# runs-on: micropython
# The signature of an update's manifest (scoreboard/sign.py, DESIGN section 12): HMAC-SHA256 on
# the port's hashlib, as RFC 4231 gives it and as CPython's hmac computes it (the host signs,
# the board checks); a wrong key, a changed byte or a missing key is refused.
import os

from scoreboard import sign

import app_probe


def test_rfc4231_vectors():
    # test cases 1, 2 and 6 (a key longer than the block)
    cases = [
        (b'\x0b' * 20, b'Hi There',
         'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'),
        (b'Jefe', b'what do ya want for nothing?',
         '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'),
        (b'\xaa' * 131, b'Test Using Larger Than Block-Size Key - Hash Key First',
         '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'),
    ]
    for key, msg, want in cases:
        assert sign.hexdigest(sign.hmac_sha256(key, msg)) == want


def test_the_same_as_cpythons_hmac():
    try:
        import hashlib
        import hmac
    except ImportError:
        return          # the unix port: the vectors above stand for it
    for n in (0, 1, 63, 64, 65, 1000):
        key = os.urandom(32)
        msg = os.urandom(n)
        assert sign.hexdigest(sign.hmac_sha256(key, msg)) == hmac.new(
            key, msg, hashlib.sha256).hexdigest()


def test_valid_only_with_the_boards_key():
    root = app_probe.flash_dir('sign')
    manifest = b'{"version":"1","files":{}}'
    key = bytes(range(32))
    sig = sign.hexdigest(sign.hmac_sha256(key, manifest))
    assert not sign.valid(manifest, sig, root)         # no key on the board: refused
    with open(root + '/' + sign.KEY, 'w') as f:
        f.write(sign.hexdigest(key) + '\n')
    assert sign.valid(manifest, sig, root)
    assert sign.valid(manifest, sig.upper(), root)
    assert not sign.valid(manifest + b' ', sig, root)
    assert not sign.valid(manifest, '0' * 64, root)
    assert not sign.valid(manifest, None, root)
    with open(root + '/' + sign.KEY, 'w') as f:
        f.write(sign.hexdigest(bytes(32)))
    assert not sign.valid(manifest, sig, root)
