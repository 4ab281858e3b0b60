# A power cut at every block write of every save, on the real littlefs and FAT drivers
# (os.VfsLfs2, os.VfsFat) over a RAM block device, under the MicroPython unix port.
# After each cut the device bytes are remounted on a new VFS object and the store must give
# back the state before the save or the state it was saving: never anything else, never None.
# Under CPython the same sweep runs in a MicroPython subprocess (test_sweep_in_micropython).
# SWEEP=long widens it (more saves) for `make fuzz`.
# runs-on: micropython
import os

import flash_mount as fm
from scoreboard import store
from scoreboard.store import Store
from test_store import game_state

MNT = '/pc'
_at = fm.Mount(MNT)


def _long():
    try:
        return os.getenv('SWEEP') == 'long'
    except AttributeError:  # a port without getenv
        return False


def _saves():
    # frame counts of the saves in the sweep: a game growing frame by frame, 100 frames
    # (SWEEP=long: 250, past anything a real game reaches)
    return list(range(251 if _long() else 101))


def _tears():
    # how much of the cut write lands: none, half (True), or (SWEEP=long) so many bytes
    if _long():
        return (False, True, 1, 64, 200, 400)
    return (False, True)


def _device(kind):
    flash = fm.flash()
    dev = flash.lfs_device(16) if kind == 'lfs' else flash.fat_device(160)
    flash.format_fs(dev, kind)
    return dev


_boot = _at.store    # a fresh VFS and Store over the device at MNT, as after a power-up


def _save_cut(st, state, dev, into):
    # The save is cut (PowerCut out of save()); power comes back at once so that the files
    # the cut left open close quietly on this device. `into` becomes the device after the
    # cut: the bytes as the cut left them.
    import gc
    flash = fm.flash()
    try:
        st.save(state)
    except flash.PowerCut:
        dev.restore()
    else:
        raise AssertionError('the save finished despite the cut')
    cut = dev.after_cut(into)
    # The image is taken; now let the files the cut left open close, on this restored device
    # and while its mount is still there, so that they are not closed at some later moment.
    gc.collect()
    return cut


def _check(got, before, after, where):
    if got == after:
        return 1
    if got == before:  # None only while the first save is being cut
        return 0
    raise AssertionError('%s: got %r' % (where, None if got is None else got.get('game')))


def sweep_by_cut(kind, frames):
    import gc
    # cut_at on a device booted from the image before each save; checks the recovery too:
    # after the cut a new save goes through and is the one loaded. Three work devices are
    # reloaded in place (load_image) for every cut point.
    flash = fm.flash()
    tears = _tears()
    base = _device(kind)
    work, after, again = base.clone(), base.clone(), base.clone()
    prev = None
    points = newer = 0
    for f in frames:
        state = game_state(f)
        st = _boot(work.load_image(base.data), kind)
        assert st.load() == prev
        # Count only the save's own writes: a file that an earlier cut left open may be closed
        # by the collector while booting, and its writes are not part of this save.
        gc.collect()
        w0 = work.writes
        st.save(state)
        width = work.writes - w0
        assert width > 0
        for k in range(width):
            for tear in tears:
                st = _boot(work.load_image(base.data), kind)
                st.load()
                gc.collect()            # no stale file closes inside the cut save
                work.cut_at(k, tear)
                _save_cut(st, state, work, after)
                st = _boot(after, kind)
                got = st.load()
                where = '%s save %d cut %d tear %s' % (kind, f, k, tear)
                newer += _check(got, prev, state, where)
                # a slot the cut left half-written is expected, not damage (issue 11, 8)
                assert st.message is None, (where, st.message)
                points += 1
                st.save(state)
                st = _boot(again.load_image(after.data), kind)
                assert st.load() == state, (kind, f, k, tear, 'recovery')
        # the uncut save becomes the base of the next
        st = _boot(base, kind)
        st.load()
        st.save(state)
        prev = state
    flash.umount(MNT)
    return points, newer


