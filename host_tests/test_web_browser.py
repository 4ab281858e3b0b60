# The phone page in a real browser: Debian's chromium driven by Playwright (its executable path
# set, nothing downloaded). The firmware's runner serves on loopback from a thread; the page
# pairs with the PIN the board shows, starts the game with the OK button, enters frames of the
# seed 000 game by direct entry, sees every change arrive through the event stream, and shows a
# refused entry's reason. Skipped where chromium or Playwright is missing.
import pytest
from board_thread import Board, chromium, needs_chromium

pytestmark = needs_chromium


@pytest.fixture
def board():
    b = Board('browser', ready_s=10)
    yield b
    b.stop()


@pytest.fixture
def page():
    with chromium() as browser:
        ctx = browser.new_context(viewport={'width': 390, 'height': 844}, is_mobile=True)
        pg = ctx.new_page()
        external = []
        failed = []
        pg.on('request', lambda r: external.append(r.url)
              if not r.url.startswith('http://127.0.0.1') else None)
        pg.on('response', lambda r: failed.append((r.status, r.url))
              if r.status >= 400 and '/api/' not in r.url else None)
        yield pg
        assert external == [], external     # nothing from the internet
        assert failed == [], failed         # and nothing the page asks for is missing


def score(page, side):
    return int(page.locator('#%st' % side[0]).inner_text())


def test_pair_and_score_from_the_page(board, page):
    page.goto(board.url)
    page.wait_for_selector('#conn:has-text("live")')
    assert page.locator('#acts').is_hidden()           # watching: no buttons to act
    page.click('#ask')
    pin = None
    for _ in range(100):
        pin = board.on_board(lambda: board.h.ctl.view.get('pin'))
        if pin:
            break
        page.wait_for_timeout(20)
    assert pin and len(pin) == 4
    page.fill('#pin', pin)
    page.click('#send')
    page.wait_for_selector('#acts', state='visible')
    assert page.evaluate("localStorage.getItem('token')")
    page.click('button[data-b="OK"][data-g="tap"]')     # start: setup -> play
    page.wait_for_selector('#line:has-text("frame 1")')
    for red, blue in ((0, 5), (4, 0), (4, 0), (0, 3)):
        want = (score(page, 'red') + red, score(page, 'blue') + blue)
        page.fill('#fr', str(red))
        page.fill('#fb', str(blue))
        page.click('#frame')
        page.wait_for_function(
            "([r, b]) => document.getElementById('rt').textContent == r && "
            "document.getElementById('bt').textContent == b", arg=list(want))
    assert board.on_board(lambda: (board.h.ctl.view['red'], board.h.ctl.view['blue'])) == (8, 8)
    assert page.locator('#rm').inner_text() == 'Hammer'    # level at 8: red shoots last
    # A refused entry: the page says why, nothing changes.
    page.fill('#fr', '3')
    page.fill('#fb', '2')
    page.click('#frame')
    page.wait_for_selector('#err:not(:empty)')
    assert page.locator('#err').inner_text()
    assert (score(page, 'red'), score(page, 'blue')) == (8, 8)
    # The board's own button shows up on the page through the event stream.
    page.click('#undo')
    page.wait_for_function("document.getElementById('bt').textContent == '5'")
    b = board.h.runner.board.BUTTONS
    board.on_board(lambda: board.nh.machine.drive(b['BLUE'], 0))
    page.wait_for_timeout(150)
    board.on_board(lambda: board.nh.machine.drive(b['BLUE'], None))
    page.wait_for_selector('#bp:has-text("+1")')
    page.screenshot(path='/tmp/scoreboard-phone-page.png', full_page=True)


def paired(board, page):
    """The page opened and paired with the PIN the board shows: the actions are there."""
    page.goto(board.url)
    page.click('#ask')
    page.wait_for_timeout(100)
    pin = board.on_board(lambda: board.h.ctl.view.get('pin'))
    page.fill('#pin', pin)
    page.click('#send')
    page.wait_for_selector('#acts', state='visible')


def test_a_game_chosen_before_the_form_has_loaded_is_kept(board, page):
    # The form's open event comes as a task of its own, after the tap that opened it; a
    # choice made before it (a quick thumb, a loaded phone) must not be put back to the game
    # in play when the board's options arrive. Here the choice lands in the same task as the
    # opening, so the open event surely comes after it.
    paired(board, page)
    page.evaluate("""() => {
        document.getElementById('newgame').open = true;
        const g = document.getElementById('game');
        g.value = 'horsecollar';
        g.dispatchEvent(new Event('change'));
    }""")
    page.wait_for_timeout(600)              # the options of the game in play have come
    assert page.locator('#game').input_value() == 'horsecollar'
    page.click('#new')
    page.wait_for_function("() => !document.getElementById('newgame').open")
    v = board.on_board(lambda: board.h.ctl.view)
    assert v['game'] == 'horsecollar', v
    # closed and opened again: the form starts from the game now in play
    page.click('#newgame summary')
    page.wait_for_timeout(600)
    assert page.locator('#game').input_value() == 'horsecollar'


def test_a_new_game_with_names_from_the_page(board, page):
    paired(board, page)
    page.click('#newgame summary')          # the new-game form opens on a tap
    page.select_option('#game', 'horsecollar')
    page.fill('#nr', 'Alice')
    page.fill('#nb', 'Ben')
    page.click('#new')
    page.wait_for_selector('#rn:has-text("Alice")')
    assert page.locator('#bn').inner_text() == 'Ben'
    v = board.on_board(lambda: board.h.ctl.view)
    assert v['game'] == 'horsecollar' and v['names'] == {'red': 'Alice', 'blue': 'Ben'}
