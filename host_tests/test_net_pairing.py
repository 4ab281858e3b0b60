# runs-on: micropython
# Pairing on its own (scoreboard.net.pairing): the PIN and its 60 s, five wrong PINs and the lock,
# four phones and the oldest dropped, tokens that survive a power cut (at any point of a save),
# only their hashes on the flash, and the menu's unpair.
import os

import net_harness as nh
from scoreboard.net import pairing as P


class Shown:
    def __init__(self):
        self.calls = []

    def __call__(self, pin, now):
        self.calls.append((pin, now))


def fresh(tag='pair'):
    shown = Shown()
    return nh.flash_dir(tag), shown


def test_a_request_shows_a_four_digit_pin_for_sixty_seconds():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    pin = p.request(1000)
    assert len(pin) == 4 and pin.isdigit()
    assert shown.calls == [(pin, 1000)]
    assert p.request(2000) == pin            # asked again: the same PIN, not a new one
    p.tick(1000 + P.PIN_MS - 1)
    assert p.pin == pin
    p.tick(1000 + P.PIN_MS)
    assert p.pin is None and shown.calls[-1] == (None, 1000 + P.PIN_MS)
    try:
        p.confirm(pin, 1000 + P.PIN_MS + 1)   # an expired PIN is wrong
        raise AssertionError('expired PIN accepted')
    except P.WrongPin:
        pass


def test_the_right_pin_gives_a_token_once_and_clears_the_display():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    pin = p.request(0)
    token = p.confirm(pin, 10)
    assert len(token) == 2 * P.TOKEN_BYTES and p.paired(token)
    assert shown.calls[-1] == (None, 10)
    try:
        p.confirm(pin, 20)
        raise AssertionError('a PIN worked twice')
    except P.WrongPin:
        pass
    assert not p.paired('') and not p.paired(None) and not p.paired(token[:-1] + 'x')


def test_five_wrong_pins_lock_pairing_for_sixty_seconds():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    pin = p.request(0)
    wrong = '0000' if pin != '0000' else '1111'
    for i in range(P.MAX_WRONG):
        try:
            p.confirm(wrong, 100 + i)
            raise AssertionError('wrong PIN accepted')
        except P.WrongPin:
            pass
    assert p.pin is None                     # no PIN left on the display to guess at
    for call in (lambda: p.request(200), lambda: p.confirm(pin, 200)):
        try:
            call()
            raise AssertionError('not locked')
        except P.Locked:
            pass
    t = 104 + P.LOCK_MS
    pin2 = p.request(t)                      # the lock is over
    assert p.paired(p.confirm(pin2, t + 1))


def test_at_most_four_phones_the_oldest_dropped():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    tokens = []
    for i in range(P.MAX_PHONES + 1):
        tokens.append(p.confirm(p.request(i * 10), i * 10 + 1))
    assert not p.paired(tokens[0])
    for t in tokens[1:]:
        assert p.paired(t)
    assert len(p.phones) == P.MAX_PHONES


def test_tokens_survive_a_power_cut_and_only_their_hashes_are_on_flash():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    t1 = p.confirm(p.request(0), 1)
    t2 = p.confirm(p.request(2), 3)
    q = P.Pairing(root)                      # the board boots again
    assert q.paired(t1) and q.paired(t2)
    with open(root + '/' + P.FILE) as f:
        text = f.read()
    assert t1 not in text and t2 not in text and P.digest(t1) in text


def test_a_cut_between_removing_the_old_list_and_the_rename_keeps_the_new_one():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    t1 = p.confirm(p.request(0), 1)
    os.rename(root + '/' + P.FILE, root + '/' + P.NEW)     # as if cut before the rename
    assert P.Pairing(root).paired(t1)
    with open(root + '/' + P.NEW, 'w') as f:               # a cut while writing the new file
        f.write('{"v": 1, "phones": ["ab')
    p2 = P.Pairing(root)
    assert p2.phones == [] and not p2.paired(t1)           # unreadable: nobody, never a crash


def test_corrupt_or_foreign_files_are_ignored():
    root, shown = fresh()
    for text in ('not json', '[1, 2]', '{"v": 2, "phones": []}', '{"v": 1, "phones": [3, "x"]}'):
        with open(root + '/' + P.FILE, 'w') as f:
            f.write(text)
        assert P.Pairing(root).phones == [], text


def test_unpair_forgets_every_phone_also_after_a_power_cut():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    t = p.confirm(p.request(0), 1)
    p.forget_all()
    assert not p.paired(t)
    assert not P.Pairing(root).paired(t)


def test_the_clock_wraps():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    near = 0x1FFFFFFF - 10
    pin = p.request(near)
    p.tick(5)                                # 16 ms later, across the wrap
    assert p.pin == pin
    p.tick((near + P.PIN_MS) & 0x1FFFFFFF)
    assert p.pin is None
