# A RAM block device for the real littlefs and FAT drivers (os.VfsLfs2, os.VfsFat), with the
# counters the wear arithmetic needs and a power cut that can strike at any block write.
#
# It speaks the extended block protocol: littlefs calls readblocks(n, buf, off) and
# writeblocks(n, buf, off) to program part of an erased block, and erases through ioctl(6, n);
# FAT calls readblocks(n, buf) / writeblocks(n, buf) for whole 512-byte sectors.
# A "block write" (the unit a power cut strikes) is one block of a whole-block write, or one
# `page` of a littlefs program (256 bytes on an RP2040: its flash programs page by page, so a
# cut can land between the pages of one call).
# Runs unchanged under MicroPython and CPython (only the filesystem helpers need MicroPython).
import os

try:
    import vfs as _vfs
except ImportError:
    _vfs = os

from scoreboard.compat import const

# consts, not a tuple built per call: ioctl may run in a GC finaliser, where nothing allocates
IOCTL_INIT = const(1)
IOCTL_DEINIT = const(2)
IOCTL_SYNC = const(3)
IOCTL_COUNT = const(4)
IOCTL_SIZE = const(5)
IOCTL_ERASE = const(6)

LFS_BLOCK = 4096  # an RP2040's flash sector
LFS_PAGE = 256  # its program page, and the progsize ports/rp2/modules/_boot.py gives littlefs
FAT_BLOCK = 512


def _copy(dst, doff, src, soff, n):
    # byte by byte: a for-range loop allocates nothing, so this works with the heap locked
    for i in range(n):
        dst[doff + i] = src[soff + i]


class PowerCut(Exception):
    pass


