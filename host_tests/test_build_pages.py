# The build pages (boards/<name>.md) as a buyer reads them: every claim about what a display
# shows is checked against the firmware, every install command is one that can run, every part
# in the wiring picture is in the parts list and every electrical part of the list is in the
# picture.
#
# What a display shows: a page writes it as a block after a comment naming the view model,
#   <!-- shows: {"screen": "play", ...} phase 0 -->
# and a code block: for a seven-segment display the characters of each module (modules
# separated by ' | ', a '.' after a character for its decimal point or marker piece), for a
# matrix the pixel rows ('#' lit; on a colour panel r red, b blue, a amber, d dim). The test
# builds the board's displays on the virtual machine (tools/virtual), shows the view at that
# blink phase and reads back what the virtual chips received.
import json
import os
import re
import sys

import virtual_first  # noqa: F401  (tools/virtual first on the path)

import machine  # noqa: E402  (tools/virtual/machine.py)
import wiring  # noqa: E402

import paths  # noqa: E402

ROOT = wiring.ROOT
paths.add(paths.BOARDS)

SHOWS = re.compile(r'<!-- shows: (\{.*?\}) phase (\d+) -->\n+```\n(.*?)```', re.S)
LEGEND = {'r': (255, 0, 0), 'b': (0, 60, 255), 'a': (255, 150, 0), 'd': (40, 40, 40)}


def page(name):
    with open(os.path.join(ROOT, 'boards', name + '.md')) as f:
        return f.read()


def section(text, head):
    return text.split('\n## ' + head, 1)[1].split('\n## ', 1)[0]


def build(name):
    machine.reset_all()
    if name in sys.modules:
        del sys.modules[name]
    return __import__(name).displays()


def _seven_chips(drv):
    import tm1637 as vtm
    import max7219 as vmax
    import sr595 as vsr
    import ws2812_digits as vws
    out = []
    for mod in (vtm, vmax, vsr, vws):
        out += mod.chips_for(drv)
    return out


def _pixel_chips(drv):
    import max7219_matrix as vmatrix
    import ws2812_panel as vpanel
    return [('mono', c) for c in vmatrix.chips_for(drv)] + [
        ('colour', c) for c in vpanel.chips_for(drv)]


def encode(text):
    """A module's characters as the segment bytes the firmware's font gives them."""
    from scoreboard.render.font7 import FONT
    out = []
    for ch in text:
        if ch == '.' and out:
            out[-1] |= 0x80
        else:
            out.append(FONT[ord(ch) - 32])
    return out


def shown(name, view, phase):
    """What the board's first display shows: ('segments', [bytes a module]) or ('pixels',
    [rows])."""
    from draw_segments import shown as seg_shown
    disps = build(name)
    disp = disps[0]
    seven, pixel = [], []
    for drv in disp.drivers:       # the chip models listen from before the first write
        seven += _seven_chips(drv)
        pixel += _pixel_chips(drv)
    disp.show(view, phase)
    segs = [seg_shown(c)[0] for c in seven]
    pix = []
    for kind, c in pixel:
        pix += list(c.rows(LEGEND) if kind == 'colour' else c.rows())
    for d in disps:
        d.deinit()
    return ('segments', segs) if segs else ('pixels', pix)


PREFER = '0123456789 _=-SEtbrdGLnAHmuicoPyhRJFCUgTkN'


def decode(segs):
    """Segment bytes as characters a reader would write (the inverse of encode for the shapes
    the layouts use; where two characters share a shape the first of PREFER is taken)."""
    from scoreboard.render.font7 import FONT
    inv = {}
    for ch in PREFER + ''.join(chr(i + 32) for i in range(len(FONT))):
        inv.setdefault(FONT[ord(ch) - 32], ch)
    out = ''
    for b in segs:
        out += inv.get(b & 0x7F, '?') + ('.' if b & 0x80 else '')
    return out


def block(name, view, phase):
    """The text of a `shows` block for a page: what the firmware shows now."""
    kind, got = shown(name, view, phase)
    if kind == 'segments':
        body = ' | '.join(decode(m).rstrip() for m in got)
    else:
        body = '\n'.join(got)
    return '<!-- shows: %s phase %d -->\n```\n%s\n```' % (json.dumps(view), phase, body)


