# The state on flash: two alternating slot files, so a power cut at any byte of a save leaves
# the last good state in the other slot, and boot resumes from the newest slot that checks out.
#
# A slot is a 20-byte header and a JSON payload:
#   magic b'SBst' | version u16 | header size u16 | sequence u32 | payload length u32 | crc32 u32
# all little-endian; the CRC covers the first 16 header bytes and the payload, so a torn header
# (a wrong sequence number, a wrong length) is caught as well as a torn payload.
# No rename is used: on FAT a rename over an existing file is not atomic. A save truncates and
# rewrites one slot, in order. What a power cut during a save leaves of that slot: on littlefs
# the slot as it was (a file changes only when it is closed) or, at the first save, an empty
# file; on FAT an empty file (its size reaches the directory only when it is closed); and
# where the save streams (see _ONE_BLOCK) a file whose magic is still b'SBwr', the real header
# being written last. Boot passes over such a slot quietly: it is what a cut leaves, not damage
# (the sweeps in test_store_powercut.py check it at every block write). Every other bad slot
# is reported: a bit flip, a truncated or lengthened file, a foreign or unusable one.
#
# The contract (the controller relies on it):
# - save(state) returns True when the state is on flash (or the newest slot holds it already:
#   then nothing is written), False when not, with self.problem the reason for the display
#   ('flash full', 'flash error', 'game found'); after a good save self.problem is None. A
#   failed save changes nothing the store relies on: the next save tries again.
# - load(check=None) returns the newest usable state or None; self.message is what the boot
#   should say about the slots (None when all is well). check(state) raises when the caller
#   cannot use a state: that slot is then damaged, and load falls back to the other.
# - self.pending is True while a slot could not be read (os.stat, open or read raised
#   something other than "no such file", or the heap had no room to parse it): it may hold a
#   newer game than the one load() gave, perhaps the only copy. recover() looks at it again
#   and, once it reads, returns its state if it is newer than what the caller has (then
#   pending is False); the caller keeps that game (ui/found.py) and saves it with its own.
#   A save while pending tries recover() itself: a state found so is held in self.found
#   (problem 'game found', nothing written) until recover() hands it over.
#
# Where a save goes (the safe behaviour, in order):
# 1. Never a slot that could not be read, nor one whose game has not been handed over (held):
#    it is never written before it has been read and its game taken, however many saves are
#    made meanwhile. The saves go to the other names; before the first of them the store
#    writes a note (HELD_NAME) of the held slots, so that a later boot does not take the
#    saves made meanwhile and the held game for one history: it resumes from the saves and
#    hands the held game over (recover()) once it reads, if it is newer than the state the
#    board had when it was held. With nowhere else to write (every name unreadable, as when
#    the flash's reads fail), or no note written, the save is refused: 'flash error'. A save
#    that finds the held game readable writes nothing: 'game found', until recover().
# 2. Never the slot holding the newest good state while another slot can take the save. A
#    damaged or unusable slot is not good: the next save goes there, so the older good state
#    is kept until a newer one is safely beside it.
# 3. Where a slot's name is taken (a directory there, a file the filesystem refuses to open
#    for writing), the save goes to the alternate names (ALTS) instead; load() reads all four
#    names and resumes from the newest good state among them. Only when none of them can be
#    opened does the save rewrite the newest slot (the cost: a cut during that save loses the
#    state). A slot that could not be opened is still tried first at every save, so the saves
#    go back to the usual names as soon as they can.
# 4. A full flash: the store keeps a reserve file (RESERVE bytes, written while the flash has
#    room for it twice over) and gives it up when a save finds the flash full, then tries the
#    save again; it writes the reserve again once there is room. The fault log and the venue
#    outbox ask room() before they write, and write nothing that would eat into the reserve.
# 5. After KEEP failed writes in one boot no more are tried (see KEEP below: a block device
#    that raises can leave littlefs one save away from a hang): False, 'flash error'.
# The store holds nothing back after a failure: the caller still has the state in RAM, and its
# next save (the next committed entry) tries again; meanwhile the controller shows 'not saved'
# and the problem.
# A save's sequence number is one past the newest seen, so it wins at the next boot.
#
# Size: there is no cap. load() streams the payload out of the file (json.load on it, after a
# CRC pass in 256-byte pieces), and save() builds it in one block only when the heap has one,
# else streams it into the file (see _ONE_BLOCK); so a state of any length a game reaches
# (10,000 frames and more) is saved and loaded, bounded only by the flash's free space.
import io
import json
import os
import struct

from binascii import crc32

from .compat import const

