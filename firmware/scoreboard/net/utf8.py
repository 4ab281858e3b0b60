"""Valid UTF-8 on the wire (DESIGN section 10: names are valid UTF-8 end to end).

MicroPython's json decodes a `\\ud83c\\udfaf` escape into the two UTF-16 halves, each encoded
alone (six bytes that are not UTF-8), and its str does not check: a name kept that way would
make every later `state` and `game` of the board unreadable at the venue. `repair` is run on
each payload with bytes past ASCII before it is published: a pair of halves becomes the one
character it stands for, anything else that is not UTF-8 becomes U+FFFD.
"""

_BAD = b'\xef\xbf\xbd'   # U+FFFD


def _char(b, i, n):
    # (code point, length) of the sequence at i, surrogates included; (None, 1) if malformed.
    c = b[i]
    if c < 0x80:
        return c, 1
    if 0xC2 <= c <= 0xDF:
        k, cp, low = 1, c & 0x1F, 0x80
    elif 0xE0 <= c <= 0xEF:
        k, cp, low = 2, c & 0x0F, 0x800
    elif 0xF0 <= c <= 0xF4:
        k, cp, low = 3, c & 0x07, 0x10000
    else:
        return None, 1
    if i + k >= n:
        return None, 1
    for j in range(1, k + 1):
        d = b[i + j]
        if d & 0xC0 != 0x80:
            return None, 1
        cp = cp << 6 | d & 0x3F
    if cp < low or cp > 0x10FFFF:
        return None, 1
    return cp, k + 1


def _four(cp):
    return bytes((0xF0 | cp >> 18, 0x80 | cp >> 12 & 0x3F, 0x80 | cp >> 6 & 0x3F,
                  0x80 | cp & 0x3F))


def repair(b):
    """b itself when it is valid UTF-8, else a repaired copy (bytes)."""
    n = len(b)
    i = 0
    out = None
    while i < n:
        if b[i] < 0x80:
            if out is not None:
                out.append(b[i])
            i += 1
            continue
        cp, k = _char(b, i, n)
        good = cp is not None and not 0xD800 <= cp <= 0xDFFF
        if good:
            if out is not None:
                out.extend(b[i:i + k])
            i += k
            continue
        if out is None:
            out = bytearray(b[:i])
        if cp is not None and 0xD800 <= cp < 0xDC00 and i + k < n:
            lo, k2 = _char(b, i + k, n)
            if lo is not None and 0xDC00 <= lo <= 0xDFFF:
                out.extend(_four(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)))
                i += k + k2
                continue
        out.extend(_BAD)
        i += k
    return b if out is None else bytes(out)


def valid(b):
    return repair(b) is b