def sweep_by_journal(kind, frames):
    # The board never reboots: all the saves run on one mounted filesystem. Each save is
    # recorded; a cut at its write g leaves the image before the save plus the journal's first
    # g writes (see flash.Replay), which is mounted elsewhere, on a new VFS, and loaded.
    import gc
    flash = fm.flash()
    tears = _tears()
    main = '/pcm'
    flash.umount(main)
    gc.collect()
    dev = _device(kind)
    before_img = bytearray(dev.data)
    work, scratch = dev.clone(), dev.clone()
    flash.mount(dev, kind, main)
    st = Store(main)
    assert st.load() is None
    before = None
    points = newer = 0
    for f in frames:
        after = game_state(f)
        before_img[:] = dev.data
        journal = dev.record()
        st.save(after)
        dev.stop_recording()
        rp = flash.Replay(dev, before_img, journal, work)
        width = flash.writes_in(journal)
        for g in range(width + 1):
            rp.advance(g)
            for tear in (tears if g < width else (False,)):
                bst = _boot(rp.image(tear, scratch), kind)
                got = bst.load()
                if g == width:  # the journal replays to what the board holds
                    assert got == after, (kind, f, 'uncut')
                    continue
                where = '%s journal save %d write %d tear %s' % (kind, f, g, tear)
                newer += _check(got, before, after, where)
                assert bst.message is None, (where, bst.message)
                points += 1
        before = after
    flash.umount(MNT)
    flash.umount(main)
    return points, newer


def _sweep(sweep, kind, how):
    # one sweep over the saves of _saves(), its count of cut points printed (as the CPython
    # side of test_sweep_in_micropython reads them)
    if not fm.have_vfs():
        return
    p, n = sweep(kind, _saves())
    print('store sweep %s %s: %d cut points, %d gave the new state' % (kind, how, p, n))
    assert p > 0


def test_power_cut_at_every_write_lfs():
    _sweep(sweep_by_cut, 'lfs', 'reboot-then-save')


def test_power_cut_at_every_write_fat():
    _sweep(sweep_by_cut, 'fat', 'reboot-then-save')


def test_power_cut_in_continuous_play_lfs():
    _sweep(sweep_by_journal, 'lfs', 'continuous')


def test_power_cut_in_continuous_play_fat():
    _sweep(sweep_by_journal, 'fat', 'continuous')


def test_store_rules_on_fat():
    # every test of test_store.py (run there on littlefs) again on FAT
    if not fm.have_vfs():
        return
    import test_store
    test_store.KIND[0] = 'fat'
    try:
        names = [n for n in dir(test_store) if n.startswith('test_')]
        names.sort()
        for n in names:
            getattr(test_store, n)()
    finally:
        test_store.KIND[0] = 'lfs'
        fm.flash().umount('/st')


def test_power_cut_in_streamed_saves():
    # the saves a fragmented heap makes (the JSON streamed into the file, no payload block):
    # every write of every tenth save, on both filesystems
    if not fm.have_vfs():
        return
    store._ONE_BLOCK = False
    try:
        for kind in fm.KINDS:
            p, n = sweep_by_cut(kind, list(range(0, 101, 10)))
            print('store sweep %s streamed saves: %d cut points, %d gave the new state'
                  % (kind, p, n))
            assert p >= 11 * 2 and n > 0
    finally:
        store._ONE_BLOCK = True


def test_full_filesystem_keeps_the_last_state():
    if not fm.have_vfs():
        return
    for one_block in (True, False):
        store._ONE_BLOCK = one_block
        try:
            _full_filesystem()
        finally:
            store._ONE_BLOCK = True


def _full_filesystem():
    flash = fm.flash()
    for kind in fm.KINDS:
        dev = _device(kind)
        st = _boot(dev, kind)
        st.load()
        assert st.save(game_state(10)) is True
        assert st.save(game_state(11)) is True
        fm.fill(MNT)
        # a save too big for what is left (the store's reserve, issue 25, included) fails
        # cleanly, without raising
        got = st.save(game_state(3000))
        assert got is False, (kind, 'the filesystem was not full')
        assert st.problem == store.FULL, (kind, st.problem)
        back = _boot(dev.clone(), kind).load()
        assert back == game_state(11), kind
        # free the space: saving works again and is what loads
        st = _boot(dev, kind)
        fm.unfill(MNT)
        st.load()
        assert st.save(game_state(12)) is True
        assert _boot(dev.clone(), kind).load() == game_state(12)
    flash.umount(MNT)
    import gc
    gc.collect()