MAGIC = b'SBst'
WRITING = b'SBwr'  # the magic while a save is writing the slot
VERSION = const(1)
HEADER = '<4sHHIII'
HEADER_SIZE = const(20)
SEQ_MASK = const(0x3FFFFFFF)  # 30 bits: a small int on every port, so no long-int allocation
_HALF = const(0x20000000)
_CHUNK = const(256)  # piece size when a slot is read
SLOTS = ('state_a.bin', 'state_b.bin')
# Where a slot's name is taken (a directory there, a file the filesystem will not open for
# writing), the saves go on under these names: the store reads all four at boot.
ALTS = ('state_c.bin', 'state_d.bin')
_NAMES = SLOTS + ALTS
_N = const(4)
# The reserve: a file of RESERVE bytes the store writes while the flash has room and gives up
# when a save finds the flash full, so that a flash other files filled still takes the game.
RESERVE_NAME = 'reserve.bin'  # not state*: tools take those for slots
# Which slots hold a game not handed over yet (see recover()), written before a save goes
# elsewhere while a slot cannot be read: b'SBhd', a byte (bit i for slot i) and, u32, the
# sequence number of the state the board had then (0xFFFFFFFF: none): a held slot whose state
# is not newer than that is an older copy, not a game to hand over.
HELD_NAME = 'held.bin'
HELD_MAGIC = b'SBhd'
RESERVE = const(16384)  # three 4 KB littlefs blocks, 24 FAT sectors
# This version writes no temporary file; names of this shape (left by a tool or an older
# layout) are ours, and load() removes them so they never eat the flash.
TMP_PREFIX = 'state'
TMP_SUFFIX = '.tmp'

# boot messages (self.message)
DAMAGED = 'state file damaged'
FOREIGN = 'foreign state file'
NEWER = 'unknown state version'
UNREADABLE = 'state file unreadable'
# save problems (self.problem)
FULL = 'flash full'
FLASH_ERROR = 'flash error'
FOUND = 'game found'  # a slot unread at boot reads now: recover() its state before saving

ENOENT = const(2)
EIO = const(5)
ENOSPC = const(28)

# what load() and save() know of a slot
_UNSEEN = const(0)  # not looked at yet
_EMPTY = const(1)  # no file
_GOOD = const(2)  # header and CRC check out (and check() accepted it, when it was loaded)
_BAD = const(3)  # damaged, foreign, interrupted or unusable: may be overwritten
_UNREAD = const(4)  # could not be read: never overwritten (rule 1)
_CUT = 'cut'  # what _look() says of a slot a cut left half-written: nothing


def newer(a, b):
    # sequence numbers wrap at SEQ_MASK: a is newer than b if it is less than half a lap ahead
    d = (a - b) & SEQ_MASK
    return 0 < d <= _HALF


def _errno(e):
    n = getattr(e, 'errno', None)
    if n is None and e.args:
        n = e.args[0]
    return n


def _compact():
    # JSON without spaces, where the port's json takes separators
    try:
        json.dumps([], separators=(',', ':'))
        return (',', ':')
    except TypeError:
        return None


_SEP = _compact()


# (keywords spelt out: a call with **kwargs allocates)
def _dumps(state):
    if _SEP is None:
        return json.dumps(state)
    return json.dumps(state, separators=_SEP)


def _dump(state, out):
    if not _STREAMS:
        out.write(_dumps(state))
    elif _SEP is None:
        json.dump(state, out)
    else:
        json.dump(state, out, separators=_SEP)


# A save builds its payload in one block when the heap has one: json.dumps at C speed, the one
# allocation of a save (the JSON text; MicroPython hands its UTF-8 bytes over as a memoryview,
# no copy), and the header, CRC and all, goes first. Where the heap has no such block (a long,
# fragmented run, a very long game) the save streams the JSON instead (json.dump into a
# _Sink: no block at all, but one Python call per JSON token, some 40 times slower), writes the
# header with the magic WRITING first and the real one last. Tests switch the fast way off to
# run the streamed one.
_ONE_BLOCK = True
# A port without user streams (io.IOBase) can only build the string.
_STREAMS = hasattr(io, 'IOBase')

# Where the port's json writes bytes into an io.BytesIO (MicroPython), a save of a state up to
# _BUF_MAX bytes of JSON allocates next to nothing: json.dump writes it at C speed into a
# BytesIO the store keeps from save to save, and the CRCs, the comparison with the slot and the
# write to the file go through it in _CHUNK-byte pieces of a reused buffer. The slot's bytes and
# their order are those of the one-block save (header, CRC and all, first). A longer state is
# saved as above (one block, else streamed) and the kept BytesIO let go.
_BUF_MAX = const(4096)
_BUF_START = const(1024)  # the kept BytesIO's first size, doubled when a state nears it


