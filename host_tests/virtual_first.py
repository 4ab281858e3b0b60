# Imported first by the tests that talk to the drivers directly: puts tools/virtual (the
# stand-in machine, neopixel, framebuf and the chip models) ahead of everything on sys.path,
# then firmware/ and tools/, on both interpreters.
import sys

HERE = __file__.rsplit('/', 1)[0] if '/' in __file__ else '.'
ROOT = HERE + '/..'
for _p in (ROOT + '/firmware', ROOT + '/tools', ROOT + '/tools/virtual'):
    if _p in sys.path:
        sys.path.remove(_p)
    sys.path.insert(0, _p)
