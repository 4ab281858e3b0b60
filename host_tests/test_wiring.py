# The wiring pictures in docs/pictures/ are drawn by tools/wiring.py from the board files as
# built on the virtual machine stand-in: each committed picture must be what the tool draws now
# (so it cannot disagree with the pins), a pin changed in a board file changes its picture, and
# the pins come from the objects the board built, not from reading its text.
import os

import pytest

import wiring

PIL = pytest.importorskip('PIL')
from PIL import Image  # noqa: E402

ROOT = wiring.ROOT
PICTURES = os.path.join(ROOT, 'docs', 'pictures')


def pixels(path_or_img):
    img = Image.open(path_or_img) if isinstance(path_or_img, str) else path_or_img
    img = img.convert('RGB')
    return img.size, img.tobytes()


def test_every_board_has_a_current_wiring_picture(tmp_path):
    assert wiring.main(['--pictures', str(tmp_path)]) == 0
    stale = []
    for name in wiring.boards():
        committed = wiring.picture_path(PICTURES, name)
        assert os.path.isfile(committed), '%s has no wiring picture: run `make pictures`' % name
        if pixels(committed) != pixels(wiring.picture_path(str(tmp_path), name)):
            stale.append(name)
    assert not stale, 'wiring pictures out of date (run `make pictures`): %s' % stale
    extra = [f for f in os.listdir(PICTURES) if f.endswith('-wiring.png')
             and f[:-len('-wiring.png')] not in wiring.boards()]
    assert not extra, 'pictures of boards that are gone: %s' % extra


def moved_board(tmp_path, name, edits):
    """A copy of boards/pico_tm1637.py under another module name, with text edits."""
    with open(os.path.join(ROOT, 'boards', 'pico_tm1637.py')) as f:
        text = f.read()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / (name + '.py')
    path.write_text(text)
    return str(path)


def test_a_changed_pin_changes_the_picture_and_the_table(tmp_path):
    base = wiring.read_board('pico_tm1637')
    path = moved_board(tmp_path, 'moved_tm1637', [('clk=Pin(2)', 'clk=Pin(6)'),
                                                 ("'RED': 14", "'RED': 10")])
    moved = wiring.read_board(path)
    red = base['parts'][0]['pins']
    assert red[0] == ('CLK', 2, '') and moved['parts'][0]['pins'][0] == ('CLK', 6, '')
    assert ('RED', 14) in base['buttons'] and ('RED', 10) in moved['buttons']
    assert 'GP6 (pin 9)' in wiring.table(moved) and 'GP6 (pin 9)' not in wiring.table(base)
    assert 'GP10 (pin 14)' in wiring.table(moved)
    assert pixels(wiring.picture(moved)) != pixels(wiring.picture(base))
    # and the same board unchanged draws the same picture twice
    assert pixels(wiring.picture(wiring.read_board('pico_tm1637'))) == pixels(
        wiring.picture(base))


def test_pins_come_from_the_built_board_not_its_text(tmp_path):
    # A pin computed at run time (no literal in the file) is still found: the tool reads the
    # Pin objects the drivers hold. An SPI bus's pins come from the SPI the board built.
    path = moved_board(tmp_path, 'computed_tm1637', [
        ('clk=Pin(2)', 'clk=Pin(BASE + 18)'),
        ('def displays():', 'BASE = 1\n\n\ndef displays():')])
    w = wiring.read_board(path)
    assert w['parts'][0]['pins'][0] == ('CLK', 19, '')
    spi = wiring.read_board('pico_max7219_matrix')['parts'][0]['pins']
    assert [(p[0], p[1]) for p in spi] == [('DIN', 19), ('CS (LOAD)', 17), ('CLK', 18)]
    sr = wiring.read_board('pico_595')['parts'][0]['pins']
    assert [(p[0], p[1]) for p in sr] == [('SER IN', 19), ('SRCK', 18), ('RCK', 17), ('/G', 20)]


def test_every_part_of_every_board_is_known_and_wired():
    for name in wiring.boards():
        w = wiring.read_board(name)
        assert w['parts'], name
        for p in w['parts']:
            assert p['pins'], (name, p['title'])
            assert p['power'], (name, p['title'])
        assert {b for b, _ in w['buttons']} >= {'RED', 'BLUE', 'OK'}, name
        used = [pid for p in w['parts'] for _, pid, _ in p['pins']] + [
            pid for _, pid in w['buttons']]
        assert len(used) == len(set(used)), (name, used)   # no pin wired twice


