# runs-on: micropython
# Issue 25: what the flash attacks of the second round found, on the real littlefs and FAT
# drivers (os.VfsLfs2, os.VfsFat) over a failing RAM block device, through the firmware (the
# app on the bare board, its buttons pressed on virtual time) and through the store:
# 1. a game the board could not read at boot is never overwritten: once the flash reads again
#    it comes back at once (nothing entered meanwhile) or as the found game that OK long at
#    setup brings back, however many saves are made after the fault;
# 2. slot names taken by directories (or files the filesystem will not open) do not stop the
#    saves, and the newest good state still loads at boot;
# 3. a flash filled to its last block by other files still takes the game (the store's
#    reserve), and the fault log and the outbox give way before the game does.
# Under CPython the file runs in a MicroPython subprocess.
import os

import app_probe  # noqa: F401  (the virtual machine and the fixture boards on the path)
import flash_mount as fm
from bench_store import game_state
from scoreboard import store
from scoreboard.faultlog import FaultLog
from scoreboard.net.outbox import Outbox
from scoreboard.store import Store

MNT = '/sl'
_at = fm.Mount(MNT)
_mount = _at.mount      # a fresh VFS over the device at MNT, as after a power-up


class Board:
    """The app on the bare board over the store at MNT, on virtual time; boot() is a power-up
    (fresh RAM: a new store and app; the same flash)."""

    def __init__(self, dev, kind):
        self.dev = dev
        self.kind = kind
        self.now = 0
        self.boot()

    def boot(self, reads_fail=False):
        import bare
        import machine
        from scoreboard.app import App
        _mount(self.dev, self.kind)
        if reads_fail:
            self.dev.fail_reads(10 ** 9, 0)
        machine.reset_all()
        self.store = Store(MNT)
        self.app = App(bare, self.store, self.now & 0x1FFFFFFF)
        self.wait(1500)                 # the lamp test

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 5
            self.app.step(self.now & 0x1FFFFFFF)

    def tap(self, b, ms=80):
        import bare
        import machine
        machine.drive(bare.BUTTONS[b], 0)
        self.wait(ms)
        machine.drive(bare.BUTTONS[b], None)
        self.wait(300)

    def frame(self, red=0, blue=0):
        for _ in range(red):
            self.tap('RED')
        for _ in range(blue):
            self.tap('BLUE')
        self.tap('OK')
        return self.view

    @property
    def view(self):
        return self.app.ctl.view

    def reboot_keeps(self, *where):
        """A power cut: the board comes back on the same score."""
        before = _score(self.view)
        self.boot()
        assert _score(self.view) == before, where + (self.view,)

    def play_on(self, n, cut_every, where, blue_only=False, saved_only=False):
        """n frames of one point (blue, red, blue, ...; or blue only), each saved: no message
        (with saved_only: none that says 'not saved'); a power cut after every cut_every-th,
        the score the same after it."""
        for k in range(n):
            v = self.frame(blue=1) if blue_only or not k % 2 else self.frame(red=1)
            if saved_only:
                assert not (v['message'] or '').startswith('not saved'), where + (k, v)
            else:
                assert v['message'] is None, where + (k, v)
            if k % cut_every == cut_every - 1:
                self.reboot_keeps(*(where + (k,)))


def _score(v):
    return (v['screen'], v['red'], v['blue'], v['frame'])


def _saved_game(b):
    # red 1 - blue 2, frame 3 (the game), saved
    b.tap('OK')                         # start
    b.frame(red=1)
    v = b.frame(blue=2)
    assert _score(v) == ('play', 1, 2, 3), v
    assert v['message'] is None, v
    return _score(v)