def blocks(text):
    """Every (view, phase, expected text) a page claims."""
    return [(json.loads(v), int(ph), body.rstrip('\n')) for v, ph, body in SHOWS.findall(text)]


def matches(name, view, phase, body):
    kind, got = shown(name, view, phase)
    if kind == 'segments':
        want = body.split(' | ')
        if len(want) != len(got):
            return False
        for w, g in zip(want, got):
            enc = encode(w)
            enc += [0] * (len(g) - len(enc))
            if enc != list(g):
                return False
        return True
    return body.split('\n') == list(got)


def test_every_display_claim_on_every_page_is_what_the_firmware_shows():
    checked = 0
    for name in wiring.boards():
        text = page(name)
        for view, phase, body in blocks(text):
            assert matches(name, view, phase, body), (
                '%s.md claims a display the firmware does not show; it shows:\n%s' % (
                    name, block(name, view, phase)))
            checked += 1
        # every picture of a display in 'What it shows' is such a checked block
        shows = text.split('\n## What it shows', 1)
        if len(shows) > 1:
            fences = shows[1].count('```') // 2
            assert fences == len(blocks(shows[1])), (name, 'an unchecked picture')
    assert checked >= 15, checked


def test_the_decoder_reads_what_the_encoder_writes():
    for s in ('_8  8', '8=3 8', '104. 97', 't15 E1', 'rEd', 'G 0G 0', 'b. 12'):
        assert decode(encode(s)) == s, s


def test_a_passive_minute_on_the_strip_digits_shows_only_each_sides_numbers():
    # test_layout_passive's minute of passive play (every blink and page phase, every game), on
    # the WS2812 strip-digit boards too: no target, frame or end takes a side's place in play.
    import test_layout_passive as lp
    boards = lp.SEVEN_SEGMENT_BOARDS
    try:
        lp.SEVEN_SEGMENT_BOARDS = ('pico_ws2812_digits', 'pico_w_ws2812_digits',
                                   'esp32_ws2812_digits')
        lp.test_a_passive_minute_shows_only_each_sides_numbers()
    finally:
        lp.SEVEN_SEGMENT_BOARDS = boards


def test_no_page_claims_the_old_info_cycle_in_play():
    # the strip digits once showed the target and the end for 2 s every 10 s during play
    for name in wiring.boards():
        assert 'every\n10 s' not in page(name) and 'every 10 s' not in page(name), name


# -- installing --------------------------------------------------------------------------------

def test_every_page_and_the_readme_install_with_commands_that_exist():
    docs = {n + '.md': page(n) for n in wiring.boards()}
    with open(os.path.join(ROOT, 'README.md')) as f:
        docs['README.md'] = f.read()
    for fn, text in docs.items():
        assert 'OWNER' not in text and 'github:' not in text, fn      # no placeholder
        deploy = text.index('make deploy BOARD=')
        marker = text.index('<!-- install-path: check -->')
        assert deploy < marker, fn          # USB first, then the package and mip
        after = [line.strip() for line in text[marker:].split('```sh\n', 1)[1].split(
            '```', 1)[0].splitlines()]
        assert after[0].startswith('make package'), (fn, after)
        mip = [line for line in after if line.startswith('mpremote mip install')]
        assert mip and 'build/package/package.json' in mip[0], (fn, after)
        assert any('boardpick.choose(' in line for line in after), fn
    with open(os.path.join(ROOT, 'Makefile')) as f:
        make = f.read()
    assert '\ndeploy:' in make


def test_the_readme_is_for_the_builder():
    with open(os.path.join(ROOT, 'README.md')) as f:
        text = f.read()
    assert len(text.splitlines()) <= 200
    for words in ('make sim', 'make test', 'LICENSE', 'docs/DEVELOPING.md', 'docs/figures.md'):
        assert words in text, words
    heads = [h for h in text.splitlines() if h.startswith('## ')]
    assert heads == ['## Which board should I build?', '## Build one',
                     '## Try it without hardware', '## Playing',
                     '## The phone remote and the venue', '## Troubleshooting', '## More'], heads