def test_the_tool_leaves_the_stand_in_machine_as_it_found_it():
    import machine
    spi, soft = machine.SPI, machine.SoftSPI
    wiring.read_board('pico_max7219_digits')
    assert machine.SPI is spi and machine.SoftSPI is soft


# -- the build pages ------------------------------------------------------------------------------

SECTIONS = ['What it suits', 'Bill of materials', 'Wiring', 'Power', 'Buttons', 'Mounting',
            'MicroPython and flashing', 'Nothing lights']


def page(name):
    with open(os.path.join(ROOT, 'boards', name + '.md')) as f:
        return f.read()


def test_every_board_has_a_build_page_in_one_shape():
    import re
    for name in wiring.boards():
        text = page(name)
        heads = re.findall(r'^## (.+)$', text, re.M)
        assert heads[:len(SECTIONS)] == SECTIONS, (name, heads)
        assert all(h.startswith('What it shows') for h in heads[len(SECTIONS):]), (name, heads)
        assert '../docs/pictures/%s-wiring.png' % name in text, name
        assert 'make deploy BOARD=%s' % name in text and "choose('%s')" % name in text, name
        bom = text.split('## Bill of materials', 1)[1].split('\n## ', 1)[0]
        assert '**total**' in bom and bom.count('$') >= 4, name
        reads = text.split('## What it suits', 1)[1].split('\n## ', 1)[0]
        assert re.search(r'\d+(\.\d+)? m\b', reads), (name, 'no reading distance')
        power = text.split('## Power', 1)[1].split('\n## ', 1)[0]
        assert re.search(r'\d+ ?m?A\b', power) and ('Schottky' in power or 'USB' in power), name


def test_every_build_page_pin_table_is_current_and_the_only_copy_of_the_pins():
    import re
    for name in wiring.boards():
        text = page(name)
        assert text == wiring.page_text(text, wiring.read_board(name)), (
            '%s.md: the pin table is out of date: run `make pictures`' % name)
        prose = re.sub(re.escape(wiring.BEGIN) + '.*?' + re.escape(wiring.END), '', text,
                       flags=re.S)
        # the level shifter's table is generated from the same board as the pin table
        prose = re.sub(re.escape(wiring.SH_BEGIN) + '.*?' + re.escape(wiring.SH_END), '',
                       prose, flags=re.S)
        found = re.findall(r'\b(?:GP|GPIO)\d+\b', prose)
        assert not found, '%s.md names pins outside its generated table: %s' % (name, found)


