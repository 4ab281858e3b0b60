# The rule for a player's or pair's name (DESIGN section 10), in one place: the board's state, the
# phone remote and the venue service all read it from here. A name is None (no name) or 1 to
# MAX characters of printable text: no control characters (C0, DEL, C1), no format characters
# (zero-width spaces and joiners, bidi embeddings, overrides and isolates, the BOM, soft hyphen,
# tag characters...), no line or paragraph separators, no surrogates (a lone one cannot be
# valid UTF-8), no private-use or noncharacter code points, and not blank (spaces alone).
# Plain CPython and MicroPython: no unicodedata (the port has none), so the ranges are written
# out; they cover every Cc, Cf, Zl, Zp, Cs and Co code point of Unicode 15.
MAX = 12

# Refused code points, as sorted, disjoint (first, last) pairs.
_REFUSED = (
    (0x0000, 0x001F), (0x007F, 0x009F),            # controls
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD),
    (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
    (0xD800, 0xDFFF),                              # surrogates
    (0xE000, 0xF8FF),                              # private use
    (0xFDD0, 0xFDEF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0xFFFE, 0xFFFF),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
    (0xF0000, 0x10FFFF),                           # private use planes
)
# Characters that are space: a name of these alone is blank.
_SPACES = (0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
           0x2008, 0x2009, 0x200A, 0x202F, 0x205F, 0x3000, 0x3164, 0x115F, 0x1160, 0x2800)


def _refused(o):
    for lo, hi in _REFUSED:
        if o < lo:
            return False
        if o <= hi:
            return True
    return False


def why(name):
    """None when `name` is a valid name (or None, no name); else the reason, a sentence a player
    understands."""
    if name is None:
        return None
    if type(name) is not str:
        return 'A name is text.'
    if not name:
        return 'A name needs at least one letter.'
    if len(name) > MAX:
        return 'A name is at most %d characters.' % MAX
    blank = True
    for ch in name:
        o = ord(ch)
        if _refused(o) or (o > 0xFFFF and (o & 0xFFFE) == 0xFFFE):
            return 'A name cannot hold invisible or control characters.'
        if o not in _SPACES:
            blank = False
    if blank:
        return 'A name needs at least one letter.'
    return None


def valid(name):
    """True for None or a valid name."""
    return why(name) is None
