# runs-on: micropython
# One way for tools and tests to find the firmware and each other (docs/tools.md): the test
# path of pyproject.toml, read by pytest and by mp_run.py alike, and tools/paths.py for the rest.
# Here: both interpreters import the firmware, the tools and the test helpers by the test path;
# paths.py names the real folders and its set-ups do what they say; and (CPython, which can
# tokenize) no other file of tools/ or host_tests/ writes sys.path.
import os
import sys

import paths


def _exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False


def test_the_test_path_finds_firmware_tools_and_helpers():
    import sim_engine  # noqa: F401  (tools/)
    import scoreboard.core  # noqa: F401  (firmware/)
    import virtual_first  # noqa: F401  (host_tests/)
    assert _exists(paths.TOOLS + '/paths.py')


def test_the_folders_are_the_trees():
    for folder, inside in ((paths.FIRMWARE, '/scoreboard/core/base.py'),
                           (paths.LIB, '/microdot'), (paths.TOOLS, '/sim_engine.py'),
                           (paths.VIRTUAL, '/machine.py'), (paths.BOARDS, '/pico_tm1637.py'),
                           (paths.TESTS, '/mp_run.py'), (paths.FIXTURES, '/bare.py'),
                           (paths.ONBOARD, '/deploy_state.py')):
        assert _exists(folder + inside), folder + inside


def test_the_set_ups():
    saved = list(sys.path)
    try:
        sys.path[:] = ['a', 'b']
        paths.add('b', 'c', 'd')
        assert sys.path == ['d', 'c', 'a', 'b'], sys.path
        paths.ahead('a', 'x')
        assert sys.path == ['x', 'a', 'd', 'c', 'b'], sys.path
        paths.behind('x', 'y')
        assert sys.path == ['x', 'a', 'd', 'c', 'b', 'y'], sys.path
        sys.path[:] = []
        assert paths.board_file('pico_tm1637') == 'pico_tm1637' and sys.path == []
        assert paths.board_file('some/where/my_board.py') == 'my_board'
        assert sys.path == ['some/where'], sys.path
        sys.path[:] = []
        paths.virtual_first()
        assert sys.path == [paths.VIRTUAL, paths.TOOLS, paths.FIRMWARE], sys.path
        sys.path[:] = []
        paths.net('R')
        assert sys.path == ['R/tools/virtual', 'R/tools', 'R/firmware/lib', 'R/firmware',
                            'R/boards'], sys.path
    finally:
        sys.path[:] = saved


# The files that write sys.path: the set-up module and the unix-port runner (which reads the
# test path); and, no set-up of the tools, the virtual board's own path (its REPL agent), the
# ROMFS runs that put a mounted image first as a board with a ROMFS partition does, and this
# test (which puts sys.path back).
WRITERS = ('tools/paths.py', 'host_tests/mp_run.py', 'tools/virtual/repl_agent.py',
           'tools/onboard/app_code_romfs.py', 'tools/onboard/app_romfs32.py',
           'host_tests/test_paths.py',
           'host_tests/test_apps.py')   # checks the app folders' loader's path, then restores it


def writes_sys_path(source):
    """Line numbers where code (not a string or a comment) changes sys.path."""
    import io
    import tokenize
    toks = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
            if t.type in (tokenize.NAME, tokenize.OP)]
    out = []
    for i in range(len(toks) - 4):
        a, dot, b, nxt, what = toks[i:i + 5]
        if (a.string, dot.string, b.string) != ('sys', '.', 'path'):
            continue
        if (nxt.string == '.' and what.string in ('insert', 'append', 'extend', 'remove', 'pop',
                                                   'clear')) or nxt.string in ('[', '=', '+='):
            out.append(a.start[0])
    return out


def test_no_other_file_writes_sys_path():
    if sys.implementation.name == 'micropython':
        return    # (no tokenize there)
    bad = []
    for top in ('tools', 'host_tests'):
        for d, dirs, files in os.walk(os.path.join(paths.ROOT, top)):
            dirs[:] = [x for x in dirs if x not in ('__pycache__', 'node_modules')]
            for name in files:
                if not name.endswith('.py'):
                    continue
                path = os.path.join(d, name)
                rel = os.path.relpath(path, paths.ROOT)
                with open(path) as f:
                    lines = writes_sys_path(f.read())
                if lines and rel not in WRITERS:
                    bad.append('%s:%s' % (rel, lines))
    assert not bad, bad
    assert writes_sys_path('import sys\nsys.path.insert(0, "x")\n') == [2]
    assert writes_sys_path('s = "sys.path.insert(0, 1)"\n# sys.path.append(2)\n') == []