def test_sweep_in_micropython():
    # Under CPython (pytest): the sweeps above need the real drivers, so run this file under
    # the MicroPython unix port and check what it says.
    if hasattr(os, 'VfsLfs2'):
        return  # already running under MicroPython
    out = fm.run_in_micropython('test_store_powercut.py', globals(), show=True)
    counts = [line for line in out.splitlines() if 'cut points' in line]
    assert len(counts) == 6, out
    for line in counts:
        assert int(line.split(': ')[1].split()[0]) > 0, line


# -- the virtual device itself (both interpreters) ----------------------------------------
def _pattern(n, seed):
    return bytes([(i * 31 + seed) & 0xFF for i in range(n)])


def test_device_cut_tear_and_restore():
    from virtual.flash import PowerCut, RAMBlockDev
    for tear, landed in ((False, 0), (True, 256), (100, 100)):
        d = RAMBlockDev(512, 8)
        d.cut_at(2, tear)
        d.writeblocks(0, _pattern(512, 1))
        d.writeblocks(1, _pattern(512, 2))
        try:
            d.writeblocks(2, _pattern(512, 3))
        except PowerCut:
            pass
        else:
            raise AssertionError('no cut')
        assert d.dead
        assert d.writes == 2
        assert bytes(d.data[1024:1024 + landed]) == _pattern(512, 3)[:landed]
        assert d.data[1024 + landed:1536] == b'\xff' * (512 - landed)
        for op in ('write', 'erase'):
            try:
                if op == 'write':
                    d.writeblocks(3, _pattern(512, 4))
                else:
                    d.ioctl(6, 3)
            except PowerCut:
                pass
            else:
                raise AssertionError(op + ' without power')
        img = d.after_cut()
        d.restore()
        d.writeblocks(3, _pattern(512, 4))  # lands on d, not in the image after the cut
        assert img.data[1536:2048] == b'\xff' * 512
        assert d.data[1536:2048] == _pattern(512, 4)


def test_device_splits_writes_into_events():
    from virtual.flash import PowerCut, RAMBlockDev
    # a three-sector FAT write is three block writes; the cut can fall between them
    d = RAMBlockDev(512, 8)
    d.cut_at(1)
    try:
        d.writeblocks(2, _pattern(1536, 5))
    except PowerCut:
        pass
    assert d.data[1024:1536] == _pattern(1536, 5)[:512]
    assert d.data[1536:2048] == b'\xff' * 512
    # a 768-byte littlefs program on 256-byte pages is three
    d = RAMBlockDev(4096, 4, page=256)
    d.writeblocks(1, _pattern(768, 6), 256)
    assert d.writes == 3 and d.bytes_written == 768
    assert d.ioctl(4, 0) == 4 and d.ioctl(5, 0) == 4096
    assert d.ioctl(6, 1) == 0 and d.erases == 1
    assert d.data[4096:8192] == b'\xff' * 4096
    buf = bytearray(16)
    d.writeblocks(0, _pattern(16, 7), 32)
    d.readblocks(0, buf, 32)
    assert bytes(buf) == _pattern(16, 7)


def test_replay_matches_cut_at():
    # the journal's image for a cut at write g is the image cut_at(g) leaves
    from virtual.flash import PowerCut, RAMBlockDev, Replay

    def play(d):
        for k in range(6):
            d.writeblocks(k % 3, _pattern(512, k), 0)
            if k == 3:
                d.ioctl(6, 1)

    ref = RAMBlockDev(512, 4, page=128)
    start = ref.snapshot()
    journal = ref.record()
    play(ref)
    ref.stop_recording()
    width = ref.writes
    assert width == 24
    for g in range(width):
        for tear in (False, True):
            d = RAMBlockDev(512, 4, start, page=128)
            d.cut_at(g, tear)
            try:
                play(d)
            except PowerCut:
                pass
            rp = Replay(ref, start, journal)
            rp.advance(g)
            assert rp.image(tear).data == d.after_cut().data, (g, tear)
