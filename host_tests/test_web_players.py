# The phone page made for players (DESIGN section 10), in Debian's chromium through Playwright at
# 360x740 and 390x844: in every state a player meets (watching unpaired, asking for a PIN, a
# wrong PIN, paired at setup, play with points pending, a refused entry, the new-game form over
# a game in play, game over, banked) the layout is measured (no sideways scroll, every control
# at least 44 px high, every visible text at least 16 px) and no internal id or JSON text is
# visible; games and options read in words; no blank frame is sent by accident; the new-game
# form starts from the game in play; game over shows the winner and no hammer, with banking the
# obvious next step. The access point's Wi-Fi page too. Screenshots go to /tmp/h23-shots/.
import os
import threading

import pytest
from board_thread import Board, chromium, needs_chromium

pytestmark = needs_chromium
SHOTS = '/tmp/h23-shots'
VIEWPORTS = ((360, 740), (390, 844))

# What a player must never read: the firmware's ids for games, items and buttons, and JSON.
INTERNAL = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'shovehapenny', 'last_mark',
            'best_of', 'new_game', 'reset_games', 'RED_MINUS', 'BLUE_MINUS', 'null',
            'undefined', 'NaN', 'true', 'false', '{', '}', '":', 'Bearer', 'token',
            '[object')

MEASURE = """() => {
  const vis = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility != 'hidden' && s.display != 'none'; };
  const out = {scroll: document.documentElement.scrollWidth, width: window.innerWidth,
               short: [], small: [], text: document.body.innerText,
               options: [...document.querySelectorAll('option')].map(o => o.textContent)};
  for (const e of document.querySelectorAll('button, input, select, summary, a'))
    if (vis(e) && e.getBoundingClientRect().height < 44)
      out.short.push((e.id || e.tagName) + ' ' + e.getBoundingClientRect().height);
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (w.nextNode()) {
    const n = w.currentNode, p = n.parentElement;
    if (!n.textContent.trim() || !p || !vis(p) || p.closest('script,style')) continue;
    const fs = parseFloat(getComputedStyle(p).fontSize);
    if (fs < 16) out.small.push(n.textContent.trim().slice(0, 40) + ' ' + fs);
  }
  return out;
}"""


@pytest.fixture
def browser():
    os.makedirs(SHOTS, exist_ok=True)
    with chromium() as b:
        yield b


def phone(browser, size):
    ctx = browser.new_context(viewport={'width': size[0], 'height': size[1]}, is_mobile=True,
                              has_touch=True, device_scale_factor=1)
    pg = ctx.new_page()
    pg.sent = []
    pg.on('request', lambda r: pg.sent.append((r.method, r.url, r.post_data))
          if r.method == 'POST' else None)
    return pg


def check(pg, state, size, extra=()):
    """Measure the page as it is now, save its picture, and return the visible text."""
    pg.wait_for_timeout(150)
    m = pg.evaluate(MEASURE)
    pg.screenshot(path='%s/%s-%d.png' % (SHOTS, state, size[0]), full_page=True)
    assert m['scroll'] <= m['width'], (state, size, m['scroll'])
    assert m['short'] == [], (state, size, m['short'])
    assert m['small'] == [], (state, size, m['small'])
    for t in [m['text']] + m['options']:
        for bad in INTERNAL:
            assert bad not in t, (state, size, bad, t)
    for bad in extra:
        assert bad not in m['text'], (state, size, bad, m['text'])
    return m['text']


def pair(board, pg):
    pg.click('#ask')
    pin = None
    for _ in range(100):
        pin = board.view().get('pin')
        if pin:
            break
        pg.wait_for_timeout(20)
    pg.fill('#pin', pin)
    pg.click('#send')
    pg.wait_for_selector('#acts', state='visible')


