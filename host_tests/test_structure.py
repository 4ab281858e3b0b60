# The firmware's structure as tests (docs/ARCHITECTURE.md, "The arrows"): the never-arrows,
# no import cycle, no class's underscore names used from outside it, and a board without
# services running the plain loop without asyncio. The sources are read with ast
# (host_tests/structure.py): every import counts, lazy ones inside functions too.
import os
import subprocess

import structure as S

ROOT = os.path.dirname(S.HERE)
MICROPYTHON = os.path.join(ROOT, '.venv', 'bin', 'micropython')

# No cycle at all (render/segments.py's lazy alias of SingleLayout, the last one, is gone: board
# files import it from render/single.py).
ALLOWED_CYCLES = []


def arrows(prefix):
    g = S.graph()
    return {m: g[m] for m in g if m == prefix or m.startswith(prefix + '.')}


def outside(prefix, targets):
    """[(module, target, line)] of imports from modules under `prefix` into any of
    `targets` (module names or prefixes; plain names match the module and its children)."""
    bad = []
    for mod, imp in sorted(arrows(prefix).items()):
        for t, line in sorted(imp.items()):
            for x in targets:
                if t == x or t.startswith(x + '.'):
                    bad.append((mod, t, line))
    return bad


def externals(prefix, names):
    bad = []
    for mod in sorted(arrows(prefix)):
        for t, line in sorted(S.external(mod).items()):
            if t.split('.')[0] in names:
                bad.append((mod, t, line))
    return bad


def test_the_scan_sees_the_firmware():
    g = S.graph()
    assert {'scoreboard.app', 'scoreboard.host', 'scoreboard.services', 'scoreboard.ui.controller',
            'scoreboard.core.base', 'scoreboard.net.run', 'main'} <= set(g)
    assert 'scoreboard.ui.menu' in g['scoreboard.ui.controller']    # a lazy import counts
    assert 'scoreboard.ui.controller' in g['scoreboard.app']
    assert not any(m.startswith('microdot') for m in g)     # vendored: not ours to judge


def test_no_import_cycle():
    assert S.cycles(S.graph()) == ALLOWED_CYCLES


def test_the_core_imports_nothing_of_the_others():
    core = arrows('scoreboard.core')
    for mod, imp in core.items():
        for t in imp:
            assert t.startswith('scoreboard.core'), (mod, t)
    assert externals('scoreboard.core', ('machine', 'time', 'asyncio', 'framebuf', 'os')) == []


def test_ui_and_render_touch_no_hardware_store_or_network():
    never = ('scoreboard.drivers', 'scoreboard.store', 'scoreboard.net', 'scoreboard.app',
             'scoreboard.host', 'scoreboard.boardpick', 'scoreboard.faultlog')
    for part in ('scoreboard.ui', 'scoreboard.render'):
        assert outside(part, never) == [], part
        assert externals(part, ('machine', 'neopixel', 'network', 'os', 'time')) == [], part


def test_the_network_imports_neither_the_app_nor_the_core():
    assert outside('scoreboard.net', ('scoreboard.app', 'scoreboard.core',
                                      'scoreboard.ui.controller')) == []


def test_the_host_knows_no_part():
    # The App class comes in as `make`; services register themselves.
    for host in ('scoreboard.host', 'scoreboard.services'):
        assert outside(host, ('scoreboard.app', 'scoreboard.net', 'scoreboard.ui',
                              'scoreboard.core', 'scoreboard.drivers')) == [], host


def test_drivers_know_no_rules_and_no_screens():
    assert outside('scoreboard.drivers', ('scoreboard.core', 'scoreboard.ui',
                                          'scoreboard.app', 'scoreboard.net')) == []


def test_no_underscore_name_is_used_outside_its_class_or_module():
    # `x._name` where x is not self or cls, `from m import _name`: none, anywhere in firmware/
    # (firmware/lib, the vendored microdot, is left as published).
    assert S.private_uses() == []


def test_the_scan_finds_what_it_looks_for(tmp_path):
    # The checks above would pass on a scan that sees nothing: show it sees a private use.
    src = tmp_path / 'x.py'
    src.write_text('def f(c):\n    c._persist(1)\n    self._ok = 1\n')
    import ast
    hits = [n.attr for n in ast.walk(ast.parse(src.read_text()))
            if isinstance(n, ast.Attribute) and S._private(n.attr)
            and not (isinstance(n.value, ast.Name) and n.value.id in ('self', 'cls'))]
    assert hits == ['_persist']


PLAIN = r'''
import sys
sys.path.insert(0, %(boards)r)
sys.path.insert(0, %(virtual)r)
sys.path.insert(0, %(fw)r)
import bare
from scoreboard import app


class Stop(BaseException):
    pass


t = [0]


def clock():
    return t[0]


def sleep_ms(ms):
    t[0] += ms
    if t[0] > 3000:
        raise Stop()


try:
    app.main(board=bare, root=%(root)r, clock=clock, sleep_ms=sleep_ms)
except Stop:
    pass
print('asyncio' in sys.modules, 'scoreboard.aio' in sys.modules,
      'scoreboard.services' in sys.modules, 'scoreboard.host' in sys.modules)
'''


def test_a_board_without_services_runs_the_plain_loop_without_asyncio(tmp_path):
    code = PLAIN % {'boards': os.path.join(ROOT, 'host_tests', 'fixtures', 'boards'),
                    'virtual': os.path.join(ROOT, 'tools', 'virtual'),
                    'fw': os.path.join(ROOT, 'firmware'), 'root': str(tmp_path)}
    r = subprocess.run([MICROPYTHON, '-c', code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ['False', 'False', 'False', 'True']
