# The board's JSON reader (firmware/scoreboard/net/strict.py) against CPython's json, which
# follows RFC 8259: every JSON document without a repeated key reads the same (escapes of every
# kind, surrogate pairs among them); a repeated key, a lone surrogate or bytes that are not UTF-8
# are refused. Runs under CPython (hypothesis); the MicroPython side is test_web_attacks.py.
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import virtual_first  # noqa: F401  (paths)
from scoreboard.net import strict

text = st.text(alphabet=st.characters(blacklist_categories=('Cs',)), max_size=8)
scalars = st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | text | st.floats(
    allow_nan=False, allow_infinity=False, width=32)
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4) |
                      st.dictionaries(text, kids, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(values, st.booleans(), st.booleans())
def test_json_without_repeated_keys_reads_as_cpython_reads_it(v, ascii_only, spaced):
    doc = json.dumps(v, ensure_ascii=ascii_only, indent=1 if spaced else None).encode()
    assert strict.loads(doc) == json.loads(doc)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(text, scalars, min_size=1, max_size=4), st.data())
def test_a_repeated_key_is_refused(d, data):
    k = data.draw(st.sampled_from(sorted(d)))
    doc = json.dumps(d)[:-1] + ', ' + json.dumps(k) + ': 1}'
    try:
        strict.loads(doc.encode())
        raise AssertionError('taken: ' + doc)
    except strict.BadJSON as e:
        assert 'repeated key' in str(e)


@settings(max_examples=200, deadline=None)
@given(st.integers(0xD800, 0xDFFF), st.text(max_size=3))
def test_a_lone_surrogate_is_refused(s, after):
    doc = ('{"n": "\\u%04x' % s + json.dumps(after)[1:-1] + '"}').encode()
    if after[:1] == '\\' or (0xD800 <= s <= 0xDBFF and json.dumps(after)[1:3] == '\\u' and
                             0xDC00 <= int(json.dumps(after)[3:7], 16) <= 0xDFFF):
        return      # a pair after all
    try:
        strict.loads(doc)
        raise AssertionError('taken: %r' % doc)
    except strict.BadJSON:
        pass


@given(st.binary(max_size=12))
def test_bytes_that_are_not_utf8_are_refused(b):
    try:
        b.decode('utf-8')
        ok = True
    except UnicodeDecodeError:
        ok = False
    assert strict.utf8_ok(b) == ok
