# runs-on: micropython
# The one name rule (firmware/scoreboard/names.py, DESIGN section 10): null or 1..12 characters of
# printable text; control, format (zero-width, bidi), separator, surrogate, private-use and
# noncharacter code points refused; blank refused; the reason a sentence. The board's state and
# the phone remote read the same rule.
import virtual_first  # noqa: F401  (paths)
from scoreboard import names
from scoreboard.ui import state

GOOD = ['Ann', 'Bo', 'x' * 12, 'Ann & Bo', ' Li ', 'Zoë', 'Jürgen-Łukasz'[:12], '李小龍',
        'محمد', 'שרה', 'Jo \U0001F600', '\U0001F3AF' * 12, 'a\u0301', "O'Neil", '#1', '3']
BAD = ['', ' ', '   ', '\u00a0', '\u3000\u2003', '\t', 'a\tb', 'a\nb', 'a\rb', 'bell\x07',
       '\x00', 'del\x7f', 'c1\x85', 'c1\x9f', '\u200b', 'a\u200bb', 'a\u200cb', 'a\u200db',
       'lrm\u200e', 'rlm\u200f', '\u202eevil', '\u202a', '\u2066x', '\u2069', '\ufeffBOM',
       'soft\u00adhy', 'x\u2028y', 'x\u2029y', '\u2060', '\u061c', 'pua\ue000',
       '\U000e0041tag', '\ufffe', '\U0010fffe', 'x' * 13, '\U0001F600' * 13, None, 5, b'Ann']


def test_good_names_pass_and_bad_ones_give_a_sentence():
    assert names.why(None) is None and names.valid(None)
    for n in GOOD:
        assert names.why(n) is None, repr(n)
        assert state.name_ok(n), repr(n)
    for n in BAD:
        if n is None:
            continue
        why = names.why(n)
        assert why is not None, repr(n)
        assert why[0].isupper() and why.endswith('.'), why
        assert not state.name_ok(n), repr(n)
    assert names.MAX == 12
