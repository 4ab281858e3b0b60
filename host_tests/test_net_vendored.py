# firmware/lib/microdot is microdot 2.7.0 from PyPI, unchanged: the code the board runs is the
# code the pinned package (requirements.txt) installs for the host.
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(ROOT, 'firmware', 'lib', 'microdot')


def test_vendored_microdot_is_the_pinned_release_unchanged():
    import importlib.metadata
    with open(os.path.join(ROOT, 'requirements.txt')) as f:
        pins = dict(line.strip().split('==') for line in f if '==' in line)
    assert importlib.metadata.version('microdot') == pins['microdot'] == '2.7.0'
    dist = importlib.metadata.distribution('microdot')
    installed = os.path.dirname(str(dist.locate_file('microdot/microdot.py')))
    assert os.path.realpath(installed) != os.path.realpath(LIB)
    names = sorted(n for n in os.listdir(LIB) if n.endswith('.py'))
    assert names == ['__init__.py', 'microdot.py']
    for n in names:
        with open(os.path.join(LIB, n), 'rb') as a, open(os.path.join(installed, n), 'rb') as b:
            assert a.read() == b.read(), n
    assert os.path.isfile(os.path.join(LIB, 'LICENSE'))
