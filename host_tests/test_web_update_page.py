# The phone page's "About this board" part (DESIGN sections 10 and 12), in Debian's chromium
# through Playwright: the simulated Wi-Fi board (net_harness, in a thread) runs version 1 from
# app folder 'a' of its flash, as a USB deploy leaves it (test_update_ota.install). The page
# shows the version to anyone; an unpaired phone has no way to send an update; a paired phone
# chooses update.bin and sends it. A package that is not signed for this board, a tampered one
# and one too large for the flash are refused in plain words and nothing changes (the pointer,
# the running folder, /api/version); a file that is no update is not even sent; the signed
# package shows as installed and restarting, and /api/version then says the new version, on
# trial, with version 1 before it. The board's reset (update.restart) is the test's own.
# Screenshots go to /tmp/h32-shots/.
import json
import os

import pytest

import package
from test_update_ota import body, firmware_copy, install, snapshot
import test_web_players as players
from board_thread import Board, needs_chromium
from test_web_players import browser, check, pair, phone  # noqa: F401

import apps
from scoreboard.net import update

pytestmark = needs_chromium
SHOTS = '/tmp/h32-shots'
SIZE = (360, 740)
FREE = update.free_bytes
SECOND = '\n_BUILD = 2    # version 2: the same firmware, another build\n'


@pytest.fixture(autouse=True)
def shots(monkeypatch):
    """check() measures the page and saves its picture: here, in this test's folder."""
    os.makedirs(SHOTS, exist_ok=True)
    monkeypatch.setattr(players, 'SHOTS', SHOTS)


@pytest.fixture
def flash(tmp_path):
    """A flash running version 1, and the files a bar's owner might pick: update.bin of
    version 2 as built, unsigned, tampered, and a file that is no update at all."""
    pkg1 = tmp_path / 'p1'
    pkg2 = tmp_path / 'p2'
    v1 = package.build_package(str(pkg1), src=str(firmware_copy(tmp_path, 'fw1')))['version']
    v2 = package.build_package(str(pkg2), src=str(firmware_copy(tmp_path, 'fw2', SECOND)))
    d = tmp_path / 'flash'
    d.mkdir()
    assert install(d, pkg1, 'a') == v1
    files = {}
    for name, tamper in (('good', None), ('unsigned', 'unsigned'), ('tampered', 'file')):
        f = tmp_path / name / 'update.bin'
        f.parent.mkdir()
        f.write_bytes(body(pkg2, tamper))
        files[name] = str(f)
    files['photo'] = str(tmp_path / 'photo.jpg')
    with open(files['photo'], 'wb') as f:
        f.write(b'\xff\xd8\xff\xe0' + bytes(2000))
    assert v2['version'] != v1
    return {'dir': d, 'v1': v1, 'v2': v2['version'], 'files': files}


def version(pg):
    return pg.evaluate("fetch('/api/version').then(r => r.json())")


def send(pg, path, then):
    """Choose the file, press Send, wait until the outcome `then` (a CSS selector) shows."""
    pg.set_input_files('#upf', path)
    pg.click('#ups')
    pg.wait_for_selector(then, timeout=30000)
    return pg.locator('#upm').inner_text()


