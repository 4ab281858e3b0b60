# The host's page (/host) and the TV page's tournament panel in a real browser (Playwright on
# Debian's chromium), against the venue service on a real mosquitto with tables that publish what
# a board publishes: the password asked once, a round robin created and started from the form,
# matches on the tables, a result entered and corrected, a match moved, a player withdrawn; the
# TV shows what plays where, what is next, the standings, and a bracket. Screenshots go to
# build/night-pages/ (SCREENS=dir to choose), to be looked at.
import json
import os

import pytest
from test_night_service import PASSWORD, Venue, bank, table_at
from test_venue_tv import CHROMIUM, need_browser
from venue_support import Broker, wait_until

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENS = os.environ.get('SCREENS') or os.path.join(ROOT, 'build', 'night-pages')
SIX = ['Ann', 'Ben', 'Cat', 'Dev', 'Eve', 'Fin']


@pytest.fixture
def venue(tmp_path, monkeypatch):
    monkeypatch.setenv('HOST_PASSWORD', PASSWORD)
    (tmp_path / 'broker').mkdir()
    broker = Broker(tmp_path / 'broker').start()
    v = Venue(broker, str(tmp_path / 'v.sqlite'))
    v.broker = broker
    yield v
    v.stop()
    broker.stop()


def shot(page, name):
    os.makedirs(SCREENS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENS, name + '.png'), full_page=True)


def no_sideways_scroll(page):
    return page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')