# -- 1. a game the board could not read is never overwritten ------------------------------
def test_unread_game_comes_back_at_once_when_nothing_was_entered():
    if not fm.have_vfs():
        return
    flash = fm.flash()
    for kind in fm.KINDS:
        dev = flash.fault_device(kind)
        b = Board(dev, kind)
        old = _saved_game(b)
        b.boot(reads_fail=True)         # a power cut; the next boot cannot read the flash
        v = b.view
        assert v['screen'] == 'setup' and (v['red'], v['blue']) == (0, 0), v
        dev.heal()                      # the flash reads again; nobody pressed anything
        b.wait(1500)
        assert _score(b.view) == old, (kind, b.view)
        assert b.view['message'] == 'game back', (kind, b.view)
        # play on for many saves, with power cuts between: the game goes on from there
        b.play_on(12, 4, (kind,))
        _at.done()


def test_unread_game_is_never_overwritten_and_comes_back_at_setup():
    # the case: the board boots while reads fail, the players start a new game and
    # press on; reads recover; the old game is kept however many saves follow
    if not fm.have_vfs():
        return
    flash = fm.flash()
    for kind in fm.KINDS:
        for presses in (1, 2, 5):       # entries while the flash could not be read
            dev = flash.fault_device(kind)
            b = Board(dev, kind)
            old = _saved_game(b)
            b.boot(reads_fail=True)
            assert b.view['message'] == 'state file unreadable', b.view
            b.tap('OK')                 # a new game
            for _ in range(presses):
                v = b.frame(red=1)      # not saved: the board says so
                assert v['message'] == 'not saved flash error', (kind, v)
            dev.heal()
            b.wait(1500)
            v = b.view
            assert v['message'] == 'old game kept', (kind, presses, v)
            assert (v['red'], v['blue']) == (presses, 0), v     # the new game stays in play
            # many saves after the fault, a power cut now and then: the old game stays kept
            b.play_on(15, 5, (kind,), blue_only=True, saved_only=True)
            assert b.view['screen'] == 'over', b.view   # blue reached 15
            b.tap('OK')                 # banked: the setup screen
            assert b.view['screen'] == 'setup'
            assert b.view['games']['blue'] == 1, b.view
            b.tap('OK', 1000)           # OK long: the old game first
            v = b.view
            assert _score(v) == old, (kind, presses, v)
            assert v['message'] == 'game back', v
            b.boot()
            assert _score(b.view) == old, (kind, presses, b.view)
            _at.done()


def test_store_alone_keeps_the_unread_slot_until_recovered():
    # the store's side: no save writes anything while a slot it could not read may hold a
    # newer game; recover() gives that game once it reads, and only then do saves go on
    if not fm.have_vfs():
        return
    for kind in fm.KINDS:
        dev, st = _at.started(kind, game_state(2), game_state(3))
        _mount(dev, kind)
        dev.fail_reads(10 ** 9, 0)
        st = Store(MNT)
        assert st.load() is None and st.pending
        image = bytes(dev.data)
        for f in range(3):
            assert st.save(game_state(50 + f)) is False
            assert st.recover() is None
        assert bytes(dev.data) == image, kind
        dev.heal()
        for f in range(2):              # the game is not taken: still nothing is written
            assert st.save(game_state(60 + f)) is False and st.problem == store.FOUND
        assert bytes(dev.data) == image, kind
        assert st.recover() == game_state(3) and not st.pending
        assert st.recover() is None
        for f in range(20):
            assert st.save(game_state(70 + f)) is True, (kind, f, st.problem)
        assert Store(MNT).load() == game_state(89)
        _at.done()


# -- 2. a slot name taken by something else -------------------------------------------------
def test_directories_at_both_slot_names_do_not_stop_the_saves():
    if not fm.have_vfs():
        return
    flash = fm.flash()
    for kind in fm.KINDS:
        dev = flash.fault_device(kind)
        _mount(dev, kind)
        for n in store.SLOTS:
            os.mkdir(MNT + '/' + n)
        b = Board(dev, kind)
        b.tap('OK')
        b.play_on(10, 3, (kind,))
        _at.done()


