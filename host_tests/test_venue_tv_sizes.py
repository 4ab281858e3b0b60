# The TV page as a TV across a bar shows it (DESIGN section 10), in Debian's chromium through
# Playwright, at 1920x1080 and 1280x720 with 1, 4, 6 and 12 tables: the tables fill the screen,
# each side's score (its digits as drawn) at least a tenth of the screen's height with up to 6
# tables, names and the winner in words, game over said with no hammer, offline dimmed. The
# screenshots go to $TV_SHOTS (or the test's folder) to be looked at.
import json
import os

import pytest
from test_venue_tv import CHROMIUM, need_browser
from venue.db import SqliteStore
from venue.service import Service
from venue import web

SIZES = ((1920, 1080), (1280, 720))
COUNTS = (1, 4, 6, 12)
NAMES = ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fred', 'Gwen', 'Huw', 'Ivy', 'Jo', 'Kit',
         'Liam', 'Mo', 'Nia', 'Olwen', 'Pat', 'Quin', 'Rhys', 'Siân', 'Tom', 'Una', 'Vic',
         'Wyn', 'Xena']


def state(i):
    """Table i's view: most play knock-off; table 2 is at game over (Cat won), table 3 is
    offline, table 4 has a side with no name and points pending."""
    v = {'v': 1, 'screen': 'play', 'game': 'knockoff', 'red': 11 + i % 5, 'blue': 9,
         'hammer': 'blue' if i % 2 else 'red', 'turn': None, 'frame': 6, 'end': 1,
         'target': 21, 'winner': None, 'pending': {'red': 0, 'blue': 0},
         'games': {'red': 1, 'blue': 0}, 'legs': {'red': 0, 'blue': 0}, 'message': None,
         'names': {'red': NAMES[2 * (i - 1)], 'blue': NAMES[2 * i - 1]}}
    if i == 2:
        v.update(screen='over', red=21, blue=14, winner='red', hammer='blue')
    if i == 4:
        v['names']['blue'] = None
        v['pending'] = {'red': 3, 'blue': 0}
    return v


def service(tmp_path, n):
    svc = Service(SqliteStore(str(tmp_path / ('v%d.sqlite' % n))), 'bar')
    for i in range(1, n + 1):
        svc.handle('shuffleboard/bar/%d/status' % i, b'online')
        svc.handle('shuffleboard/bar/%d/state' % i, json.dumps(state(i)).encode())
    if n >= 3:
        svc.handle('shuffleboard/bar/3/status', b'offline')
    # Games banked tonight by named players: the leaderboard beside the tables.
    for k, (winner, red, blue) in enumerate((('red', 'Ann', 'Bob'), ('blue', 'Cat', 'Dan'),
                                             ('red', 'Ann', None))):
        rec = {'v': 1, 'id': 'g%d' % k, 'table': '1', 'game': 'knockoff', 'options': {},
               'names': {'red': red, 'blue': blue}, 'red': 21 if winner == 'red' else 5,
               'blue': 21 if winner == 'blue' else 5, 'winner': winner, 'frames': [],
               'ended': 3}
        svc.handle('shuffleboard/bar/1/game', json.dumps(rec).encode())
    return svc