def test_the_host_runs_a_night_from_the_page_and_the_tv_follows(venue):
    sync_playwright = need_browser()
    port = venue.broker.port
    for t in ('1', '2', '3'):
        table_at(port, t)
    assert wait_until(lambda: len(venue.svc.tables) == 3, 5)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=['--no-sandbox'])
        ctx = browser.new_context(viewport={'width': 1280, 'height': 900})
        page = ctx.new_page()
        page.on('dialog', lambda d: d.accept())          # the withdraw's confirm()
        page.goto(venue.base + '/host')
        # asked once: a wrong password first, then the right one
        page.wait_for_selector('#login:not([hidden])')
        page.fill('#password', 'wrong')
        page.click('#loginform button')
        page.fill('#tname', 'Friday')
        page.fill('#players', '\n'.join(SIX))
        page.fill('#target', '5')
        page.click('#startnow')
        page.wait_for_selector('#login:not([hidden])')
        assert 'wrong or missing host password' in page.inner_text('#error').lower()
        page.fill('#password', PASSWORD)
        page.click('#loginform button')
        page.click('#startnow')
        page.wait_for_selector('#matches tr', timeout=5000)
        assert 'Started' in page.inner_text('#ok')
        t = venue.night.view(1)
        assert t['name'] == 'Friday' and t['options'] == {'target': 5} and len(t['matches']) == 15
        page.wait_for_function("document.querySelectorAll('#matches tr').length === 15")
        wait_until(lambda: len(venue.night.view(1)['playing']) == 3, 5)
        page.wait_for_timeout(3500)                       # the page's refresh
        text = page.inner_text('#matches')
        assert text.count('Table ') == 3 and 'playing' in text
        shot(page, 'host-running')
        # the password is remembered: a reload asks nothing
        page.reload()
        page.wait_for_selector('#matches tr')
        assert page.is_hidden('#login')

        # table 1's board banks its match; the page shows the result
        m1 = [m for m in venue.night.view(1)['playing'] if m['table'] == '1'][0]
        table_at(port, '1', screen='play')
        bank(port, '1', 'b1', m1['id'], 'red', 6, 2)
        wait_until(lambda: venue.night.stats['results'] == 1, 5)
        page.wait_for_timeout(3500)
        row = page.locator('#matches tr', has_text=m1['red'] + ' v ' + m1['blue'])
        assert '%s 6–2' % m1['red'] in row.inner_text()
        # the host corrects it
        row.locator('button', has_text='Correct').click()
        page.select_option('#rwinner', 'blue')
        page.fill('#rred', '4')
        page.fill('#rblue', '5')
        page.click('#rsave')
        page.wait_for_function("document.getElementById('ok').textContent.indexOf('Saved') >= 0")
        m = [x for x in venue.night.view(1)['matches'] if x['id'] == m1['id']][0]
        assert m['winner'] == 'blue' and m['score'] == {'red': 4, 'blue': 5}
        # table 3 goes offline; its match is moved back to the queue from the page
        table_at(port, '3', status='offline')
        wait_until(lambda: venue.svc.tables[('bar', '3')]['status'] == 'offline', 5)
        m3 = [x for x in venue.night.view(1)['playing'] if x['table'] == '3'][0]
        page.wait_for_timeout(3500)
        row = page.locator('#matches tr', has_text=m3['red'] + ' v ' + m3['blue'])
        assert '(offline)' in row.inner_text()
        shot(page, 'host-offline-table')
        row.locator('button', has_text='Move').click()
        page.select_option('#mtable', '')
        page.click('#msave')
        page.wait_for_function(
            "document.getElementById('ok').textContent.indexOf('Back in the queue') >= 0")
        m = [x for x in venue.night.view(1)['matches'] if x['id'] == m3['id']][0]
        assert m['table'] != '3'
        # a player withdraws
        page.select_option('#leaver', 'Fin')
        page.click('#withdrawform button')
        page.wait_for_function("document.getElementById('ok').textContent.indexOf('Fin') >= 0")
        assert all(x['state'] == 'done' for x in venue.night.view(1)['matches']
                   if 'Fin' in (x['red'], x['blue']))
        shot(page, 'host-after-withdraw')

        # the phone-sized page: nothing scrolls sideways, the controls are big enough
        phone = browser.new_context(viewport={'width': 360, 'height': 740}).new_page()
        phone.goto(venue.base + '/host')
        phone.evaluate("localStorage.setItem('shuffleboard-host-password', %s)"
                       % json.dumps(PASSWORD))
        phone.reload()
        phone.wait_for_selector('#matches tr')
        assert no_sideways_scroll(phone)
        heights = phone.evaluate(
            "[...document.querySelectorAll('#withdrawform button, #pick, #leaver')]"
            ".map(e => e.getBoundingClientRect().height)")
        assert min(heights) >= 44, heights
        shot(phone, 'host-phone')

        # the TV: what plays where, what is next, the standings
        tv = browser.new_context(viewport={'width': 1920, 'height': 1080}).new_page()
        tv.goto(venue.base + '/')
        tv.wait_for_selector('#tournament:not([hidden])', timeout=8000)
        panel = tv.inner_text('#tournament')
        assert 'Friday' in panel and 'Playing now' in panel and 'Next' in panel
        assert 'Standings' in panel
        for m in venue.night.view(1)['playing']:
            assert 'Table %s' % m['table'] in panel
        rows = tv.locator('#tournament table tr').all_inner_texts()
        assert len(rows) == 7 and rows[1].split()[1] in ('Ann', 'Ben', 'Cat', 'Dev', 'Eve')
        assert no_sideways_scroll(tv)
        shot(tv, 'tv-round-robin')

        # a single elimination: the TV shows its bracket
        code, se = venue.call('POST', '/api/tournaments', {
            'name': 'Knockout', 'format': 'single', 'options': {'target': 5},
            'players': SIX[:5], 'start': True})
        assert code == 201
        venue.call('POST', '/api/tournaments/1/withdraw', {'name': 'Ann'})
        for name in ('Ben', 'Cat', 'Dev', 'Eve'):    # end the round robin: the knockout shows
            venue.call('POST', '/api/tournaments/1/withdraw', {'name': name})
        tv.wait_for_function("document.getElementById('tournament').textContent"
                             ".indexOf('Bracket') >= 0", timeout=8000)
        panel = tv.inner_text('#tournament')
        assert 'Knockout' in panel and 'Final' in panel and 'Semi-finals' in panel
        assert tv.locator('#tournament .round').count() == 3
        assert tv.locator('#tournament .round').nth(0).locator('.m').count() == 4
        shot(tv, 'tv-bracket')
        tv720 = browser.new_context(viewport={'width': 1280, 'height': 720}).new_page()
        tv720.goto(venue.base + '/')
        tv720.wait_for_selector('#tournament:not([hidden])', timeout=8000)
        assert no_sideways_scroll(tv720)
        shot(tv720, 'tv-bracket-720')

        # the sign-up flow on the page: a doubles knockout, players added one by one, started
        page.select_option('#pick', '')
        page.wait_for_selector('#create:not([hidden])')
        page.fill('#tname', 'Doubles')
        page.select_option('#format', 'single')
        page.select_option('#teams', 'doubles')
        page.fill('#players', 'Ann\nBen\nCat')
        page.click('#signupfirst')
        page.wait_for_selector('#signup:not([hidden])')
        assert page.locator('#signed span').all_inner_texts() == ['Ann', 'Ben', 'Cat']
        page.click('#start')                     # three players: refused, said in words
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert 'even number of players' in page.inner_text('#error')
        page.fill('#newplayer', 'Dev')
        page.click('#addform button')
        page.wait_for_function("document.getElementById('signed').textContent.indexOf('Dev')"
                               " >= 0")
        page.fill('#newplayer', 'ann')
        page.click('#addform button')
        page.wait_for_function("document.getElementById('error').textContent"
                               ".indexOf('already') >= 0")
        page.click('#start')
        page.wait_for_selector('#running:not([hidden])')
        t = venue.night.view(3)
        assert t['doubles'] and t['format'] == 'single' and len(t['entries']) == 2
        assert all('/' in e['name'] for e in t['entries'])
        shot(page, 'host-doubles')
        browser.close()
