# runs-on: micropython
# Empty slot files: one is what a power cut during a first save leaves (quiet); two are not what
# cuts leave once anything was saved, so the boot says so.
import os

from app_probe import flash_dir as fresh  # an empty folder, private to this test run
from scoreboard.store import DAMAGED, SLOTS, Store


def touch(path):
    with open(path, 'wb'):
        pass


def test_one_empty_slot_is_quiet():
    d = fresh('one')
    touch(d + '/' + SLOTS[0])
    s = Store(d)
    assert s.load() is None and s.message is None


def test_two_empty_slots_are_reported():
    d = fresh('two')
    touch(d + '/' + SLOTS[0])
    touch(d + '/' + SLOTS[1])
    s = Store(d)
    assert s.load() is None and s.message == DAMAGED
    assert s.save({'v': 1}) and s.load() == {'v': 1} and s.message is None


def test_an_empty_slot_beside_a_good_one_is_quiet():
    d = fresh('good')
    s = Store(d)
    assert s.save({'a': 1})
    other = [n for n in SLOTS if n not in os.listdir(d)]
    assert len(other) == 1          # the first save wrote one slot
    for n in other:
        touch(d + '/' + n)
    s2 = Store(d)
    assert s2.load() == {'a': 1} and s2.message is None
