# The state on flash: two alternating slot files, so a power cut at any byte of a save leaves
# the last good state in the other slot, and boot resumes from the newest slot that checks out.
#
# A slot is a 20-byte header and a JSON payload:
#   magic b'SBst' | version u16 | header size u16 | sequence u32 | payload length u32 | crc32 u32
# all little-endian; the CRC covers the first 16 header bytes and the payload, so a torn header
# (a wrong sequence number, a wrong length) is caught as well as a torn payload.
# No rename is used: on FAT a rename over an existing file is not atomic. A save only ever
# truncates and rewrites the slot that does not hold the newest good state.
import io
import json
import os
import struct

from binascii import crc32

try:
    from micropython import const
except ImportError:
    def const(x):  # type: ignore[misc]
        return x

MAGIC = b'SBst'
VERSION = const(1)
HEADER = '<4sHHIII'
HEADER_SIZE = const(20)
MAX_PAYLOAD = const(8192)  # a 100-frame game is under 4 KB; a larger file is never read
SEQ_MASK = const(0x3FFFFFFF)  # 30 bits: a small int on every port, so no long-int allocation
_HALF = const(0x20000000)
_CHUNK = const(256)  # piece size when a slot is checked without being parsed
SLOTS = ('state_a.bin', 'state_b.bin')
# This version writes no temporary file; names of this shape (left by a tool or an older
# layout) are ours, and load() removes them so they never eat the flash.
TMP_PREFIX = 'state'
TMP_SUFFIX = '.tmp'

DAMAGED = 'state file damaged'
FOREIGN = 'foreign state file'
TOO_LARGE = 'state file too large'
NEWER = 'unknown state version'
UNREADABLE = 'state file unreadable'
SAVE_FAILED = 'save failed'
STATE_TOO_LARGE = 'state too large to save'


def newer(a, b):
    # sequence numbers wrap at SEQ_MASK: a is newer than b if it is less than half a lap ahead
    d = (a - b) & SEQ_MASK
    return 0 < d <= _HALF


def _compact():
    # JSON without spaces, where the port's json takes separators
    try:
        json.dumps([], separators=(',', ':'))
        return {'separators': (',', ':')}
    except TypeError:
        return {}


_JSON = _compact()


# A save builds its payload in one block when the heap has one (fast: the whole JSON at C
# speed). On a long-running, fragmented heap a 100-frame game's kilobyte may not be there in
# one piece; the save then streams the JSON instead and needs no block at all. Tests switch
# the fast way off to run the streamed one.
_ONE_BLOCK = True
# A port without user streams (io.IOBase) can only build the string.
_STREAMS = hasattr(io, 'IOBase')


class _Sink(io.IOBase if _STREAMS else object):  # type: ignore[misc]
    # Where json.dump writes a state: counts the bytes, carries the CRC on, and passes them to
    # the file when there is one. MicroPython's json.dump hands each piece over without
    # allocating.
    def __init__(self, f, crc):
        self.f = f
        self.n = 0
        self.crc = crc
        self.short = False

    def write(self, b):
        if isinstance(b, str):  # CPython's json writes str
            b = b.encode()
        k = len(b)
        self.n += k
        self.crc = crc32(b, self.crc)
        if self.f is not None and self.f.write(b) != k:
            self.short = True  # a full filesystem may take fewer bytes without raising
        return k


def _stream(state, f=None, crc=0):
    # The state's JSON through a _Sink: (length, CRC carried on from crc, short write?)
    out = _Sink(f, crc)
    if _STREAMS:
        json.dump(state, out, **_JSON)
    else:
        out.write(json.dumps(state, **_JSON))
    return out.n, out.crc & 0xFFFFFFFF, out.short


def _one_block(state):
    # The payload as one bytes object, or None where the heap has no block for it
    if _ONE_BLOCK:
        try:
            return json.dumps(state, **_JSON).encode()
        except MemoryError:
            pass
    return None


def payload_size(state):
    """The bytes save() writes after the header for state."""
    return _stream(state)[0]


def join(root, name):
    """The path of file `name` in folder `root` ('' is the current folder)."""
    if not root:
        return name
    if root[-1] == '/':
        return root + name
    return root + '/' + name


