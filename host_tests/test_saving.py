# runs-on: micropython
# Issue 11 on the controller's side (store contract 2): a failed save is never confirmed: the
# display says `not saved` and why, says it again every 10 s, and the state is tried again at
# the next change and every 10 s until a save succeeds; play goes on meanwhile. Nothing is
# saved when nothing changed. A key held through power-up does nothing until released. The
# store is a fake here (the real store's faults are tested in test_store*.py).
import json

import app_probe  # noqa: F401  (the virtual machine and the fixture boards on the path)
import bare
import machine
from scoreboard.app import App
from scoreboard.core import load_game
from scoreboard.ui import state as states
from scoreboard.ui.controller import Controller


class Flash:
    """A store by contract 2 that can be made to fail: save() True/False, problem."""

    def __init__(self, saved=None):
        self.fail = None            # a reason to fail with, or None
        self.saves = []             # every state it was asked to save
        self.kept = saved           # the last state safely saved
        self.problem = None
        self.message = None
        self.checked = []

    def save(self, state):
        state = json.loads(json.dumps(state))
        self.saves.append(state)
        if self.fail:
            self.problem = self.fail
            return False
        self.problem = None
        self.kept = state
        return True

    def load(self, check):
        if self.kept is not None:
            try:
                check(self.kept)
            except Exception:
                self.checked.append('refused')
                self.message = 'state file damaged'
                return None
        return self.kept


class Rig:
    """The app on the bare board with a fake store, on virtual time."""

    def __init__(self, store, held=()):
        machine.reset_all()
        for b in held:
            machine.drive(bare.BUTTONS[b], 0)
        self.now = 0
        self.store = store
        self.app = App(bare, store, 0)

    def wait(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 5
            self.app.step(self.now)

    def down(self, b):
        machine.drive(bare.BUTTONS[b], 0)

    def up(self, b):
        machine.drive(bare.BUTTONS[b], None)

    def tap(self, b, ms=80):
        self.down(b)
        self.wait(ms)
        self.up(b)
        self.wait(300)

    @property
    def view(self):
        return self.app.ctl.view


def test_a_failed_save_is_said_kept_visible_and_retried():
    f = Flash()
    r = Rig(f)
    r.tap('OK')                         # start: saved
    assert r.view['screen'] == 'play' and r.view['message'] is None
    f.fail = 'flash full'
    r.tap('RED')
    r.tap('RED')
    r.tap('OK')                         # commit red 2: the save fails
    assert r.view['red'] == 2, 'play goes on unsaved'
    assert r.view['message'] == 'not saved flash full'
    assert load_game(f.kept['game']).points('red') == 0
    tries = len(f.saves)
    r.wait(2500)
    assert r.view['message'] is None    # a message lasts 2 s ...
    r.wait(7500)                        # ... and is said again at the 10 s retry
    assert len(f.saves) == tries + 1
    assert r.view['message'] == 'not saved flash full'
    # the next change is tried at once, and still fails: said again, over its own message
    f.fail = 'flash error'
    r.tap('BLUE')
    r.tap('OK')                         # frame 2: blue 1
    assert r.view['message'] == 'not saved flash error'
    # the flash comes back: the next retry saves everything, and the message goes
    f.fail = None
    r.wait(10000)
    assert r.app.ctl.unsaved is None and r.view['message'] is None
    assert load_game(f.kept['game']).points('red') == 2
    assert load_game(f.kept['game']).points('blue') == 1
    n = len(f.saves)
    r.wait(30000)
    assert len(f.saves) == n, 'no retry once saved'


def test_nothing_changed_nothing_saved():
    f = Flash()
    r = Rig(f)
    r.tap('OK')
    # the menu, brightness at its maximum, BLUE held for 3 s: one save, then none
    r.down('OK')
    r.wait(3200)
    r.up('OK')
    r.wait(300)
    items = r.view['menu']
    while r.view['menu']['item'] != 'brightness':
        r.tap('OK')
    assert items is not None
    level = r.view['menu']['value']
    n = len(f.saves)
    r.down('BLUE')
    r.wait(3000)
    r.up('BLUE')
    r.wait(300)
    assert r.view['menu']['value'] == 8
    assert len(f.saves) == n + (8 - level), (len(f.saves), n, level)
    # RED on the setup screen's chosen side, held: nothing changes, nothing is saved
    r.down('OK')
    r.wait(1000)
    r.up('OK')                          # leave the menu (one save)
    r.wait(300)
    f2 = Flash()
    r2 = Rig(f2)
    r2.down('BLUE')                     # blue already has the hammer
    r2.wait(3000)
    r2.up('BLUE')
    r2.wait(300)
    assert f2.saves == []
    # a held minus key with nothing pending changes nothing either
    r2.tap('OK')
    n = len(f2.saves)
    r2.down('RED_MINUS')
    r2.wait(2000)
    r2.up('RED_MINUS')
    r2.wait(300)
    assert len(f2.saves) == n


def test_a_key_held_through_power_up_is_ignored_until_released():
    f = Flash()
    r = Rig(f)
    r.tap('OK')                         # play
    saves = len(f.saves)
    # OK held through a power cut: no blank frame when it is let go (finding 10)
    r2 = Rig(f, held=('OK',))
    r2.wait(1500)
    r2.up('OK')
    r2.wait(500)
    assert r2.view['frame'] == 1 and r2.view['screen'] == 'play'
    assert len(f.saves) == saves
    r2.tap('OK')                        # the next press counts
    assert r2.view['frame'] == 2


def test_the_store_is_given_a_check_that_runs_the_state_parser():
    good = Controller(0).state()
    states.check(good)
    for bad in ({}, {'v': 1}, {'v': 99}, dict(good, settings=None),
                dict(good, game={'kind': 'knockoff', 'options': {}, 'log': [['f', 3, 3]],
                                 'redo': []})):
        try:
            states.check(bad)
        except Exception:
            pass
        else:
            raise AssertionError(bad)
    # an unusable state: the store's load refuses it (it would fall back to its other slot)
    f = Flash(saved={'v': 1})
    r = Rig(f)
    assert f.checked == ['refused'] and r.view['message'] == 'state file damaged'


def test_the_cursor_is_saved_when_it_rests_not_while_a_key_repeats():
    # Finding 7: a held key on the shove ha'penny cursor saved every 150 ms
    f = Flash()
    r = Rig(f)
    r.down('OK')
    r.wait(3200)                        # the menu
    r.up('OK')
    r.wait(300)
    for _ in range(5):                  # game: shove ha'penny
        r.tap('BLUE')
    r.down('OK')
    r.wait(1000)
    r.up('OK')
    r.wait(300)
    r.tap('OK')                         # start
    assert r.view['game'] == 'shovehapenny' and r.view['screen'] == 'play'
    n = len(f.saves)
    r.down('BLUE')
    r.wait(3000)                        # 17 steps of the cursor
    assert len(f.saves) == n, 'saved while the key repeats'
    r.up('BLUE')
    r.wait(300)
    assert len(f.saves) == n + 1 and f.kept['cursor'] == r.view['cursor'] != 1
    r.tap('BLUE')                       # a tap: saved once it rests, before the next press
    assert len(f.saves) == n + 2 and f.kept['cursor'] == r.view['cursor']
