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


def _wrong(p, n, t, who):
    """n wrong PINs from `who` at time t (each a WrongPin)."""
    for _ in range(n):
        try:
            p.confirm('9999' if p.pin != '9999' else '8888', t, who)
            raise AssertionError('wrong PIN accepted')
        except P.WrongPin:
            pass


def _is_locked(p, t, who):
    for call in (lambda: p.request(t, who), lambda: p.confirm(p.pin or '0000', t, who)):
        try:
            call()
            return False
        except P.Locked as e:
            left = e.ms
    return left if left is not None else -1


def test_five_wrong_pins_lock_that_address_for_sixty_seconds_not_the_others():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    pin = p.request(0, '10.0.0.66')
    _wrong(p, P.MAX_WRONG, 100, '10.0.0.66')
    assert _is_locked(p, 200, '10.0.0.66') == P.LOCK_MS - 100
    # The real phone, at another address, still sees the PIN and pairs with it.
    assert p.pin == pin and p.request(300, '10.0.0.7') == pin
    assert p.paired(p.confirm(pin, 400, '10.0.0.7'))
    assert _is_locked(p, 100 + P.LOCK_MS - 1, '10.0.0.66')
    t = 100 + P.LOCK_MS                      # the lock is over
    pin2 = p.request(t, '10.0.0.66')
    assert p.paired(p.confirm(pin2, t + 1, '10.0.0.66'))


def test_each_further_lock_of_an_address_doubles_up_to_a_day():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    t = 0
    lengths = []
    for _ in range(14):
        _wrong(p, P.MAX_WRONG, t, '10.0.0.66')
        left = _is_locked(p, t, '10.0.0.66')
        lengths.append(left)
        p.recent = []                        # (the hourly ceiling is tested on its own)
        t += left
        assert not _is_locked(p, t, '10.0.0.66')
    minute = 60 * 1000
    assert lengths[:6] == [minute, 2 * minute, 4 * minute, 8 * minute, 16 * minute,
                           32 * minute], lengths
    assert max(lengths) == P.LOCK_MAX_MS == 24 * 60 * minute and lengths[-1] == P.LOCK_MAX_MS
    # A successful pairing clears its address's locks: the next lock is a minute again.
    pin = p.request(t, '10.0.0.66')
    p.confirm(pin, t, '10.0.0.66')
    _wrong(p, P.MAX_WRONG, t, '10.0.0.66')
    assert _is_locked(p, t, '10.0.0.66') == minute


def test_more_than_twenty_wrong_pins_an_hour_close_pairing_until_the_board_opens_it():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    p.request(0, '10.0.0.7')
    t = 0
    for i in range(P.HOUR_WRONG):            # 20 addresses, one wrong PIN each, over 50 min
        _wrong(p, 1, t, '10.0.1.%d' % i)
        t += 150 * 1000
    assert not p.closed
    # the first of those is an hour old now: one more makes 20 in the hour, not over
    _wrong(p, 1, 3600 * 1000, '10.0.2.1')
    assert not p.closed
    p.request(3600 * 1000 + 1, '10.0.0.7')          # a PIN on the display
    _wrong(p, 1, 3600 * 1000 + 2, '10.0.2.2')        # the 21st in an hour
    assert p.closed and p.pin is None and shown.calls[-1][0] is None
    # closed for everyone, the real phone too, for as long as it takes
    assert _is_locked(p, 10 * 3600 * 1000, '10.0.0.7') == -1
    # the board opens it: a PIN at once, every lock and count gone
    pin = p.open_at_board(10 * 3600 * 1000)
    assert shown.calls[-1] == (pin, 10 * 3600 * 1000)
    assert not p.closed and p.clients == {} and p.recent == []
    assert p.paired(p.confirm(pin, 10 * 3600 * 1000 + 5, '10.0.0.7'))


def test_opening_at_the_board_clears_a_locked_address_and_shows_a_new_pin():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    p.request(0, '10.0.0.66')
    _wrong(p, P.MAX_WRONG, 10, '10.0.0.66')
    assert _is_locked(p, 20, '10.0.0.66')
    pin = p.open_at_board(30)
    assert p.pin == pin and shown.calls[-1] == (pin, 30)
    assert not _is_locked(p, 31, '10.0.0.66')
    assert p.paired(p.confirm(pin, 40, '10.0.0.66'))


def test_the_addresses_remembered_are_bounded():
    root, shown = fresh()
    p = P.Pairing(root, show_pin=shown)
    _wrong(p, P.MAX_WRONG, 0, '10.0.0.66')          # a locked address
    for i in range(3 * P.MAX_CLIENTS):
        _wrong(p, 1, 1 + i, '10.1.%d.%d' % (i // 200, i % 200))
        p.recent = []
    assert len(p.clients) <= P.MAX_CLIENTS
    assert '10.0.0.66' in p.clients                  # the locked one is the last to go


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
