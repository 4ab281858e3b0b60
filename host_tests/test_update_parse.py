# runs-on: micropython
# An update's manifest parsed as it streams in (scoreboard/net/update.py `parse`, DESIGN section
# 12: the scoring loop never pauses more than one pass): laid out one entry per line, as
# tools/deploy.py's manifest_text writes it, it is parsed a few lines per pass and gives what
# json.loads gives; any other layout (an older compact manifest, a value the line reader cannot
# take) is parsed whole by json.loads, so nothing valid is refused and nothing is misread.
import asyncio
import json

from scoreboard.net import update

# A manifest as manifest_text lays it out (test_update_ota.py checks that it does).
LINED = (b'{"files":{\n'
         b'"boards/pico_tm1637.py":"c5c4",\n'
         b'"loader/main.py":"44aa",\n'
         b'"scoreboard/app.mpy":"f8ab",\n'
         b'"scoreboard/ui/menu.mpy":"1236"},\n'
         b'"sizes":{\n'
         b'"boards/pico_tm1637.py":1200,\n'
         b'"loader/main.py":800,\n'
         b'"scoreboard/app.mpy":4100,\n'
         b'"scoreboard/ui/menu.mpy":3000},\n'
         b'"version":"0.1.0+da727416"}')


def parsed(text):
    """parse(text) and the number of passes it gave the loop."""
    passes = [0]
    real = update.sleep_ms

    async def counted(ms):
        passes[0] += 1
        await real(ms)

    update.sleep_ms = counted
    try:
        m = asyncio.run(update.parse(text))
    finally:
        update.sleep_ms = real
    return m, passes[0]


def test_the_lined_layout_is_parsed_in_passes_as_json_reads_it():
    m, passes = parsed(LINED)
    assert m == json.loads(LINED)
    assert passes == len(LINED.split(b'\n')) // update.LINES


def test_a_long_manifest_gives_the_loop_a_pass_every_few_lines():
    files = ['scoreboard/m%03d.mpy' % i for i in range(100)]
    text = (b'{"files":{\n'
            + b',\n'.join([b'"%s":"%064x"' % (f.encode(), i) for i, f in enumerate(files)])
            + b'},\n"sizes":{\n'
            + b',\n'.join([b'"%s":%d' % (f.encode(), 100 + i) for i, f in enumerate(files)])
            + b'},\n"version":"2"}')
    m, passes = parsed(text)
    assert m == json.loads(text)
    assert len(m['files']) == 100 and m['sizes']['scoreboard/m099.mpy'] == 199
    assert passes >= 200 // update.LINES


def test_other_layouts_are_read_whole():
    compact = json.dumps(json.loads(LINED)).encode()
    spaced = LINED.replace(b'":', b'": ')
    odd = LINED.replace(b'0.1.0+da727416', b'v}2')       # a value the line reader cannot take
    nested = LINED.replace(b'"version":"0.1.0+da727416"}', b'"version":{"a":1}}')
    for text in (compact, spaced, odd, nested):
        m, _ = parsed(text)
        assert m == json.loads(text), text


def test_malformed_json_is_still_refused():
    for text in (LINED[:-1], LINED[:40], b'{"files":{\n"a":"b",\n', b'{}}', b'{\n'):
        try:
            parsed(text)
        except ValueError:
            continue
        raise AssertionError('parsed %r' % (text,))