def _buffers():
    try:
        b = io.BytesIO(16)
        _dump([0], b)
        return b.tell() == 3
    except Exception:  # CPython's json writes str
        return False


_BUFFERS = _buffers()
_BUF = 'buffered'  # the payload is in the store's BytesIO


class _Sink(io.IOBase if _STREAMS else object):  # type: ignore[misc]
    # Where json.dump writes a state: counts the bytes, carries two CRCs on (the slot's, from
    # the header, and the payload's own), and passes the bytes to the file when there is one.
    # MicroPython's json.dump hands each piece over without allocating.
    def __init__(self):
        self.f = None
        self.n = 0
        self.crc = 0
        self.pcrc = 0
        self.short = False

    def start(self, f, crc):
        self.f = f
        self.n = 0
        self.crc = crc
        self.pcrc = 0
        self.short = False
        return self

    def write(self, b):
        if isinstance(b, str):  # CPython's json writes str
            b = b.encode()
        k = len(b)
        self.n += k
        self.pcrc = crc32(b, self.pcrc)
        if self.f is not None:
            self.crc = crc32(b, self.crc)
            if self.f.write(b) != k:
                self.short = True  # a full filesystem may take fewer bytes without raising
        return k


class _Same(io.IOBase if _STREAMS else object):  # type: ignore[misc]
    # Compares a state's JSON, as json.dump writes it, with the bytes of an open file.
    def __init__(self, f):
        self.f = f
        self.same = True

    def write(self, b):
        if isinstance(b, str):
            b = b.encode()
        if self.same and self.f.read(len(b)) != b:
            self.same = False
        return len(b)


_sink = _Sink()


def _stream(state, f=None, crc=0):
    # The state's JSON through the sink, into file f if given: (length, the payload's own CRC,
    # the CRC carried on from crc (with a file), short write?)
    out = _sink.start(f, crc)
    try:
        _dump(state, out)
    finally:
        out.f = None  # never keep a file alive
    return out.n, out.pcrc & 0xFFFFFFFF, out.crc & 0xFFFFFFFF, out.short


def _one_block(state):
    # The payload's bytes in one piece (a memoryview over the JSON text under MicroPython,
    # bytes under CPython), or None: streamed then
    if _ONE_BLOCK:
        try:
            text = _dumps(state)
            try:
                return memoryview(text)  # MicroPython: the text's own UTF-8 bytes
            except TypeError:
                return text.encode()
        except MemoryError:
            pass
    return None


def payload_size(state):
    """The bytes save() writes after the header for state."""
    return _stream(state)[0]


from .files import join  # noqa: E402,F401  (faultlog.py and older callers take it from here)


# A block device whose writeblocks raises (esp32.Partition does, on a flash error) throws
# the exception straight through littlefs, which then still lists the file being written among
# its open files. If that file object were freed, its memory reused, a later littlefs call
# walks the list into it: a save that never returns (or a crash). So a file whose save failed
# is kept here for the rest of the boot; after KEEP such failures the store stops writing
# (problem 'flash error') until the board restarts, rather than walk into that hang.
KEEP = const(8)
_kept = []  # type: list


def keep(f, e):
    """Keeps file f, whose write failed with e, alive for the rest of the boot (see KEEP).
    Not for a full filesystem: that is littlefs's own error, and it let go of the file."""
    if not (isinstance(e, OSError) and _errno(e) == ENOSPC):
        _kept.append(f)


def failing():
    """True once KEEP writes failed this boot: write nothing more (see KEEP)."""
    return len(_kept) >= KEEP


def room(root='', n=0):
    """For the other writers on the flash (the fault log, the venue outbox): True when n more
    bytes leave the game its room (the store's reserve file is in place, or the flash has the
    reserve free beside them). They give way before the game does: a False is theirs to drop.
    True when the flash cannot say."""
    try:
        if os.stat(join(root, RESERVE_NAME))[6] >= RESERVE:
            return True
    except OSError:
        pass
    try:
        return _free(root) >= n + RESERVE
    except Exception:
        return True


def _free(root):
    # The bytes free on the filesystem of folder root. littlefs counts the blocks in use from
    # its tree, which on a flash filled to the last block can exceed the blocks there are
    # (MicroPython then gives the free count as a huge unsigned number): none are free then.
    v = os.statvfs(root or '/')
    return v[0] * v[4] if v[4] <= v[2] else 0


class _Unusable(Exception):
    pass


