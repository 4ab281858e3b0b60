# How long the long sweeps run: `make fuzz` sets SWEEP=long (every cut, hours of waiting,
# seconds of noise); `make test` runs the short seeded sample of each. Portable: the
# MicroPython unix port reads it too (a port without getenv runs the short one).
import os


def long():
    try:
        return os.getenv('SWEEP') == 'long'
    except AttributeError:
        return False


def pick(short, full):
    """`full` under `make fuzz`, `short` in `make test`."""
    return full if long() else short
