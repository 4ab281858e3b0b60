# A phone's request body is JSON as RFC 8259 defines it, checked before the port's json module
# sees it (DESIGN section 10): MicroPython's json.loads takes missing and trailing commas, keeps
# the last of two equal keys, turns an escaped surrogate pair into two 3-byte halves (a string
# that is not valid UTF-8) and a lone surrogate into one, and its bytes.decode() lets some
# invalid UTF-8 through. So: the bytes must be valid UTF-8 (no overlong forms, no surrogates, at
# most U+10FFFF); the text must follow the grammar; no object may repeat a key; an escaped
# surrogate pair becomes the one character it stands for (written out as UTF-8 before json
# sees it) and a lone surrogate is refused. Works on bytes, so the scan is linear on a port
# whose str indexing walks the UTF-8.
import json

MAX_DEPTH = 16
_WS = b' \t\r\n'
_HEX = b'0123456789abcdefABCDEF'
_ESC = b'"\\/bfnrt'


class BadJSON(ValueError):
    pass


def utf8_ok(b):
    """True when the bytes are valid UTF-8 (RFC 3629)."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            k, lo, hi = 1, 0x80, 0xBF
        elif 0xE0 <= c <= 0xEF:
            k = 2
            lo = 0xA0 if c == 0xE0 else 0x80        # no overlong 3-byte forms
            hi = 0x9F if c == 0xED else 0xBF        # no surrogates
        elif 0xF0 <= c <= 0xF4:
            k = 3
            lo = 0x90 if c == 0xF0 else 0x80
            hi = 0x8F if c == 0xF4 else 0xBF        # nothing past U+10FFFF
        else:
            return False
        if i + k >= n:
            return False
        if not lo <= b[i + 1] <= hi:
            return False
        for j in range(i + 2, i + k + 1):
            if not 0x80 <= b[j] <= 0xBF:
                return False
        i += k + 1
    return True


def _hex4(b, j):
    v = 0
    for x in range(j, j + 4):
        c = b[x]
        if c not in _HEX:
            raise BadJSON('malformed JSON')
        v = v * 16 + (c - 48 if c <= 57 else (c | 32) - 87)
    return v


def _string(b, i, out):
    """Scan the JSON string at b[i] ('"'): its text, normalised, onto `out` (a list of bytes);
    returns the index after it."""
    n = len(b)
    j = i + 1
    run = i
    while j < n:
        c = b[j]
        if c == 34:                         # '"'
            out.append(b[run:j + 1])
            return j + 1
        if c == 92:                         # '\\'
            if j + 1 >= n:
                break
            e = b[j + 1]
            if e == 117:                    # 'u'
                if j + 6 > n:
                    break
                v = _hex4(b, j + 2)
                if 0xDC00 <= v <= 0xDFFF:
                    raise BadJSON('a lone surrogate in a string')
                if 0xD800 <= v <= 0xDBFF:
                    if b[j + 6:j + 8] != b'\\u' or j + 12 > n:
                        raise BadJSON('a lone surrogate in a string')
                    w = _hex4(b, j + 8)
                    if not 0xDC00 <= w <= 0xDFFF:
                        raise BadJSON('a lone surrogate in a string')
                    out.append(b[run:j])
                    out.append(chr(0x10000 + ((v - 0xD800) << 10) + (w - 0xDC00)).encode())
                    j += 12
                    run = j
                    continue
                j += 6
                continue
            if e not in _ESC:
                break
            j += 2
            continue
        if c < 32:
            break
        j += 1
    raise BadJSON('malformed JSON')


def _digits(b, j):
    n = len(b)
    while j < n and 48 <= b[j] <= 57:
        j += 1
    return j


def _scalar(b, i):
    """The index after the number or literal at b[i]."""
    for word in (b'true', b'false', b'null'):
        if b[i:i + len(word)] == word:
            return i + len(word)
    n = len(b)
    j = i + 1 if b[i] == 45 else i         # '-'
    if j >= n or not 48 <= b[j] <= 57:
        raise BadJSON('malformed JSON')
    j = j + 1 if b[j] == 48 else _digits(b, j)
    if j < n and b[j] == 46:                # '.'
        k = _digits(b, j + 1)
        if k == j + 1:
            raise BadJSON('malformed JSON')
        j = k
    if j < n and b[j] in b'eE':
        j += 1
        if j < n and b[j] in b'+-':
            j += 1
        k = _digits(b, j)
        if k == j:
            raise BadJSON('malformed JSON')
        j = k
    return j


def normal(b):
    """The body `b` (bytes) as JSON text json.loads reads exactly as RFC 8259 means it; BadJSON
    with the reason otherwise."""
    if not utf8_ok(b):
        raise BadJSON('the body is not UTF-8 text')
    out = []
    stack = []      # one entry an open container: None for an array, a list of keys for an object
    want = 'value'
    i = 0
    n = len(b)
    while True:
        while i < n and b[i] in _WS:
            i += 1
        if i == n:
            if want != 'done':
                raise BadJSON('malformed JSON')
            return b''.join(out)
        c = b[i]
        if want == 'value' or want == 'value]':
            if c == 93 and want == 'value]':          # ']' of an empty array
                stack.pop()
                out.append(b']')
                i += 1
            elif c == 123 or c == 91:                 # '{' '['
                if len(stack) >= MAX_DEPTH:
                    raise BadJSON('malformed JSON')
                stack.append([] if c == 123 else None)
                out.append(b'{' if c == 123 else b'[')
                want = 'key}' if c == 123 else 'value]'
                i += 1
                continue
            elif c == 34:
                i = _string(b, i, out)
            else:
                j = _scalar(b, i)
                out.append(b[i:j])
                i = j
        elif want == 'key' or want == 'key}':
            if c == 125 and want == 'key}':           # '}' of an empty object
                stack.pop()
                out.append(b'}')
                i += 1
            else:
                if c != 34:
                    raise BadJSON('malformed JSON')
                k = len(out)
                i = _string(b, i, out)
                key = json.loads(b''.join(out[k:]).decode())
                keys = stack[-1]
                if key in keys:
                    raise BadJSON('a repeated key: %s' % key)
                keys.append(key)
                want = ':'
                continue
        elif want == ':':
            if c != 58:
                raise BadJSON('malformed JSON')
            out.append(b':')
            i += 1
            want = 'value'
            continue
        elif want == 'next':
            obj = stack[-1] is not None
            if c == 44:                               # ','
                out.append(b',')
                i += 1
                want = 'key' if obj else 'value'
                continue
            if c != (125 if obj else 93):
                raise BadJSON('malformed JSON')
            out.append(b'}' if obj else b']')
            stack.pop()
            i += 1
        else:
            raise BadJSON('malformed JSON')
        want = 'next' if stack else 'done'


def loads(b):
    """The JSON value of body `b` (bytes), strictly (see normal())."""
    return json.loads(normal(b).decode())
