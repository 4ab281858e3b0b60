# The one host stand-in for MicroPython's builtins that the device code names. On a board this
# re-exports micropython.const (the compiler folds `X = const(1)` by that name wherever it was
# imported from); under CPython (the host tests, the tools) const is the identity.
try:
    from micropython import const
except ImportError:  # CPython

    def const(x):  # type: ignore[misc]
        return x

__all__ = ('const',)
