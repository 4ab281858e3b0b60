# The chips. Every display driver takes a brightness level 0..7 (the app's scale); level()
# brings any int into it.


def level(v):
    """v clamped to the drivers' brightness scale 0..7."""
    if v < 0:
        return 0
    if v > 7:
        return 7
    return v