class RAMBlockDev:
    # cut_at(n, tear=False): the next n block writes succeed, the one after (index n from now,
    # so cut_at(0) cuts the very next) is cut: with tear=True its first half reaches the
    # device (an int tear: that many bytes), else none of it. The image at that moment is kept
    # (after_cut() is a new device over it) and PowerCut is raised; every further write or
    # erase raises PowerCut too, until restore().
    # A test should restore() as soon as it caught the cut: a file the cut left open is closed
    # again later by a GC finaliser, where the heap is locked and not even a raise can be
    # allocated. Writes after restore() land on this device, never in the after_cut() image.
    def __init__(self, block_size=LFS_BLOCK, count=64, data=None, page=None):
        self.block_size = block_size
        self.count = count
        self.page = page  # split programs (writes with an offset) into events of this size
        self._erased = b'\xff' * block_size  # made once: an erase may run in a finaliser
        if data is None:  # erased flash; one buffer of the device's size, no temporary
            self.data = bytearray(block_size * count)
            for b in range(count):
                self.data[b * block_size:(b + 1) * block_size] = self._erased
        else:
            if len(data) != block_size * count:
                raise ValueError('image size')
            self.data = bytearray(data)
        self._cut = -1
        self._tear = False
        self.dead = False
        self.cut_image = None  # the bytes as the last cut left them
        self._cut_buf = None  # its buffer, made at the first cut and reused
        self.journal = None  # a list while recording: (address, bytes) writes, (-1, block) erases
        self.wear = None  # per block, after track_wear(): erases (littlefs) or writes (FAT)
        self.reset_counters()

    def track_wear(self):
        # Count per block what wears it: an erase, or a whole-block write (FAT: on an SD card
        # that is a program; on raw NOR flash it would be an erase of the sector holding it).
        self.wear = [0] * self.count
        return self.wear

    def reset_counters(self):
        self.writes = 0  # block write events
        self.bytes_written = 0
        self.erases = 0
        self.reads = 0
        self.bytes_read = 0

    def counters(self):
        return {'writes': self.writes, 'bytes_written': self.bytes_written,
                'erases': self.erases, 'reads': self.reads, 'bytes_read': self.bytes_read}

    # -- power ----------------------------------------------------------------------------
    def cut_at(self, n, tear=False):
        if n < 0:
            raise ValueError('n')
        self._cut = n
        self._tear = tear
        self.cut_image = None

    def restore(self):
        self._cut = -1
        self._tear = False
        self.dead = False

    # -- journal --------------------------------------------------------------------------
    # A power cut at write g leaves exactly writes 0..g-1 on the device: the code ran the same
    # way up to there, and nothing after it reaches the flash. So one uncut run, recorded,
    # gives the device image for a cut at every write: a prefix of the journal (see Replay).
    def record(self):
        self.journal = []
        return self.journal

    def stop_recording(self):
        j = self.journal
        self.journal = None
        return j

    # -- images ---------------------------------------------------------------------------
    def snapshot(self):
        return bytes(self.data)

    def clone(self):
        # a new device over a copy of the bytes: powered, counters at zero
        return RAMBlockDev(self.block_size, self.count, self.data, self.page)

    def after_cut(self, into=None):
        # a device over the bytes as the last cut left them (a new one, or `into` reloaded)
        if self.cut_image is None:
            raise ValueError('no cut happened')
        if into is not None:
            return into.load_image(self.cut_image)
        return RAMBlockDev(self.block_size, self.count, self.cut_image, self.page)

    def load_image(self, image):
        # become a powered device over a copy of image, counters at zero; in place, so that a
        # long sweep reuses a few buffers instead of fragmenting the heap. Returns self.
        if len(image) != len(self.data):
            raise ValueError('image size')
        self.data[:] = image
        self.restore()
        self.cut_image = None
        self.journal = None
        self.reset_counters()
        return self

    # -- block protocol -------------------------------------------------------------------
    def readblocks(self, n, buf, off=0):
        a = n * self.block_size + off
        ln = len(buf)
        if n < 0 or off < 0 or a + ln > len(self.data):
            raise OSError(5)  # EIO
        try:
            buf[:] = self.data[a:a + ln]
        except MemoryError:  # in a GC finaliser (see cut_at): copy without allocating
            _copy(buf, 0, self.data, a, ln)
        self.reads += 1
        self.bytes_read += ln

    def writeblocks(self, n, buf, off=None):
        if self.dead:
            raise PowerCut('power is off')
        bs = self.block_size
        ln = len(buf)
        if off is None:  # whole blocks, erase implied (FAT)
            a = n * bs
            if n < 0 or ln % bs or a + ln > len(self.data):
                raise OSError(5)
            step = bs
        else:  # a program inside one erased block (littlefs)
            a = n * bs + off
            if n < 0 or off < 0 or off + ln > bs or a + ln > len(self.data):
                raise OSError(5)
            step = self.page or ln
        i = 0
        while i < ln:
            k = min(step, ln - i)
            try:
                chunk = memoryview(buf)[i:i + k]
            except MemoryError:  # in a GC finaliser, after restore(): no cut, no journal
                _copy(self.data, a + i, buf, i, k)
                self.writes += 1
                self.bytes_written += k
            else:
                self._put(a + i, chunk)
            i += k
        return 0

    def _put(self, a, chunk):
        if self.dead:  # the rest of a multi-block write after the cut
            raise PowerCut('power is off')
        ln = len(chunk)
        if self._cut == 0:
            self._cut = -1
            self.dead = True
            t = self._tear
            part = 0 if t is False else (ln // 2 if t is True else min(t, ln))
            if part:
                self.data[a:a + part] = chunk[:part]
                self.bytes_written += part
            if self._cut_buf is None:
                self._cut_buf = bytearray(len(self.data))
            self._cut_buf[:] = self.data
            self.cut_image = self._cut_buf
            raise PowerCut('cut at a block write')
        if self._cut > 0:
            self._cut -= 1
        self.data[a:a + ln] = chunk
        self.writes += 1
        self.bytes_written += ln
        if self.wear is not None and self.page is None:
            self.wear[a // self.block_size] += 1
        if self.journal is not None:
            self.journal.append((a, bytes(chunk)))

    def ioctl(self, op, arg):
        if op == IOCTL_COUNT:
            return self.count
        if op == IOCTL_SIZE:
            return self.block_size
        if op == IOCTL_ERASE:
            if self.dead:
                raise PowerCut('power is off')
            if arg < 0 or arg >= self.count:
                return -5  # -EIO
            a = arg * self.block_size
            self.data[a:a + self.block_size] = self._erased
            self.erases += 1
            if self.wear is not None:
                self.wear[arg] += 1
            if self.journal is not None:
                self.journal.append((-1, arg))
            return 0
        if op == IOCTL_INIT or op == IOCTL_DEINIT or op == IOCTL_SYNC:
            return 0
        return None


class Replay:
    # Walks a recorded journal over a copy of the image it started from. advance(g) applies
    # entries until g writes are on the device, erases in between included (they happened
    # before write g); image(tear) is a device as a cut at write g leaves it: without write g,
    # or (tear) with its first half.
    def __init__(self, dev, start_image, journal, into=None):
        # into: a device to reuse as the working copy (reloaded in place), else a new one
        if into is None:
            self.dev = RAMBlockDev(dev.block_size, dev.count, start_image, dev.page)
        else:
            self.dev = into.load_image(start_image)
        self.journal = journal
        self._i = 0
        self.done = 0  # writes applied

    def advance(self, g):
        j = self.journal
        data = self.dev.data
        bs = self.dev.block_size
        while self._i < len(j):
            a, x = j[self._i]
            if a < 0:
                data[x * bs:(x + 1) * bs] = self.dev._erased
            elif self.done < g:
                data[a:a + len(x)] = x
                self.done += 1
            else:
                break
            self._i += 1

    def image(self, tear=False, into=None):
        d = self.dev.clone() if into is None else into.load_image(self.dev.data)
        if tear and self._i < len(self.journal):
            a, x = self.journal[self._i]
            if a >= 0:
                part = len(x) // 2 if tear is True else min(tear, len(x))
                d.data[a:a + part] = x[:part]
        return d


def writes_in(journal):
    return len([1 for e in journal if e[0] >= 0])


# -- filesystems (MicroPython only) -------------------------------------------------------
def lfs_device(count=32, block_size=LFS_BLOCK, page=LFS_PAGE):
    return RAMBlockDev(block_size, count, page=page)


def fat_device(count=256, block_size=FAT_BLOCK):
    return RAMBlockDev(block_size, count)


def format_lfs(dev, progsize=LFS_PAGE):
    os.VfsLfs2.mkfs(dev, progsize=progsize)


def format_fat(dev):
    os.VfsFat.mkfs(dev)


def format_fs(dev, kind, progsize=LFS_PAGE):
    if kind == 'lfs':
        format_lfs(dev, progsize)
    elif kind == 'fat':
        format_fat(dev)
    else:
        raise ValueError('kind')


class Gate:
    """The wires between one mount and a device. A test that boots again over the same device
    shuts the previous gate first: a file that a power cut left open is closed later by the
    garbage collector, whenever it runs (MicroPython's collector is conservative, so that may
    be long after a gc.collect()), and its close must not write to the device the next boot
    is using. A shut gate answers like a device without power (EIO)."""

    def __init__(self, dev):
        self.dev = dev
        self.open = True

    def readblocks(self, n, buf, off=0):
        if not self.open:
            raise OSError(5)
        return self.dev.readblocks(n, buf, off)

    def writeblocks(self, n, buf, off=None):
        if not self.open:
            raise OSError(5)
        if off is None:
            return self.dev.writeblocks(n, buf)
        return self.dev.writeblocks(n, buf, off)

    def ioctl(self, op, arg):
        if not self.open:
            return -5
        return self.dev.ioctl(op, arg)

    def shut(self):
        self.open = False


def make_vfs(dev, kind, progsize=LFS_PAGE):
    if kind == 'lfs':
        return os.VfsLfs2(dev, progsize=progsize)
    if kind == 'fat':
        return os.VfsFat(dev)
    raise ValueError('kind')


def mount(dev, kind, path, progsize=LFS_PAGE):
    # a fresh VFS object over the device, mounted at path; returns it
    fs = make_vfs(dev, kind, progsize)
    _vfs.mount(fs, path)
    return fs


def umount(path):
    # never raises: nothing may be mounted there, or the device may be "without power"
    try:
        _vfs.umount(path)
    except Exception:
        pass


class FaultDev(RAMBlockDev):
    # A RAM block device that fails on demand, the ways real flash does. fail_writes(count,
    # skip, how): after `skip` more writes (programs and erases alike), the next `count` fail,
    # either returning an error (how='return': -EIO, what littlefs and FAT get from a driver
    # that reports errors) or raising OSError(EIO) (how='raise', as esp32.Partition does).
    # fail_reads() does the same to reads; heal() ends both. `failed` counts the failures.
    def __init__(self, block_size=LFS_BLOCK, count=64, data=None, page=None):
        RAMBlockDev.__init__(self, block_size, count, data, page)
        self._w = None  # [skip, count, how] while writes are to fail
        self._r = None
        self.failed = 0

    def fail_writes(self, count=1, skip=0, how='return'):
        self._w = [skip, count, how]

    def fail_reads(self, count=1, skip=0, how='return'):
        self._r = [skip, count, how]

    def heal(self):
        self._w = self._r = None

    def _fault(self, spec):
        # None: go ahead; else the error code to return (or it raises)
        if spec is None:
            return None
        if spec[0] > 0:
            spec[0] -= 1
            return None
        if spec[1] <= 0:
            return None
        spec[1] -= 1
        self.failed += 1
        if spec[2] == 'raise':
            raise OSError(5)
        return -5

    def readblocks(self, n, buf, off=0):
        r = self._fault(self._r)
        if r is not None:
            return r
        return RAMBlockDev.readblocks(self, n, buf, off)

    def writeblocks(self, n, buf, off=None):
        r = self._fault(self._w)
        if r is not None:
            return r
        return RAMBlockDev.writeblocks(self, n, buf, off)

    def ioctl(self, op, arg):
        if op == IOCTL_ERASE:
            r = self._fault(self._w)
            if r is not None:
                return r
        return RAMBlockDev.ioctl(self, op, arg)


def fault_device(kind, count=None):
    # a formatted FaultDev shaped like lfs_device() / fat_device()
    if kind == 'lfs':
        dev = FaultDev(LFS_BLOCK, count or 16, page=LFS_PAGE)
    else:
        dev = FaultDev(FAT_BLOCK, count or 160)
    format_fs(dev, kind)
    return dev