MEASURE = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 &&
                           a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const cards = [...document.querySelectorAll('.table')].map((c) => {
    const r = c.getBoundingClientRect();
    const sides = [...c.querySelectorAll('.side')].map((s) => {
      const mk = s.querySelector('.mark');
      const sc = s.querySelector('.score');
      const digits = sc.firstChild.textContent;
      const cs = getComputedStyle(sc);
      ctx.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
      const m = ctx.measureText(digits);
      const nm = s.querySelector('.name');
      return {side: s.dataset.side, digits, name: nm.textContent,
              ink: m.actualBoundingBoxAscent + m.actualBoundingBoxDescent,
              fontPx: parseFloat(cs.fontSize),
              mark: !!mk && getComputedStyle(mk).visibility !== 'hidden',
              hammer: s.classList.contains('hammer'),
              scoreInside: inside(sc.getBoundingClientRect(), r),
              nameInside: inside(nm.getBoundingClientRect(), r),
              nameFont: parseFloat(getComputedStyle(nm).fontSize)};
    });
    return {id: c.id, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            w: r.width, h: r.height, cls: c.className, opacity: getComputedStyle(c).opacity,
            note: c.querySelector('.note').textContent, game: c.querySelector('.game').textContent,
            noteFont: parseFloat(getComputedStyle(c.querySelector('.note')).fontSize), sides};
  });
  const rows = [...document.querySelectorAll('#board li')].map((li) => li.textContent);
  const lists = [...document.querySelectorAll('#board section')].filter((s) => !s.hidden)
    .map((s) => s.querySelector('h2').textContent);
  const li = document.querySelector('#board li');
  return {W: innerWidth, H: innerHeight, cards, rows, lists,
          scrollW: document.documentElement.scrollWidth,
          scrollH: document.documentElement.scrollHeight,
          boardFont: li ? parseFloat(getComputedStyle(li).fontSize) : 0,
          viewport: document.querySelector('meta[name=viewport]').content};
}"""


@pytest.fixture(scope='module')
def browser():
    sync_playwright = need_browser()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=['--no-sandbox'])
        yield b
        b.close()


@pytest.mark.parametrize('n', COUNTS)
def test_the_tv_page_at_tv_sizes(browser, tmp_path, n):
    shots = os.environ.get('TV_SHOTS') or str(tmp_path)
    os.makedirs(shots, exist_ok=True)
    svc = service(tmp_path, n)
    server = web.serve_in_thread(svc)
    url = 'http://127.0.0.1:%d/' % server.server_address[1]
    try:
        for w, h in SIZES:
            page = browser.new_page(viewport={'width': w, 'height': h})
            page.goto(url)
            page.wait_for_function('document.querySelectorAll(".table").length === %d' % n,
                                   timeout=5000)
            page.wait_for_timeout(150)
            page.screenshot(path=os.path.join(shots, 'tv-%dx%d-%d.png' % (w, h, n)))
            m = page.evaluate(MEASURE)
            page.close()
            check(m, n, w, h)
    finally:
        server.shutdown()
        server.server_close()
        svc.db.close()


def check(m, n, w, h):
    where = '%d tables at %dx%d' % (n, w, h)
    assert m['viewport'].startswith('width=device-width'), where
    assert m['scrollW'] <= w and m['scrollH'] <= h, where        # nothing scrolls
    cards = m['cards']
    assert len(cards) == n
    # The tables fill the screen: the cards cover most of it, edge to edge in height.
    area = sum(c['w'] * c['h'] for c in cards)
    assert area >= 0.55 * w * h, (where, area / (w * h))
    assert min(c['top'] for c in cards) < 0.03 * h and max(c['bottom'] for c in cards) > 0.97 * h
    for c in cards:
        assert c['left'] >= 0 and c['right'] <= w and c['top'] >= 0 and c['bottom'] <= h
        assert c['game'] == 'Knock-off', where
        for s in c['sides']:
            assert s['scoreInside'] and s['nameInside'], (where, c['id'], s)
            # the digits as drawn (ink, not the font's box): a tenth of the screen or more
            if n <= 6:
                assert s['ink'] >= h / 10, (where, c['id'], s['ink'], h / 10)
            assert s['nameFont'] >= h / 40, (where, s['nameFont'])
        assert c['noteFont'] >= h / (45 if n <= 6 else 55), where
    by = {c['id']: c for c in cards}
    t1 = by['table-bar-1']
    assert [s['name'] for s in t1['sides']] == ['Ann', 'Bob']
    assert [s['hammer'] for s in t1['sides']] == [False, True]     # table 1: blue's hammer
    if n >= 2:
        over = by['table-bar-2']
        assert over['note'] == 'Game over: Cat wins', where       # the winner in words
        assert 'over' in over['cls']
        assert not any(s['mark'] or s['hammer'] for s in over['sides'])   # no hammer
    if n >= 3:
        off = by['table-bar-3']
        assert 'offline' in off['cls'] and float(off['opacity']) <= 0.5 and \
            off['note'] == 'offline'
    if n >= 4:
        t4 = by['table-bar-4']
        assert [s['name'] for s in t4['sides']] == ['Gwen', 'Blue']   # an unnamed side
    inks = [s['ink'] for c in cards for s in c['sides']]
    print('TV %s: cards cover %.0f%% of the screen; digits %d-%d px high (%.1f%%-%.1f%% of '
          'the height); names %.0f px' % (where, 100 * area / (w * h), min(inks), max(inks),
                                          100 * min(inks) / h, 100 * max(inks) / h,
                                          min(s['nameFont'] for c in cards for s in c['sides'])))
    # The leaderboard: named players with wins, once (a first night: one list).
    assert m['lists'] == ['Tonight'], where
    assert m['rows'] == ['Ann2', 'Dan1'], (where, m['rows'])
    assert m['boardFont'] >= h / 35, where


def test_more_tables_than_a_screen_holds_are_counted(browser, tmp_path):
    # 14 tables: twelve shown (those that banked games here first), the rest said in words.
    svc = service(tmp_path, 12)
    for i in (13, 14):
        svc.handle('shuffleboard/bar/%d/status' % i, b'online')
        svc.handle('shuffleboard/bar/%d/state' % i, json.dumps(state(i % 12 + 1)).encode())
    server = web.serve_in_thread(svc)
    try:
        page = browser.new_page(viewport={'width': 1920, 'height': 1080})
        page.goto('http://127.0.0.1:%d/' % server.server_address[1])
        page.wait_for_selector('#more:not([hidden])', timeout=5000)
        assert page.locator('.table').count() == 12
        assert page.locator('#more').inner_text() == 'and 2 more tables'
        assert page.locator('#table-bar-1').count() == 1     # the table with games stays
        m = page.evaluate(MEASURE)
        assert m['scrollW'] <= 1920 and m['scrollH'] <= 1080
        page.close()
    finally:
        server.shutdown()
        server.server_close()
        svc.db.close()