def test_the_page_for_players_in_every_state_at_both_sizes(browser):
    for size in VIEWPORTS:
        board = Board('players%d' % size[0])
        try:
            pg = phone(browser, size)
            pg.goto(board.url)
            pg.wait_for_selector('#conn:has-text("Live")')
            text = check(pg, 'watching', size)
            assert 'Knock-off' in text and 'pair' in text.lower()
            assert pg.locator('#acts').is_hidden()
            # Asking for a PIN; a PIN that is not 4 digits is never sent; a wrong one is told.
            pg.click('#ask')
            pg.wait_for_selector('#hint:has-text("4-digit PIN")')
            pg.fill('#pin', '12')
            n = len(pg.sent)
            pg.click('#send')
            assert pg.locator('#err').inner_text() == 'Type the 4 digits the board shows.'
            assert len(pg.sent) == n
            pin = board.view()['pin']
            pg.fill('#pin', '0000' if pin != '0000' else '1111')
            pg.click('#send')
            pg.wait_for_selector('#err:has-text("not the PIN")')
            check(pg, 'wrong-pin', size)
            pg.fill('#pin', pin)
            pg.click('#send')
            pg.wait_for_selector('#acts', state='visible')
            text = check(pg, 'paired-setup', size, extra=('PIN',))    # no PIN hint once paired
            assert 'hammer' in pg.locator('#hint').inner_text()
            # Start with OK; points pending; OK with nothing pending asks before a blank frame.
            pg.click('#kok')
            pg.wait_for_selector('#line:has-text("frame 1")')
            n = len(pg.sent)
            pg.click('#kok')
            pg.wait_for_selector('#err:has-text("blank frame")')
            pg.wait_for_timeout(200)
            assert len(pg.sent) == n and board.view()['frame'] == 1
            pg.click('#frame')                      # the direct entry, both fields empty
            assert 'points of each side' in pg.locator('#err').inner_text()
            assert len(pg.sent) == n and board.view()['frame'] == 1
            pg.click('#kr')
            pg.click('#kr')
            pg.wait_for_selector('#rp:has-text("+2")')
            check(pg, 'play-pending', size)
            pg.click('#kok')
            pg.wait_for_function("document.getElementById('rt').textContent == '2'")
            # A refused entry reads as a sentence.
            pg.fill('#fr', '3')
            pg.fill('#fb', '2')
            pg.click('#frame')
            pg.wait_for_selector('#err:not(:empty)')
            err = pg.locator('#err').inner_text()
            assert err.startswith('Only one side scores') and err.endswith('.'), err
            check(pg, 'refused', size)
            # The new-game form starts from the game in play and says it is set aside.
            board.act({'do': 'new', 'game': 'knockoff', 'options': {'target': 21,
                                                                   'hammer': 'red'},
                       'names': {'red': 'Ann', 'blue': 'Bo'}})
            board.act({'do': 'frame', 'red': 0, 'blue': 3})
            pg.wait_for_selector('#bt:has-text("3")')
            pg.click('#newgame summary')
            pg.wait_for_selector('#opts select')
            assert pg.locator('#game').input_value() == 'knockoff'
            labels = pg.locator('#opts').inner_text()
            assert 'Play to' in labels and 'Hammer' in labels and 'After a blank frame' in labels
            assert pg.locator('#opts input[data-o="target"]').input_value() == '21'
            ham = pg.locator('#opts select[data-o="hammer"]')
            assert ham.evaluate('s => s.options[s.selectedIndex].text') == 'Red'
            assert pg.locator('#nr').input_value() == 'Ann'
            assert 'set aside' in pg.locator('#aside').inner_text()
            text = check(pg, 'new-game-form', size)
            assert 'Tap and draw' in ' '.join(pg.evaluate(
                "[...document.querySelectorAll('#game option')].map(o => o.textContent)"))
            pg.click('#new')
            pg.wait_for_selector('#said:has-text("set aside")')
            v = board.view()
            assert v['screen'] == 'setup' and v['game'] == 'knockoff' and v['target'] == 21
            assert v['hammer'] == 'red' and v['names'] == {'red': 'Ann', 'blue': 'Bo'}
            # Game over: the winner in words, no hammer, banking first.
            board.act({'do': 'frame', 'red': 0, 'blue': 16})
            board.act({'do': 'frame', 'red': 0, 'blue': 5})
            pg.wait_for_selector('#bm:has-text("Wins!")')
            text = check(pg, 'over', size, extra=('Hammer', 'hammer', 'To shoot'))
            assert 'Bo wins Knock-off, 21 to 0.' in text
            big = pg.locator('#bankbig')
            assert big.is_visible()
            assert big.bounding_box()['y'] < pg.locator('#kok').bounding_box()['y']
            big.click()
            pg.wait_for_selector('#line:has-text("Next: Knock-off")')
            assert board.view()['games']['blue'] == 1
            check(pg, 'banked', size)
            # The board's menu open, as the page shows it.
            board.press('OK', 'hold')
            pg.wait_for_selector('#line:has-text("menu is open")')
            check(pg, 'menu', size)
            pg.context.close()
        finally:
            board.stop()


