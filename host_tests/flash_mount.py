# The store tests' flash (test_store_faults, test_store_lost, test_store_powercut), on either
# interpreter: the real littlefs and FAT drivers (os.VfsLfs2, os.VfsFat) over the virtual
# flash's RAM block devices (tools/virtual/flash.py), mounted afresh as after a power-up, a
# flash filled by other files, and, under CPython, a whole test file run under the MicroPython
# unix port (mp_run.py). No pytest here but in the CPython-only run_in_micropython().
import os

KINDS = ('lfs', 'fat')


def have_vfs():
    return hasattr(os, 'VfsLfs2') and hasattr(os, 'VfsFat')


def flash():
    from virtual import flash
    return flash


class Mount:
    """One mount point, one device at a time: mount() is a power-up (a fresh VFS over the
    device); the previous mount's gate is shut, so nothing it left open can write to the device
    again (see flash.Gate)."""

    def __init__(self, mnt):
        self.mnt = mnt
        self.gate = None
        self.graveyard = []

    def mount(self, dev, kind):
        import gc
        fl = flash()
        fl.umount(self.mnt)
        if self.gate is not None:
            self.gate.shut()
        gc.collect()
        self.gate = fl.Gate(dev)
        fl.mount(self.gate, kind, self.mnt)

    def store(self, dev, kind):
        """mount(), then a new Store on it."""
        from scoreboard.store import Store
        self.mount(dev, kind)
        return Store(self.mnt)

    def started(self, kind, *saves):
        """A new fault device of `kind` (flash.fault_device) mounted, a Store on it loaded
        (empty), then each of `saves` saved; returns (device, store)."""
        dev = flash().fault_device(kind)
        st = self.store(dev, kind)
        st.load()
        for state in saves:
            st.save(state)
        return dev, st

    def done(self):
        import gc
        from scoreboard import store
        flash().umount(self.mnt)
        if self.gate is not None:
            self.gate.shut()
        # The files a failed save kept (store.KEEP) belong to a mount that is gone now; the
        # next test starts with none kept, but they stay alive here: freed, littlefs could
        # still walk into them from a finaliser (closing one through a shut gate raises again).
        self.graveyard.extend(store._kept)
        store._kept[:] = []
        gc.collect()


class Refused:
    """with Refused(name, modes, err): the store's open() raises OSError(err) (EIO unless
    told) for a file whose path ends in `name`, opened in any mode or (`modes`) in a mode with
    one of these letters: a file the filesystem will not open. After it, the real open()."""

    def __init__(self, name, modes=None, err=5):
        self.name = name
        self.modes = modes
        self.err = err

    def __enter__(self):
        from scoreboard import store
        real = open

        def refusing(p, mode='r'):
            if p.endswith(self.name) and (self.modes is None or
                                          [c for c in self.modes if c in mode]):
                raise OSError(self.err)
            return real(p, mode)
        store.open = refusing

    def __exit__(self, *exc):
        from scoreboard import store
        del store.open


def fill(root, tag='fill'):
    """Other files fill the filesystem until not even a small one goes in (each written and
    closed on its own: littlefs commits a file only when it closes); returns the bytes that
    did."""
    n = 0
    i = 0
    for size in (2048, 512, 64, 8):
        chunk = b'x' * size
        while True:
            i += 1
            try:
                with open(root + '/%s%d' % (tag, i), 'wb') as f:
                    if f.write(chunk) != size:
                        break
            except OSError:
                break
            n += size
    return n


def unfill(root, tag='fill'):
    """The space back: the files fill() wrote go."""
    for n in os.listdir(root):
        if n.startswith(tag):
            os.remove(root + '/' + n)


def run_in_micropython(fname, names, show=False):
    """Under CPython (pytest): run the test file `fname` under the MicroPython unix port
    (mp_run.py) and check that every test of it (`names`: its module's globals) passed; skipped
    without the port in .venv, and where `make test` runs the file under the port itself
    (MP_SUITE in the environment). Returns what it printed (written out too with `show`)."""
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    mp = os.path.join(os.path.dirname(here), '.venv', 'bin', 'micropython')
    if not os.path.exists(mp):
        import pytest
        pytest.skip('no MicroPython unix port in .venv')
    if os.environ.get('MP_SUITE'):
        import pytest
        pytest.skip('make test runs this file under the MicroPython unix port itself')
    # the heap `make test-micropython` gives: the sweeps hold several flash images
    r = subprocess.run([mp, '-X', 'heapsize=8M', os.path.join(here, 'mp_run.py'), fname],
                       cwd=here, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    if show:
        sys.stdout.write(out)   # shown by pytest -s or on failure
    assert r.returncode == 0, out[-3000:]
    n = len([k for k in names if k.startswith('test_')])
    assert 'micropython: %d passed, 0 failed' % n in out, out[-3000:]
    return out
