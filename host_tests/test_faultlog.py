# The bounded fault log: plain files under CPython, littlefs and FAT RAM disks under MicroPython.
# runs-on: micropython
import os

from scoreboard import faultlog
from scoreboard.faultlog import FaultLog
from test_store import fresh_root, KIND


def total_size(log):
    n = 0
    for name in (faultlog.NEW, faultlog.OLD):
        try:
            n += os.stat(log.path(name))[6]
        except OSError:
            pass
    return n


def roots():
    # the filesystems to try: the host's, or littlefs and FAT
    if hasattr(os, 'VfsLfs2'):
        out = []
        for kind in ('lfs', 'fat'):
            KIND[0] = kind
            out.append(fresh_root())  # the same mount point: use each before the next
            yield out[-1]
        KIND[0] = 'lfs'
    else:
        yield fresh_root()


def test_empty_log_reads_empty():
    for root in roots():
        assert FaultLog(root).read() == ''


def test_entries_come_back_in_order_with_stamps():
    for root in roots():
        log = FaultLog(root)
        assert log.write('ValueError: bad frame', stamp=1234)
        assert log.write('OSError: 5')
        text = log.read()
        assert text == '1234 ValueError: bad frame\nOSError: 5\n', text


def test_never_more_than_4k_and_newest_kept():
    for root in roots():
        log = FaultLog(root)
        for i in range(300):
            log.write('Traceback (most recent call last):\n  File "app.py", line %d\n'
                      'RuntimeError: fault number %d' % (i, i), stamp=i * 1000)
            assert total_size(log) <= 2 * faultlog.LIMIT, (i, total_size(log))
        text = log.read()
        assert 'fault number 299' in text
        assert 'fault number 0\n' not in text
        assert len(text.encode()) <= 2 * faultlog.LIMIT
        # older entries come first
        assert text.index('fault number 298') < text.index('fault number 299')


def test_long_entry_keeps_its_end():
    for root in roots():
        log = FaultLog(root)
        log.write('1234 Traceback' + 'x' * 5000 + ' ZeroDivisionError: the end', stamp=7)
        text = log.read()
        assert text.startswith('7 1234 Traceback'), text[:20]
        assert ' ... ' in text
        assert text.endswith('ZeroDivisionError: the end\n')
        assert len(text) <= faultlog.ENTRY + 20
        assert total_size(log) <= 2 * faultlog.LIMIT


def test_foreign_big_log_is_bounded_and_read_safely():
    for root in roots():
        log = FaultLog(root)
        with open(log.path(faultlog.NEW), 'wb') as f:
            for _ in range(10):
                f.write(b'\xff\xfe' * 500)  # 10 KB, not even text
        text = log.read()  # only LIMIT bytes are read, and it does not raise
        assert len(text) <= faultlog.LIMIT
        log.write('after', stamp=1)
        assert total_size(log) <= 2 * faultlog.LIMIT
        assert log.read().endswith('1 after\n')


def test_never_raises_on_a_missing_directory():
    log = FaultLog('/no/such/dir/anywhere')
    assert log.write('boom', stamp=1) is False
    assert log.read() == ''
    log.clear()


def test_exc_text_has_the_exception():
    try:
        raise ValueError('frame total 17')
    except ValueError as e:
        text = faultlog.exc_text(e)
    assert 'ValueError' in text and 'frame total 17' in text


def test_clear():
    for root in roots():
        log = FaultLog(root)
        log.write('a')
        log.clear()
        assert log.read() == ''


def test_full_filesystem_does_not_raise():
    if not hasattr(os, 'VfsLfs2'):
        return
    from flash_mount import fill
    for root in roots():
        log = FaultLog(root)
        log.write('before', stamp=1)
        fill(root)
        for i in range(50):
            log.write('fault %d on a full disk' % i, stamp=i)  # True or False, never raises
        assert total_size(log) <= 2 * faultlog.LIMIT
        log.read()


def test_failing_flash_writes_keep_their_file_and_stop():
    # A write that fails is kept alive (store.KEEP: freed, littlefs could hang the next
    # save); after store.KEEP failures neither the log nor the store tries any more.
    if not hasattr(os, 'VfsLfs2'):
        return
    from scoreboard import store
    from virtual import flash
    path = '/flt'
    kept = list(store._kept)
    store._kept[:] = []
    try:
        for kind in ('lfs', 'fat'):
            flash.umount(path)
            dev = flash.fault_device(kind)
            flash.mount(dev, kind, path)
            log = FaultLog(path)
            assert log.write('before') is True
            dev.fail_writes(100000, 0, 'raise')
            for n in range(3 * store.KEEP):
                assert log.write('fault %d' % n) is False, kind
            dev.heal()
            if kind == 'lfs':
                # every failed write left a file littlefs still lists: all kept, then no more
                assert store.failing() and len(store._kept) == store.KEEP
                w = dev.writes
                assert log.write('after') is False  # the flash failed too often: left alone
                assert store.Store(path).save({'a': 1}) is False
                assert dev.writes == w
            else:
                # FAT fails at the open after the first failure: no file to keep, and once
                # the flash works the log does again
                assert not store.failing()
                assert log.write('after') is True
            assert 'before' in log.read()
            kept.extend(store._kept)  # these belong to a mount about to go: never freed
            store._kept[:] = []
    finally:
        flash.umount(path)
        _graveyard.extend(kept)


_graveyard = []