class Store:
    def __init__(self, root=''):
        self.root = root
        self.message = None  # what load() found wrong with the slots, or None
        self.problem = None  # why the last save failed, or None
        self.written = 0  # bytes the last save wrote to its slot file (0: none written)
        # slots 0, 1: SLOTS; 2, 3: ALTS, used where a slot's name is taken
        self._st = [_UNSEEN] * _N
        self._seq = [0] * _N  # sequence number of a _GOOD slot
        self._len = [0] * _N  # its payload length
        self._pcrc = [0] * _N  # the CRC of its payload alone (a save of the same state skips)
        self._stuck = [False] * _N  # the slot could not be opened for writing
        self._tg = [0] * _N  # the slots a save tries, in order (see _targets)
        self._zero = 0  # bit i: slot i is an empty file
        # A slot load() could not read may hold a newer game than the one it gave: while one
        # is unread (pending), no save is written; once it reads, recover() gives its state.
        self.pending = False
        self.found = None  # the state a save found in such a slot, until recover() takes it
        self._given = -1  # the sequence number of the newest state the caller has (-1: none)
        self._check = None  # load()'s check, for recover()
        self._rsv = False  # the reserve file is in place
        self._held = 0  # bit i: slot i holds a game not handed over: never written, and not
        # counted as the newest (its sequence number says nothing against the saves made
        # while it could not be read)
        self._marked = 0  # the bits HELD_NAME holds on flash
        self._ref = -1  # and the sequence number it holds
        self._hunk = False  # the note could not be read: as good as an unread slot
        self._gave = 0  # bit i: slot i's state was handed over at this boot (load, recover)
        self._hdr = bytearray(HEADER_SIZE)
        self._hdr16 = memoryview(self._hdr)[:16]  # what the CRC covers of the header
        self._buf = bytearray(_CHUNK)
        self._bmv = memoryview(self._buf)
        self._out = None  # the kept BytesIO of a buffered save (_BUFFERS), made at the first
        self._cap = 0  # its size, and the size the next save wants
        self._want = _BUF_START
        self._obuf = bytearray(_CHUNK)  # its pieces
        self._omv = memoryview(self._obuf)
        self._paths = tuple([self.path(n) for n in _NAMES])  # made once: no per-save

    def path(self, name):
        return join(self.root, name)

    def _note(self, text):
        if self.message is None:
            self.message = text

    # -- reading --------------------------------------------------------------------------
    def _look(self, i, quiet=False):
        # Judges slot i by its header and CRC (the payload read in small pieces, not parsed);
        # sets self._st[i] and, for a good slot, its sequence, length and payload CRC. Says
        # what it found wrong unless quiet.
        st = self._st
        p = self._paths[i]
        self._zero &= ~(1 << i)
        try:
            s = os.stat(p)
        except OSError as e:
            if _errno(e) == ENOENT:
                st[i] = _EMPTY
            else:
                st[i] = _UNREAD
                self.pending = True
                if not quiet:
                    self._note(UNREADABLE)
            return
        st[i] = _BAD
        if s[0] & 0x4000:  # a directory where the slot should be
            if not quiet:
                self._note(FOREIGN)
            return
        size = s[6]
        if size == 0:
            # A save truncated it and was cut: expected, not damage. Both slots empty is not
            # what cuts leave once a state was saved (a save never truncates the newest slot),
            # so that is reported when the other slot is looked at.
            self._zero |= 1 << i
            z = self._zero
            if (z & 3 == 3 or z & 12 == 12) and not quiet:
                self._note(DAMAGED)
            return
        why = None
        try:
            with open(p, 'rb') as f:
                h = f.read(HEADER_SIZE)
                if len(h) != HEADER_SIZE:
                    why = DAMAGED
                else:
                    why = self._check_head(i, h, size)
                    if why is None:
                        why = self._check_body(i, f, h)
        except OSError:
            st[i] = _UNREAD
            self.pending = True
            why = UNREADABLE
        if why is not None:
            if st[i] != _UNREAD:
                st[i] = _BAD
            if why is not _CUT and not quiet:
                self._note(why)
        else:
            st[i] = _GOOD

    def _check_head(self, i, h, size):
        magic, version, hsize, seq, length, crc = struct.unpack(HEADER, h)
        if magic == WRITING:
            return _CUT  # a save that a cut interrupted
        if magic != MAGIC:
            return FOREIGN
        if version != VERSION or hsize != HEADER_SIZE:
            return NEWER
        if size != HEADER_SIZE + length or seq > SEQ_MASK:
            return DAMAGED
        self._seq[i] = seq
        self._len[i] = length
        return None

    def _check_body(self, i, f, h):
        # the payload's CRC, in pieces of the reused buffer
        length = self._len[i]
        buf = self._buf
        mv = memoryview(buf)
        c = crc32(memoryview(h)[:16])
        pc = 0
        n = 0
        while n < length:
            k = f.readinto(mv[:min(len(buf), length - n)])
            if not k:
                break
            c = crc32(mv[:k], c)
            pc = crc32(mv[:k], pc)
            n += k
        if n != length or (c & 0xFFFFFFFF) != struct.unpack('<I', h[16:])[0]:
            return DAMAGED
        self._pcrc[i] = pc & 0xFFFFFFFF
        return None

    def _parse(self, i):
        # The state in good slot i, streamed out of the file (no block of its size)
        try:
            with open(self._paths[i], 'rb') as f:
                f.seek(HEADER_SIZE)
                return json.load(f)
        except MemoryError:
            raise  # not the file's fault: load() says so and leaves the slots alone
        except OSError:
            self._st[i] = _UNREAD
            self.pending = True
            self._note(UNREADABLE)
        except Exception:  # a CRC-clean payload that is not JSON: written by something else
            pass
        return _Unusable

    def _order(self, held=False, skip=0):
        # the good slots, newest first: those not held (or, held=True, only those held), and
        # none of the bits of skip
        out = []
        for i in range(_N):
            if (self._st[i] == _GOOD and ((self._held >> i) & 1) == held
                    and not (skip >> i) & 1):
                k = 0
                while k < len(out) and not newer(self._seq[i], self._seq[out[k]]):
                    k += 1
                out.insert(k, i)
        return out

    def _newest(self):
        # the slot of the newest good state, or -1
        st = self._st
        g = -1
        for i in range(_N):
            if (st[i] == _GOOD and not (self._held >> i) & 1
                    and (g < 0 or newer(self._seq[i], self._seq[g]))):
                g = i
        return g

    def _waiting(self):
        # True while a slot cannot be read, or a held slot's game is not handed over
        if self._hunk:
            return True
        for i in range(_N):
            if self._st[i] == _UNREAD or ((self._held >> i) & 1 and self._st[i] == _GOOD):
                return True
        return False

    def _unread(self):
        if self._hunk:
            return True
        for i in range(_N):
            if self._st[i] == _UNREAD:
                return True
        return False

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

    def load(self, check=None):
        # The newest usable state dict, or None. Never raises for bad data or a broken
        # filesystem; what was ignored is left in self.message. check(state), when given,
        # raises if the caller cannot use state: the slot counts as damaged (and the next save
        # goes there, never over the older good slot). A slot that could not be read leaves
        # self.pending True: see recover().
        self.message = None
        self._check = check
        self.found = None
        self._given = -1
        self._gave = 0
        try:
            self._sweep_temp()
            self._held = self._marked = self._read_held()  # and self._ref, self._hunk
            for i in range(_N):
                self._look(i)
            self._drop_held()
            order = self._order()
            if not order and self._held:
                # only held slots hold a state: the newest is the game to resume
                order = self._order(True)
                self._held = 0
            state = self._first(order, -1)
        except MemoryError:
            # not the data's fault: the slots stay as they are; what could not be loaded is
            # treated as unreadable, so no save overwrites it while it may be the only copy
            self._note(UNREADABLE)
            for i in range(_N):
                if self._st[i] == _GOOD:
                    self._st[i] = _UNREAD
            state = None
        except OSError:
            self._note(UNREADABLE)
            state = None
        self.pending = self._waiting()
        if not self.pending:
            self._reserve()
        return state

    def _drop_held(self):
        # a held slot that is gone or damaged holds no game to hand over, nor one that is not
        # newer than the state the board had when it was held (an older copy)
        st = self._st
        for i in range(_N):
            if (self._held >> i) & 1 and (
                    st[i] == _EMPTY or st[i] == _BAD
                    or st[i] == _GOOD and self._ref >= 0 and not newer(self._seq[i], self._ref)):
                self._held &= ~(1 << i)

    def _first(self, order, since, give=True):
        # The first usable state of the good slots in order (newest first) that is newer than
        # sequence number `since` (-1: any), or None; self._given becomes its number (give).
        # A held slot it returns is held no more.
        check = self._check
        for i in order:
            if since >= 0 and not newer(self._seq[i], since):
                return None
            state = self._parse(i)
            if state is not _Unusable and isinstance(state, dict):
                try:
                    if check is not None:
                        check(state)
                    if give:
                        self._given = self._seq[i]
                    elif self._held:
                        # the held slots it is newer than hold older copies of its game
                        for j in range(_N):
                            if (self._held >> j) & 1 and not newer(self._seq[j], self._seq[i]):
                                self._held &= ~(1 << j)
                    self._held &= ~(1 << i)
                    self._gave |= 1 << i
                    return state
                except MemoryError:
                    raise
                except Exception:
                    pass
            if self._st[i] == _GOOD:
                self._st[i] = _BAD
                self._note(DAMAGED)
            self._held &= ~(1 << i)
        return None

    def recover(self):
        """While self.pending (a slot load() could not read may hold a newer game than the
        one it gave): looks at the unread slots again. Once they read, returns the newest
        usable state newer than what the caller has (None if there is none) and pending is
        False; the caller keeps that game and saves it with its own state. None while they
        still cannot be read. Never raises."""
        found = self.found
        if found is not None:  # a save found it first
            self.found = None
            return found
        if not self.pending:
            return None
        was = 0
        st = self._st
        try:
            if self._hunk:  # the note first: it says which slots hold a game not handed over
                bits = self._read_held()
                if self._hunk:
                    return None
                self._held |= bits
                self._marked = bits
            for i in range(_N):
                if st[i] == _UNREAD:
                    was |= 1 << i
                    self._look(i, True)
            self._drop_held()
            # a held slot that reads: its game was never handed over (its number says
            # nothing against the saves made meanwhile, only against the state held with it)
            state = self._first(self._order(True), -1, False)
            if state is None and not self._unread():
                state = self._first(self._order(False, self._gave), self._given)
                was = 0
        except Exception:  # MemoryError included: still pending, the slots untouched
            state = None
        # A slot that reads now but whose game was not looked at (another slot still cannot
        # be read, or the heap had no room) is as good as unread: never written meanwhile.
        for i in range(_N):
            if ((was >> i) & 1 and st[i] == _GOOD and not ((self._held | self._gave) >> i) & 1
                    and (self._given < 0 or newer(self._seq[i], self._given))):
                st[i] = _UNREAD
        self.pending = self._waiting()
        if not self.pending:
            self._reserve()
        return state

    # -- writing --------------------------------------------------------------------------
    def _fail(self, e):
        self.problem = FULL if _errno(e) == ENOSPC else FLASH_ERROR
        self.written = 0
        return False

    def save(self, state):
        # Puts state on flash (see the header comment for which slot); True when it is there,
        # else False with self.problem set. The state must be JSON-able: CPython raises
        # TypeError before any file is touched; MicroPython's json writes an object's repr,
        # which load() rejects as damaged (falling back to the state before).
        st = self._st
        for i in range(_N):
            if st[i] == _UNSEEN:
                self._look(i, True)
        if self.pending and self.found is None:
            self.found = self.recover()
        if self.found is not None:
            # a game found in a slot that could not be read before: nothing is written until
            # the caller has taken it (recover()) and saves it with its own state
            self.problem = FOUND
            self.written = 0
            return False
        if self._hunk:
            # the note of the held slots is there but cannot be read: any slot may be one
            self.problem = FLASH_ERROR
            self.written = 0
            return False
        held = self._held
        for i in range(_N):
            if st[i] == _UNREAD:
                held |= 1 << i  # never written, until read and its game handed over
        length = self._buffered(state)
        if length >= 0:
            payload = _BUF
            pcrc = self._crc_out(length, 0)
        else:
            payload = _one_block(state)
            if payload is not None:
                length = len(payload)
                pcrc = crc32(payload) & 0xFFFFFFFF
            else:
                length, pcrc = _stream(state)[:2]
        g = self._newest()
        if g >= 0:
            if self._len[g] == length and self._pcrc[g] == pcrc and self._same(g, state, payload):
                self.problem = None
                self.written = 0
                return True
            seq = (self._seq[g] + 1) & SEQ_MASK
        else:
            seq = 0
        if failing():
            self.problem = FLASH_ERROR
            self.written = 0
            return False
        old = self._held
        self._held = held
        n = self._targets(g)
        if n == 0 or (held != self._marked and held and not self._mark(
                held, self._ref if self._marked else self._given)):
            # no slot to write beside the unread ones, or no note of them on flash: a later
            # boot could take the saves made now for newer than the game it could not read
            self._held = old
            self.problem = FLASH_ERROR
            self.written = 0
            return False
        err = None
        full = False
        # the other slot, then the alternate names (where a slot's name is taken), g last
        # (rule 3); a slot that could not be opened before is still tried in its turn, so
        # the saves go back to it once it can be written
        tg = self._tg
        for k in range(n):
            t = tg[k]
            try:
                f = open(self._paths[t], 'wb')
            except OSError as e:
                if _errno(e) == ENOSPC:
                    if full or not self._give_up_reserve():
                        return self._fail(e)
                    full = True
                    try:
                        f = open(self._paths[t], 'wb')
                    except OSError as e2:
                        if _errno(e2) == ENOSPC:
                            return self._fail(e2)
                        self._stuck[t] = True
                        err = e2
                        continue
                else:
                    self._stuck[t] = True  # a directory there, or refused: try the next
                    err = e
                    continue
            self._stuck[t] = False
            st[t] = _BAD  # truncated: whatever it held is gone
            try:
                with f:
                    self._write(f, state, payload, seq, length, pcrc)
            except OSError as e:
                keep(f, e)  # see KEEP: never let littlefs lose this file's memory
                if _errno(e) != ENOSPC or full or not self._give_up_reserve():
                    return self._fail(e)
                full = True
                # the reserve is free now: the same slot again (it is truncated already)
                try:
                    f = open(self._paths[t], 'wb')
                    with f:
                        self._write(f, state, payload, seq, length, pcrc)
                except OSError as e2:
                    keep(f, e2)
                    return self._fail(e2)
            st[t] = _GOOD
            self._seq[t] = seq
            self._len[t] = length
            self._pcrc[t] = pcrc
            self._given = seq
            self.problem = None
            self.written = HEADER_SIZE + length
            if self._marked and not self._held:
                self._mark(0)  # every held game is handed over and saved with this state
            if not self._rsv and not full:
                self._reserve()
            return True
        return self._fail(err)

    def _targets(self, g):
        # The slots a save may write, in order, into self._tg (reused: nothing allocated);
        # returns how many: the other primary slot, the alternates, and the newest (g) last;
        # where there is no newest slot, a slot that could not be opened for writing comes
        # after the others
        tg = self._tg
        held = self._held
        n = 0
        for i in range(_N):
            if i != g and (g >= 0 or not self._stuck[i]) and not (held >> i) & 1:
                tg[n] = i
                n += 1
        if g < 0:
            for i in range(_N):
                if self._stuck[i] and not (held >> i) & 1:
                    tg[n] = i
                    n += 1
        else:
            tg[n] = g
            n += 1
        return n

    # -- the buffered save (see _BUF_MAX) ---------------------------------------------------
    def _buffered(self, state):
        # The state's JSON into the kept BytesIO: its length, or -1 (save it another way)
        if not (_ONE_BLOCK and _BUFFERS):
            return -1
        out = self._out
        try:
            if out is None or self._cap < self._want:
                self._out = None
                self._cap = self._want
                out = self._out = io.BytesIO(self._cap)
            out.seek(0)
            _dump(state, out)
            n = out.tell()
        except MemoryError:
            n = _BUF_MAX + 1
        if n > _BUF_MAX:
            self._out = None  # a long game: its RAM is not kept
            self._want = _BUF_START
            return -1
        if n + _CHUNK > self._cap:
            self._want = self._cap * 2  # the next save gets room to grow into, in one block
        return n

    def _piece(self, n, length):
        # The next piece of the buffered payload, from byte n of length: the reused buffer, or
        # a view of its first bytes for the last, short piece
        left = length - n
        if left >= _CHUNK:
            self._out.readinto(self._obuf)
            return self._obuf
        mv = self._omv[:left]
        self._out.readinto(mv)
        return mv

    def _crc_out(self, length, c):
        # the CRC of the buffered payload, carried on from c
        self._out.seek(0)
        n = 0
        while n < length:
            b = self._piece(n, length)
            c = crc32(b, c)
            n += len(b)
        return c & 0xFFFFFFFF

    def _same_out(self, f, length):
        # True if file f, from here on, holds exactly the buffered payload
        self._out.seek(0)
        n = 0
        while n < length:
            b = self._piece(n, length)
            k = len(b)
            mine = self._buf if k == _CHUNK else self._bmv[:k]
            if f.readinto(mine) != k or mine != b:
                return False
            n += k
        return not f.read(1)

    def _write(self, f, state, payload, seq, length, pcrc):
        # A full filesystem may take fewer bytes than asked without raising: ENOSPC then.
        hdr = self._hdr
        if payload is _BUF:  # as the one-block save: the header (CRC and all), the payload
            struct.pack_into(HEADER, hdr, 0, MAGIC, VERSION, HEADER_SIZE, seq, length, 0)
            struct.pack_into('<I', hdr, 16, self._crc_out(length, crc32(self._hdr16)))
            if f.write(hdr) != HEADER_SIZE:
                raise OSError(ENOSPC)
            self._out.seek(0)
            n = 0
            while n < length:
                b = self._piece(n, length)
                if f.write(b) != len(b):
                    raise OSError(ENOSPC)
                n += len(b)
            return
        if payload is not None:  # the whole slot in order: header (CRC and all), payload
            struct.pack_into(HEADER, hdr, 0, MAGIC, VERSION, HEADER_SIZE, seq, length, 0)
            crc = crc32(payload, crc32(self._hdr16)) & 0xFFFFFFFF
            struct.pack_into('<I', hdr, 16, crc)
            if f.write(hdr) != HEADER_SIZE or f.write(payload) != length:
                raise OSError(ENOSPC)
            return
        # streamed: the CRC is known once the payload is written, so the real header goes last
        struct.pack_into(HEADER, hdr, 0, WRITING, VERSION, HEADER_SIZE, seq, length, 0)
        if f.write(hdr) != HEADER_SIZE:
            raise OSError(ENOSPC)
        hdr[:4] = MAGIC
        start = crc32(self._hdr16)
        n, pc, crc, short = _stream(state, f, start)
        if short:
            raise OSError(ENOSPC)
        if n != length or pc != pcrc:
            raise OSError(EIO)  # the state changed while it was written: not kept
        struct.pack_into('<I', hdr, 16, crc)
        f.seek(0)
        if f.write(hdr) != HEADER_SIZE:
            raise OSError(ENOSPC)

    def _same(self, i, state, payload):
        # True if good slot i's payload is byte for byte the JSON of state
        try:
            with open(self._paths[i], 'rb') as f:
                f.seek(HEADER_SIZE)
                if payload is _BUF:
                    return self._same_out(f, self._len[i])
                if payload is not None:
                    k = 0
                    mv = memoryview(self._buf)
                    pv = memoryview(payload)
                    while k < len(pv):
                        n = f.readinto(mv)
                        if not n or mv[:n] != pv[k:k + n]:
                            return False
                        k += n
                    return not f.read(1)
                out = _Same(f)
                _dump(state, out)
                return out.same and not f.read(1)
        except OSError:
            return False

    def clear(self):
        # Remove our files (the slots, the reserve and any temp file); never raises.
        for n in _NAMES + (RESERVE_NAME, HELD_NAME):
            try:
                os.remove(self.path(n))
            except OSError:
                pass
        self._sweep_temp()
        self._st = [_UNSEEN] * _N
        self._stuck = [False] * _N
        self._rsv = False
        self.pending = False
        self.found = None
        self._given = -1
        self._held = self._marked = 0
        self._ref = -1
        self._hunk = False

    # -- the held note (HELD_NAME) -----------------------------------------------------------
    def _read_held(self):
        # the held bits on flash (0: none), self._ref set from the note; self._hunk while the
        # note is there but cannot be read
        self._ref = -1
        self._hunk = False
        try:
            with open(self.path(HELD_NAME), 'rb') as f:
                b = f.read(16)
            if len(b) == 9 and b[:4] == HELD_MAGIC:
                ref = struct.unpack('<I', b[5:9])[0]
                self._ref = ref if ref <= SEQ_MASK else -1
                return b[4] & 15
        except OSError as e:
            if _errno(e) != ENOENT:
                self._hunk = True
        return 0

    def _mark(self, bits, ref=-1):
        # Puts the held bits and ref on flash (bits 0: the note goes); True when it is there.
        p = self.path(HELD_NAME)
        if not bits:
            try:
                os.remove(p)
            except OSError:
                pass
            self._marked = 0
            self._ref = -1
            return True
        f = None
        try:
            f = open(p, 'wb')
            with f:
                hdr = self._hdr
                hdr[:4] = HELD_MAGIC
                hdr[4] = bits
                struct.pack_into('<I', hdr, 5, ref if ref >= 0 else 0xFFFFFFFF)
                if f.write(memoryview(hdr)[:9]) != 9:
                    raise OSError(ENOSPC)
            self._marked = bits
            self._ref = ref
            return True
        except (OSError, MemoryError) as e:  # a test's PowerCut goes through
            if f is not None:
                keep(f, e)
            return False

    # -- the reserve (RESERVE) --------------------------------------------------------------
    def _reserve(self):
        # Puts the reserve file in place if it is not, where the flash has room for it and
        # a save besides; never raises. Called after a load and after a save.
        p = self.path(RESERVE_NAME)
        try:
            s = os.stat(p)
            if s[6] >= RESERVE:
                self._rsv = True
                return
        except OSError:
            pass
        self._rsv = False
        try:
            if _free(self.root) < 2 * RESERVE:
                return  # no room to spare: the saves have it
        except Exception:
            return
        f = None
        try:
            f = open(p, 'wb')
            with f:
                b = self._buf
                for k in range(len(b)):
                    b[k] = 0
                n = 0
                while n < RESERVE:
                    if f.write(b) != len(b):
                        raise OSError(ENOSPC)
                    n += len(b)
            self._rsv = True
        except (OSError, MemoryError) as e:
            if f is not None:
                keep(f, e)
            try:
                os.remove(p)
            except OSError:
                pass

    def _give_up_reserve(self):
        # The flash is full: the reserve file goes, so that the game is saved. True if there
        # was one to give up.
        try:
            os.remove(self.path(RESERVE_NAME))
        except OSError:
            self._rsv = False
            return False
        self._rsv = False
        return True