class Store:
    def __init__(self, root=''):
        self.root = root
        self.message = None  # None, or what load() ignored / why save() failed
        self.written = 0  # bytes the last save wrote to its slot file (header + payload)
        self._seq = None  # sequence number of the newest good state, None: none
        self._slot = -1  # the slot holding it
        self._known = False  # False until the slots were looked at

    def path(self, name):
        return join(self.root, name)

    def _note(self, text):
        if self.message is None:
            self.message = text

    # -- reading --------------------------------------------------------------------------
    def _head(self, i):
        # (seq, length, crc, header prefix) of slot i if its header is sound, else None
        p = self.path(SLOTS[i])
        try:
            size = os.stat(p)[6]
        except OSError:
            return None  # no such slot: normal before the second save
        if size < HEADER_SIZE:
            self._note(DAMAGED)
            return None
        try:
            with open(p, 'rb') as f:
                h = f.read(HEADER_SIZE)
        except OSError:
            self._note(UNREADABLE)
            return None
        if len(h) != HEADER_SIZE:
            self._note(DAMAGED)
            return None
        magic, version, hsize, seq, length, crc = struct.unpack(HEADER, h)
        if magic != MAGIC:
            self._note(FOREIGN)
            return None
        if version != VERSION or hsize != HEADER_SIZE:
            self._note(NEWER)
            return None
        if length > MAX_PAYLOAD or size > HEADER_SIZE + MAX_PAYLOAD:
            self._note(TOO_LARGE)
            return None
        if size != HEADER_SIZE + length or seq > SEQ_MASK:
            self._note(DAMAGED)
            return None
        return seq, length, crc, h[:16]

    def _body(self, i, length, crc, prefix, parse):
        # The payload of slot i if its CRC matches (parsed if asked), else None. Unparsed, the
        # CRC is taken in small pieces: save() can check a slot without the payload's RAM.
        buf = bytearray(length if parse else min(length, _CHUNK))
        c = crc32(prefix)
        n = 0
        try:
            with open(self.path(SLOTS[i]), 'rb') as f:
                f.seek(HEADER_SIZE)
                if parse:
                    n = f.readinto(buf) if length else 0
                    c = crc32(buf, c)
                else:
                    mv = memoryview(buf)
                    while n < length:
                        k = f.readinto(mv[:min(len(buf), length - n)])
                        if not k:
                            break
                        c = crc32(mv[:k], c)
                        n += k
        except OSError:
            self._note(UNREADABLE)
            return None
        if n != length or (c & 0xFFFFFFFF) != crc:
            self._note(DAMAGED)
            return None
        if not parse:
            return True
        try:
            state = json.loads(buf)
        except MemoryError:
            raise  # not the file's fault: load() says so and leaves the slots alone
        except Exception:  # a CRC-clean payload that is not JSON: written by something else
            state = None
        if not isinstance(state, dict):
            self._note(DAMAGED)
            return None
        return state

    def _newest(self, parse):
        heads = []
        for i in (0, 1):
            h = self._head(i)
            if h is not None:
                heads.append((i, h))
        if len(heads) == 2 and newer(heads[1][1][0], heads[0][1][0]):
            heads.reverse()
        for i, h in heads:
            seq, length, crc, prefix = h
            got = self._body(i, length, crc, prefix, parse)
            if got is not None:
                self._seq = seq
                self._slot = i
                self._known = True
                return got
        self._seq = None
        self._slot = -1
        self._known = True
        return None

    def _sweep_temp(self):
        try:
            names = os.listdir(self.root) if self.root else os.listdir()
        except OSError:
            return
        for n in names:
            if n.startswith(TMP_PREFIX) and n.endswith(TMP_SUFFIX):
                try:
                    os.remove(self.path(n))
                except OSError:
                    pass

    def load(self):
        # The newest valid state dict, or None. Never raises for bad data or a broken
        # filesystem; what was ignored is left in self.message.
        self.message = None
        try:
            self._sweep_temp()
            return self._newest(True)
        except (OSError, MemoryError):
            # not the data's fault: leave the slots as they are, and let save() look again
            # (in small pieces) before it picks the slot to overwrite
            self._note(UNREADABLE)
            self._known = False
            return None

    # -- writing --------------------------------------------------------------------------
    def save(self, state):
        # Writes state into the slot not holding the newest good state; returns the bytes
        # written (also in self.written), or 0 with self.message set if the filesystem
        # refused. Without a block for the payload, the JSON is streamed three times (its
        # length; its CRC, which covers the header first; the file). The state must be
        # JSON-able: CPython raises TypeError before any file is touched; MicroPython's json
        # writes an object's repr, which load() rejects as damaged (falling back to the state
        # before).
        payload = _one_block(state)
        length = len(payload) if payload is not None else _stream(state)[0]
        if length > MAX_PAYLOAD:
            self.message = STATE_TOO_LARGE
            self.written = 0
            return 0
        if not self._known:
            try:
                self._newest(False)
            except OSError:
                self._seq = None
                self._slot = -1
        seq = 0 if self._seq is None else (self._seq + 1) & SEQ_MASK
        slot = 1 if self._slot == 0 else 0
        hdr = bytearray(HEADER_SIZE)
        struct.pack_into(HEADER, hdr, 0, MAGIC, VERSION, HEADER_SIZE, seq, length, 0)
        start = crc32(memoryview(hdr)[:16])
        if payload is not None:
            crc = crc32(payload, start) & 0xFFFFFFFF
        else:
            crc = _stream(state, None, start)[1]
        struct.pack_into('<I', hdr, 16, crc)
        try:
            with open(self.path(SLOTS[slot]), 'wb') as f:
                # a full filesystem may take fewer bytes without raising
                if f.write(hdr) != HEADER_SIZE:
                    raise OSError(28)  # ENOSPC
                if payload is not None:
                    if f.write(payload) != length:
                        raise OSError(28)
                else:
                    n, c, short = _stream(state, f, start)
                    if short:
                        raise OSError(28)
                    if n != length or c != crc:
                        raise OSError(5)  # EIO: the state changed while it was written
        except OSError:
            # that slot is now unknown; the newest good state is still where it was
            self.message = SAVE_FAILED
            self.written = 0
            return 0
        self._seq = seq
        self._slot = slot
        self.written = HEADER_SIZE + length
        if self.message in (SAVE_FAILED, STATE_TOO_LARGE):
            self.message = None
        return self.written

    def clear(self):
        # Remove our files (both slots and any temp file); never raises.
        for n in SLOTS:
            try:
                os.remove(self.path(n))
            except OSError:
                pass
        self._sweep_temp()
        self._seq = None
        self._slot = -1
        self._known = True
