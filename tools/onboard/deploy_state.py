# Runs on the board over mpremote (tools/deploy.py sends this file, then `state(ROOTS, MARK,
# POINTER)`), then POINTER and repr of app.json's text where there is one:
# one line per file or folder of ours, MARK then repr((path, size or -1 for a folder, sha256
# hex or None where the board has no hashlib)).
import os

try:
    import binascii
    import hashlib
    HASH = True
except ImportError:
    HASH = False


def _h(p):
    if not HASH:
        return None
    h = hashlib.sha256()
    b = bytearray(512)
    m = memoryview(b)
    try:
        with open(p, 'rb') as f:
            while True:
                n = f.readinto(b)
                if not n:
                    break
                h.update(m[:n])
    except OSError:
        return None
    return binascii.hexlify(h.digest()).decode()


def _f(p, mark):
    try:
        st = os.stat(p)
    except OSError:
        return
    if st[0] & 0x4000:
        print(mark, repr((p, -1, None)))
        try:
            names = [e[0] for e in os.ilistdir(p)]
        except OSError:          # gone while listed
            names = []
        for n in names:
            _f(p + '/' + n, mark)
    else:
        print(mark, repr((p, st[6], _h(p))))


def state(roots, mark, pointer=None):
    for p in roots:
        _f(p, mark)
    if pointer is not None:      # the app folders' pointer (apps.py), as it reads
        try:
            with open('app.json') as g:
                print(pointer, repr(g.read()))
        except OSError:
            pass