def test_make_pictures_draws_every_board(tmp_path):
    # The Makefile's recipe itself (into a scratch folder): both tools run, every board gets its
    # display and its wiring picture, and the build pages, being current, are left as they are.
    import subprocess
    before = {n: page(n) for n in wiring.boards()}
    r = subprocess.run(['make', '-s', '--no-print-directory', '-C', ROOT, 'pictures',
                        'PICTURES=%s' % tmp_path], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    for name in wiring.boards():
        assert (tmp_path / (name + '.png')).is_file(), name
        assert pixels(str(tmp_path / (name + '-wiring.png'))) == pixels(
            wiring.picture_path(PICTURES, name)), name
        assert page(name) == before[name], name


# -- the circuit: every part of the parts list in the picture, every wire drawn ------------------

def bom_rows(name):
    bom = page(name).split('## Bill of materials', 1)[1].split('\n## ', 1)[0]
    rows = [r for r in bom.splitlines() if r.startswith('| ') and '**total**' not in r]
    return [r.split('|')[2].strip() + ' ' + r.split('|')[3].strip() for r in rows[1:]]


# What the picture draws (wiring.circuit()['drawn'], and each part's own title) and the words
# that name it in a parts list.
BOM_WORDS = {
    '74AHCT125': '74AHCT125', '100 nF capacitor': '100 nF', '330 ohm resistor': '330 Ω',
    '1000 uF capacitor': '1000 µF', '100 uF capacitor': '100 µF', '470 uF capacitor': '470 µF',
    '4.7 uF capacitor': '4.7 µF', '100 ohm resistor': '100 Ω', '1 kohm resistor': '1 kΩ',
    '10 kohm resistor': '10 kΩ', '200 ohm resistor': '200 Ω',
    '1N5819 Schottky diode': '1N5819', '1N4148 diode': '1N4148',
    'S8050 NPN transistor': 'S8050', 'passive piezo buzzer': 'piezo', 'VS1838B': 'VS1838B',
    'RXB6': 'RXB6', 'GL5528 LDR': 'GL5528', 'fuse': 'fuse', '5 V supply': '5 V power supply',
    '12 V supply': '12 V power supply', 'buck converter, set to 5.0 V': 'buck converter',
    'AMS1117-3.3 module (far end)': 'AMS1117', 'Cat5 cable': 'Cat5', 'RJ45 breakout': 'RJ45',
    'USB charger': 'USB charger', 'arcade push button': 'arcade push button',
    'spade crimp terminal': 'spade crimp', 'TPIC6B595': 'TPIC6B595',
    'common-anode 7-segment digit': 'common-anode',
}
TITLE_WORDS = {'TM1637': 'TM1637', 'MAX7219': 'MAX7219', 'WS2812B': 'WS2812B'}
# Parts-list rows that are not circuit parts: the box, the panel, loose wire and boards.
NOT_DRAWN = ('enclosure', 'front panel', 'wire', 'jumper wire', 'stripboard', 'small breadboard')


def test_every_part_in_the_picture_is_in_the_parts_list_and_back():
    for name in wiring.boards():
        w = wiring.read_board(name)
        c = wiring.circuit(w)
        rows = bom_rows(name)
        words = []
        for key in c['drawn']:
            assert key in BOM_WORDS, (name, key, 'a drawn part with no name in a parts list')
            words.append(BOM_WORDS[key])
        for p in w['parts']:
            words += [v for k, v in TITLE_WORDS.items() if k in p['title']]
        words.append('ESP32 DevKitC' if w['board'].MCU == 'esp32' else 'Raspberry Pi Pico')
        for word in words:
            assert any(word in r for r in rows), (name, word, 'drawn, not in the parts list')
        for r in rows:
            if any(r.lower().startswith(n) or r.lower().startswith('*optional:* ' + n)
                   for n in NOT_DRAWN):
                continue
            assert any(word in r for word in words), (name, r, 'in the parts list, not drawn')


def test_the_level_shifter_is_drawn_with_every_pin():
    for name in wiring.boards():
        w = wiring.read_board(name)
        c = wiring.circuit(w)
        via = [p for p in w['parts'] if 'via 74AHCT125' in ' '.join(n for _, _, n in p['pins'])]
        if not via:
            assert c['shifter'] is None, name
            continue
        sh = c['shifter']
        carried = [(pid, label) for _, pid, _, label in sh['gates']]
        wanted = [(pid, label) for p in via for label, pid, note in p['pins']
                  if 'via 74AHCT125' in note]
        assert carried == wanted, name                     # a gate for every shifted pin
        used = [g for g, _, _, _ in sh['gates']]
        assert used == list(range(1, len(used) + 1)) and sorted(used + sh['unused']) == [
            1, 2, 3, 4], name
        table = wiring.shifter_table(w)
        for g, pid, _, _ in sh['gates']:
            a, y, oe = wiring.GATES[g]
            assert '| %d | pin %d | pin %d | pin %d to GND | %s |' % (
                g, a, y, oe, wiring.pin_label(w['board'], pid)) in table, (name, g)
        for g in sh['unused']:
            a, y, oe = wiring.GATES[g]
            assert '| %d (unused) | pin %d to GND | pin %d open | pin %d to GND |' % (
                g, a, y, oe) in table, (name, g)
        assert 'pin 14 VCC to 5 V | pin 7 GND to GND | 100 nF across pins 14 and 7' in table
        assert table in page(name), name                   # and the page carries it


def test_every_part_is_powered_by_drawn_wires_and_the_buzzer_has_its_driver():
    for name in wiring.boards():
        w = wiring.read_board(name)
        c = wiring.circuit(w)
        for r in c['parts']:
            rails = [rail for _, rail, _ in r['power']]
            assert 'GND' in rails and len(rails) >= 2, (name, r['part']['title'])
            for rail in rails:
                assert rail in c['rails'], (name, rail)
        fed = {rail for _, rail, _ in c['supply']['mcu']} | {
            s[2] for s in c['supply']['sources']}
        assert set(c['rails']) <= fed, (name, c['rails'], fed)   # every rail has a source
        buzz = [r for r in c['parts'] if r['part'].get('kind') == 'buzzer']
        for r in buzz:
            assert [v for _, _, _, via in r['signals'] for v in via] == [('R', '1 kohm')]
            for part in ('S8050 NPN transistor', '1N4148 diode', 'passive piezo buzzer'):
                assert part in c['drawn'], (name, part)
    # the default board has one, drawn
    assert any(r['part'].get('kind') == 'buzzer'
               for r in wiring.circuit(wiring.read_board('pico_tm1637'))['parts'])