def test_newest_good_state_of_any_name_loads():
    if not fm.have_vfs():
        return
    flash = fm.flash()
    for kind in fm.KINDS:
        dev = flash.fault_device(kind)
        _mount(dev, kind)
        os.mkdir(MNT + '/' + store.SLOTS[1])    # slot b: a directory
        st = Store(MNT)
        st.load()
        with fm.Refused(store.SLOTS[0], 'w', 13):   # slot a: refused for writing (EACCES)
            for f in range(1, 9):
                assert st.save(game_state(f)) is True, (kind, f, st.problem)
                got = Store(MNT)
                assert got.load() == game_state(f), (kind, f)
        # the directory goes, slot a opens again: the saves go back to the slot names
        os.rmdir(MNT + '/' + store.SLOTS[1])
        for f in range(9, 13):
            assert st.save(game_state(f)) is True
            assert Store(MNT).load() == game_state(f), (kind, f)
        names = os.listdir(MNT)
        assert store.SLOTS[0] in names and store.SLOTS[1] in names, names
        _at.done()


def _save_survives_a_cut(st, f, kind):
    # the save of game_state(f) goes through, and is what a power cut then brings back, with
    # no slot held any longer
    assert st.save(game_state(f)) is True
    again = Store(MNT)
    assert again.load() == game_state(f) and not again.pending, kind


def test_a_slot_file_that_cannot_be_opened_at_all():
    # the slot with the newest game cannot be opened for reading or writing: its game is
    # kept, the saves go on elsewhere, every boot loads the newest of them, and once the
    # file opens again its game is handed over (it is newer than the one the boot had)
    if not fm.have_vfs():
        return
    for kind in fm.KINDS:
        dev, st = _at.started(kind, game_state(1), game_state(2))  # slot b, the newest
        with open(MNT + '/' + store.SLOTS[1], 'rb') as f:
            b = f.read()
        with fm.Refused(store.SLOTS[1]):  # EIO: neither read nor written
            st = Store(MNT)
            assert st.load() == game_state(1) and st.message == store.UNREADABLE
            for f in range(3, 13):
                assert st.save(game_state(f)) is True, (kind, f, st.problem)
                again = Store(MNT)          # a power cut after each save
                assert again.load() == game_state(f), (kind, f)
                assert again.recover() is None and again.pending
        with open(MNT + '/' + store.SLOTS[1], 'rb') as f:
            assert f.read() == b, kind
        again = Store(MNT)
        assert again.load() == game_state(12), kind
        assert again.recover() == game_state(2) and not again.pending, kind
        _save_survives_a_cut(again, 13, kind)
        _at.done()


def test_a_second_read_fault_with_a_game_still_held():
    # a slot is held (its file could not be opened, the saves went elsewhere), then the board
    # boots while the whole flash fails to read: nothing is written; once it reads, both the
    # held game and the newest of the saves made beside it are handed over, nothing lost
    if not fm.have_vfs():
        return
    for kind in fm.KINDS:
        dev, st = _at.started(kind, game_state(1), game_state(2))  # slot b, the newest
        with fm.Refused(store.SLOTS[1]):  # EIO: neither read nor written
            st = Store(MNT)
            assert st.load() == game_state(1)
            assert st.save(game_state(3)) is True
        _mount(dev, kind)
        dev.fail_reads(10 ** 9, 0)
        st = Store(MNT)
        assert st.load() is None and st.pending, kind
        image = bytes(dev.data)
        assert st.save(game_state(4)) is False, kind
        assert st.recover() is None
        assert bytes(dev.data) == image, kind
        dev.heal()
        got = []
        for _ in range(4):
            d = st.recover()
            if d is not None:
                got.append(d)
        assert not st.pending, kind
        assert len(got) == 2 and game_state(2) in got and game_state(3) in got, (kind, len(got))
        _save_survives_a_cut(st, 5, kind)
        _at.done()


