# runs-on: micropython
# A person with only the board and a phone pairs by reading the PIN off the display, on every
# Wi-Fi board of boards/: the real runner serves on loopback, the phone asks for a PIN, the PIN
# is read from the board's virtual chips (decoded segments, never the view model), typed back,
# and the token acts. Then the board's own menu `pair`, pressed on its buttons, shows a new PIN
# at once although this phone's address is locked by five wrong PINs, and clears that lock.
import os

import net_harness as nh

BOARDS = nh.ROOT + '/boards'
# Seven-segment shapes written out here (bit0 = a .. bit6 = g), not taken from the firmware.
SHAPES = {0x00: ' ', 0x3F: '0', 0x06: '1', 0x5B: '2', 0x4F: '3', 0x66: '4', 0x6D: '5',
          0x7D: '6', 0x07: '7', 0x7F: '8', 0x6F: '9', 0x73: 'P', 0x30: 'I', 0x54: 'n'}


def wifi_boards():
    out = []
    for n in sorted(os.listdir(BOARDS)):
        if n.endswith('.py'):
            with open(BOARDS + '/' + n) as f:
                if "NETWORK = 'wlan'" in f.read():
                    out.append(n[:-3])
    return out


def display_text(h):
    """What the first display reads, its chips side by side."""
    return ' '.join([''.join([SHAPES.get(b & 0x7F, '?') for b in c.digits()])
                     for c in h.runner.chips[0]])


async def read_pin(h, ms=6000):
    """The PIN as a person reads it off the display (on a module for both sides it takes turns
    with 'PIn')."""
    saw_label = False
    t0 = nh.now_ms()
    while nh.since_ms(t0) < ms:
        words = display_text(h).split()
        if 'PIn' in words:
            saw_label = True
        digits = [w for w in words if len(w) == 4 and w.isdigit()]
        if saw_label and digits:
            return digits[0]
        await nh.sleep_ms(50)
    raise AssertionError('no PIN on the display: %r' % display_text(h))


def test_every_wifi_board_pairs_with_the_pin_read_off_its_display():
    boards = wifi_boards()
    assert len(boards) >= 3, boards
    for board in boards:
        async def check(h, board=board):
            assert 'pin' not in (await h.get('/api/view')).json()
            assert (await h.post('/api/pair', {})).status == 202
            pin = await read_pin(h)
            r = await h.post('/api/pair', {'pin': pin})
            assert r.status == 200, (board, pin, r)
            token = r.json()['token']
            assert (await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'},
                                 token)).status == 200
            await nh.until(lambda: 'PIn' not in display_text(h), 2000, 'the PIN stayed')
            # Five wrong PINs lock this address; the board's menu `pair` opens it again.
            assert (await h.post('/api/pair', {})).status == 202
            wrong = '0000' if h.ctl.view['pin'] != '0000' else '1111'
            for _ in range(5):
                await h.post('/api/pair', {'pin': wrong})
            assert (await h.post('/api/pair', {})).status == 429
            await h.tap('OK', 3200)                    # the menu
            for _ in range(40):
                if h.ctl.view.get('menu', {}).get('item') == 'pair':
                    break
                await h.tap('OK')
            assert h.ctl.view['menu']['item'] == 'pair', h.ctl.view
            before = h.ctl.view.get('pin')
            await h.tap('BLUE')
            pin = await read_pin(h)
            assert h.runner.pairing.locked(h.runner.now(), '127.0.0.1') == 0
            assert before is None or pin == h.ctl.view['pin']
            r = await h.post('/api/pair', {'pin': pin})
            assert r.status == 200, (board, r)
        nh.run(check, board=board, tag='pin' + board[-6:])
