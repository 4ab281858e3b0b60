# runs-on: micropython
# The outbox on the real littlefs driver (os.VfsLfs2 on a RAM block device under the MicroPython
# unix port), with a power cut at every block write of a night of banking and sending: after any
# cut, every record the outbox said it kept and that was not yet acknowledged is still there, in
# order, each once and whole; no id is used twice. (Under CPython this runs itself under the port.)
import json
import os

MNT = '/obx'


def night(box, log):
    # 12 games banked; after every second one the oldest waiting is acknowledged
    for i in range(12):
        rid = box.next_id()
        log.append(('id', rid))
        if box.add({'id': rid, 'frames': [['f', i, 0]] * 20}):
            log.append(('kept', rid))
        if i % 2:
            item = box.peek()
            if item is not None:
                log.append(('sending', json.loads(item[1])['id']))
                box.remove(item[0])
                log.append(('sent', json.loads(item[1])['id']))


def waiting(box):
    out = []
    while True:
        item = box.peek()
        if item is None:
            return out
        out.append(json.loads(item[1])['id'])   # whole JSON, or this raises
        box.remove(item[0])


def test_a_power_cut_at_every_write_loses_no_kept_record():
    if not hasattr(os, 'VfsLfs2'):
        return _under_micropython()
    import gc
    from scoreboard.net.outbox import Outbox
    from virtual import flash
    from virtual.flash import PowerCut
    for tear in (False, True):
        _sweep(tear, Outbox, flash, PowerCut, gc)


def _sweep(tear, Outbox, flash, PowerCut, gc):
    cuts = 0
    n = 0
    while True:
        flash.umount(MNT)
        gc.collect()
        dev = flash.lfs_device(24)
        flash.format_fs(dev, 'lfs')
        flash.mount(dev, 'lfs', MNT)
        box = Outbox(MNT)
        log = []
        dev.cut_at(n, tear)
        try:
            night(box, log)
            done = True
        except PowerCut:
            done = False
        dev.restore()
        if done:
            break
        cuts += 1
        flash.umount(MNT)
        gc.collect()
        flash.mount(dev.after_cut(), 'lfs', MNT)
        box = Outbox(MNT)                         # the reboot
        got = waiting(box)
        kept = [r for k, r in log if k == 'kept']
        sent = [r for k, r in log if k == 'sent']
        # at the cut: the record being added may be in or out, and the one being removed
        # (the broker had acknowledged it) may be gone or still there
        maybe = [r for k, r in log if k == 'id'][-1:] + \
            [r for k, r in log if k == 'sending'][-1:]
        must = [r for r in kept if r not in sent and r not in maybe[1:]]
        assert len(set(got)) == len(got), (n, got)
        assert [r for r in got if r in must] == must, (n, got, must)
        assert all(r in must or r in maybe for r in got), (n, got, must, maybe)
        later = box.next_id()
        assert later not in [r for k, r in log if k == 'id'], (n, later)
        n += 1
    flash.umount(MNT)
    print('outbox on littlefs: %d cut points%s, every kept record there after each'
          % (cuts, ' (torn pages)' if tear else ''))
    assert cuts > 50


def _under_micropython():
    import flash_mount
    flash_mount.run_in_micropython('test_outbox_powercut.py', globals(), show=True)