def test_a_cut_at_every_write_of_a_save_beside_an_unreadable_slot():
    # the note of the held slot and the save after it, cut at every block write: the boot
    # after the cut has the game of the unreadable slot either as the state it resumes or
    # handed over by recover(), never lost, and the state before the save or the new one
    if not fm.have_vfs():
        return
    import gc
    flash = fm.flash()
    for kind in fm.KINDS:
        cuts = done = 0
        for n in range(400):
            dev, st = _at.started(kind, game_state(1), game_state(2))  # slot b, the newest
            with fm.Refused(store.SLOTS[1]):  # EIO: neither read nor written
                st = Store(MNT)
                st.load()
                dev.cut_at(n)
                try:
                    st.save(game_state(3))
                    finished = True
                except flash.PowerCut:
                    finished = False
                dev.restore()
            gc.collect()
            image = dev.after_cut() if not finished else dev.clone()
            _mount(image, kind)
            back = Store(MNT)
            got = back.load()
            if got == game_state(2):
                pass                        # the cut came before the note: b is the newest
            else:
                assert got in (game_state(1), game_state(3)), (kind, n)
                assert back.recover() == game_state(2), (kind, n)
            if finished:
                done += 1
                break
            cuts += 1
        assert done == 1 and cuts > 2, (kind, cuts)
        _at.done()


# -- 3. room for the game on a full flash -----------------------------------------------------
def test_a_flash_other_files_filled_still_takes_the_game():
    if not fm.have_vfs():
        return
    flash = fm.flash()
    for kind in fm.KINDS:
        dev = flash.fault_device(kind)
        b = Board(dev, kind)
        b.tap('OK')
        b.frame(red=1)
        fm.fill(MNT)                      # a log, an outbox, a tool's files: the flash is full
        got = 0
        for _ in range(5):
            v = b.frame(blue=1)
            if not (v['message'] or '').startswith('not saved'):
                got += 1
        assert got == 5, (kind, got, b.view)
        b.reboot_keeps(kind)
        for k in range(3):              # and after the power cut, still
            v = b.frame(red=1)
            assert v['message'] is None, (kind, k, v)
        b.reboot_keeps(kind)
        _at.done()


def test_the_fault_log_gives_way_before_the_game():
    if not fm.have_vfs():
        return
    for kind in fm.KINDS:
        dev, st = _at.started(kind)
        assert st.save(game_state(3)) is True
        fm.fill(MNT)
        log = FaultLog(MNT)
        wrote = 0
        for k in range(40):             # a fault loop on a full flash, the game saved between
            wrote += log.write('fault %d %s' % (k, 'x' * 200))
            state = game_state(12)
            state['games']['blue'] = k  # the state's size stays about the same
            assert st.save(state) is True, (kind, k, st.problem)
        assert wrote == 0, (kind, wrote)    # the log gave way
        assert Store(MNT).load() == state, kind
        # space comes back: the log writes again (its bound keeps it to 4 KB)
        fm.unfill(MNT)
        assert log.write('fault again') is True
        assert st.save(game_state(13)) is True
        _at.done()


def test_the_outbox_gives_way_before_the_game():
    if not fm.have_vfs():
        return
    for kind in fm.KINDS:
        dev, st = _at.started(kind)
        box = Outbox(MNT, reserve=0)     # only the store's room() decides here
        assert box.add({'id': box.next_id(), 'game': 'knockoff'}) is True
        assert st.save(game_state(3)) is True
        fm.fill(MNT)
        kept = 0
        for k in range(10):             # banked games while the flash is full
            kept += box.add({'id': 'r%d' % k, 'game': 'knockoff', 'red': 15, 'blue': k})
            state = game_state(12)
            state['games']['red'] = k
            assert st.save(state) is True, (kind, k, st.problem)
        assert kept == 0 and box.dropped == 10, (kind, kept, box.dropped)
        assert len(box) == 1            # the record kept before is still there to send
        assert Store(MNT).load() == state, kind
        _at.done()


def test_lost_in_micropython():
    # Under CPython (pytest): run this file under the MicroPython unix port
    if hasattr(os, 'VfsLfs2'):
        return
    fm.run_in_micropython('test_store_lost.py', globals())