def test_other_games_read_in_words_and_shove_gets_its_beds(browser):
    size = VIEWPORTS[0]
    board = Board('playersgames')
    try:
        pg = phone(browser, size)
        pg.goto(board.url)
        pg.wait_for_selector('#conn:has-text("Live")')
        pair(board, pg)
        for kind, words in (('horsecollar', 'Horse collar'), ('shovehapenny', "Shove ha'penny"),
                            ('practice', 'Placement practice'), ('tapdraw', 'Tap and draw'),
                            ('fourframe', 'Four-frame match')):
            board.act({'do': 'new', 'game': kind})
            board.press('OK', 'tap')
            pg.wait_for_selector('#line:has-text("%s")' % words)
            check(pg, 'game-' + kind, size)
            if kind == 'shovehapenny':
                assert pg.locator('#fbed').is_visible()
                assert pg.locator('#fr').is_hidden()
        pg.context.close()
    finally:
        board.stop()


def test_the_wifi_page_of_the_access_point(browser):
    for size in VIEWPORTS:
        board = Board('apage%d' % size[0], wifi=True)
        try:
            for _ in range(100):
                if board.on_board(board.h.runner.wifi.public)['mode'] == 'ap':
                    break
                threading.Event().wait(0.05)
            pg = phone(browser, size)
            pg.goto(board.url)
            pg.wait_for_selector('#ssid')
            check(pg, 'wifi', size)
            pg.fill('#ssid', 'The Bar')
            pg.fill('#pw', 'short')
            pg.click('#join')
            err = pg.locator('#err').inner_text()
            assert err.startswith('A Wi-Fi password is at least 8 characters'), err
            check(pg, 'wifi-short', size)
            # What the board itself says, as a sentence (a name the page lets through).
            pg.fill('#pw', '')
            pg.fill('#ssid', 'x' * 32)
            pg.evaluate("document.getElementById('ssid').removeAttribute('maxlength')")
            pg.fill('#ssid', 'x' * 40)
            pg.click('#join')
            pg.wait_for_selector('#err:has-text("1 to 32")')
            check(pg, 'wifi-refused', size)
            pg.fill('#ssid', 'The Bar')
            pg.fill('#pw', 'a-long-password')
            pg.click('#join')
            pg.wait_for_selector('#done:has-text("joining The Bar")')
            check(pg, 'wifi-joining', size)
            assert pg.sent[-1][2] and '"ssid"' in pg.sent[-1][2]      # sent as JSON
            pg.context.close()
        finally:
            board.stop()


def test_a_phone_the_board_forgot_is_told_in_a_sentence_and_can_pair_again(browser):
    size = VIEWPORTS[1]
    board = Board('playersforgot')
    try:
        pg = phone(browser, size)
        pg.goto(board.url)
        pg.wait_for_selector('#conn:has-text("Live")')
        pair(board, pg)
        # the paired page watches with its token: its stream is a phone's, never a watcher's
        # (the page's first, unpaired stream leaves the hub when the board next writes to it)
        for _ in range(50):
            if True in board.on_board(lambda: [s.paired for s in board.h.runner.hub.streams]):
                break
            pg.wait_for_timeout(50)
        assert True in board.on_board(lambda: [s.paired for s in board.h.runner.hub.streams])
        board.on_board(lambda: board.h.ctl.on_unpair())        # the menu's unpair
        pg.click('#kr')
        pg.wait_for_selector('#err:has-text("no longer paired")')
        assert pg.locator('#pairing').is_visible() and pg.locator('#acts').is_hidden()
        check(pg, 'forgotten', size)
        pair(board, pg)
        pg.click('#kr')
        pg.wait_for_function("document.getElementById('rm').textContent == 'Has the hammer'")
        pg.context.close()
    finally:
        board.stop()
