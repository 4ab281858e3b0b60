# Imported first by the tests that talk to the drivers directly: puts tools/virtual (the
# stand-in machine, neopixel, framebuf and the chip models) ahead of everything on sys.path,
# then firmware/ and tools/, on both interpreters (tools/paths.py).
import paths

ROOT = paths.ROOT
paths.virtual_first()