def test_the_page_shows_the_version_and_a_paired_phone_updates_the_board(browser, flash,  # noqa: F811
                                                                        monkeypatch):
    restarts = []
    monkeypatch.setattr(update, 'restart', lambda: restarts.append(1))
    d, v1, v2, files = flash['dir'], flash['v1'], flash['v2'], flash['files']
    board = Board('updpage', flash=str(d))
    try:
        pg = phone(browser, SIZE)
        pg.goto(board.url)
        pg.wait_for_selector('#conn:has-text("Live")')
        # Anyone sees the version; an unpaired phone cannot send an update.
        pg.wait_for_selector('#ver:has-text("Version %s")' % v1)
        assert pg.locator('#ver').inner_text() == 'Version %s.' % v1
        assert pg.locator('#upf').is_hidden() and pg.locator('#ups').is_hidden()
        assert 'pair it first' in pg.locator('#upp').inner_text()
        text = check(pg, 'about-watching', SIZE)
        assert 'About this board' in text
        n = len(pg.sent)
        pair(board, pg)
        assert pg.locator('#ups').is_visible() and pg.locator('#upp').is_hidden()
        before = snapshot(d)
        # Nothing chosen, or a file that is no update: told, nothing sent.
        pg.click('#ups')
        assert 'Choose the update file' in pg.locator('#upm').inner_text()
        n = len(pg.sent)
        said = send(pg, files['photo'], '#upm.bad')
        assert said.startswith('That file is not an update'), said
        assert len(pg.sent) == n
        # Not signed for this board: refused, and nothing changed.
        said = send(pg, files['unsigned'], '#upm.bad')
        assert said.startswith('Refused: this update is not signed for this board'), said
        assert 'Nothing changed' in said and 'Installed' not in said
        assert pg.sent[-1][1].endswith('/api/update')
        check(pg, 'update-unsigned', SIZE)
        assert snapshot(d) == before and not restarts
        assert version(pg) == {'version': v1, 'previous': None, 'trial': False}
        # Tampered (a byte of a file changed after the build): refused, nothing changed.
        said = send(pg, files['tampered'], '#upm.bad')
        assert said.startswith('Refused: the update file is damaged'), said
        assert 'Installed' not in said
        check(pg, 'update-tampered', SIZE)
        assert snapshot(d) == before and not restarts
        assert apps.read(str(d))['run'] == 'a'
        assert version(pg) == {'version': v1, 'previous': None, 'trial': False}
        assert pg.locator('#ver').inner_text() == 'Version %s.' % v1
        # Too large for the flash: refused before a byte is read.
        monkeypatch.setattr(update, 'free_bytes', lambda root='': 1000)
        said = send(pg, files['good'], '#upm.bad')
        monkeypatch.setattr(update, 'free_bytes', FREE)
        assert said.startswith('Refused: the update is too large for the board'), said
        assert 'KB' in said and 'Installed' not in said
        check(pg, 'update-too-large', SIZE)
        assert snapshot(d) == before and not restarts
        # The signed package: installed, and the board restarts into it, on trial.
        said = send(pg, files['good'], '#upm.good')
        assert said == 'Installed: version %s. The board restarts into it now.' % v2, said
        ver = pg.locator('#ver').inner_text()
        assert ver == ('Version %s, on trial: if it fails in its first minute, the board goes '
                       'back to version %s by itself.' % (v2, v1)), ver
        check(pg, 'update-installed', SIZE)
        assert version(pg) == {'version': v2, 'previous': v1, 'trial': True}
        for _ in range(100):
            if restarts:
                break
            pg.wait_for_timeout(30)
        assert restarts == [1]
        ptr = apps.read(str(d))
        assert ptr['run'] == 'b' and ptr['prev'] == 'a' and ptr['trial']
        assert apps.verify('b', str(d)) is None
        assert json.loads((d / 'app_b' / 'manifest.json').read_text())['version'] == v2
        # The new version fails on trial and the board goes back by itself (apps.undo, as
        # its loader does): once the board is back, the page says so, never 'installed'.
        apps.undo(ptr, str(d), 'faults')
        pg.evaluate('ver()')            # what the event stream's reconnect does
        pg.wait_for_selector('#upm.bad')
        said = pg.locator('#upm').inner_text()
        assert said == ('The board went back to version %s by itself: the new version failed '
                        'on trial.' % v1), said
        assert pg.locator('#ver').inner_text() == 'Version %s. The version before it: %s.' % (
            v1, v2)
        check(pg, 'update-undone', SIZE)
        pg.context.close()
    finally:
        board.stop()


def no_apps():
    raise ImportError('no module named apps')


def test_without_app_folders_the_page_says_so_in_words(browser, monkeypatch, tmp_path):  # noqa: F811,E501
    # A board put on before the app folders (no pointer; no loader's apps module): no version
    # to show, and an update is answered 501, which the page puts in words.
    monkeypatch.setattr(update, '_apps', no_apps)
    board = Board('updnone')
    try:
        pg = phone(browser, SIZE)
        pg.goto(board.url)
        pg.wait_for_selector('#ver:not(:empty)')
        said = pg.locator('#ver').inner_text()
        assert said.startswith('Version not known') and 'make deploy' in said, said
        check(pg, 'about-no-folders', SIZE)
        pair(board, pg)
        path = str(tmp_path / 'update.bin')
        with open(path, 'wb') as f:
            f.write(update.MAGIC + b'10\n' + bytes(100))
        said = send(pg, path, '#upm.bad')
        assert 'over USB only' in said and 'Installed' not in said, said
        check(pg, 'update-no-folders', SIZE)
        pg.context.close()
    finally:
        board.stop()
