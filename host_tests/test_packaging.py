# package.json (for `mpremote mip install`) and manifest.py (for freezing) must both carry every
# module of the firmware package: a module added to firmware/scoreboard/ without regenerating
# package.json fails here (`python tools/deploy.py package-json` regenerates it). package.json
# also carries main.py and every board file: a mip install is a whole board (test_mip.py), and
# the package's data files (the phone page, scoreboard/net/page.html), which manifest.py cannot
# freeze: it tells how to put them on the flash.
import json
import os

import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, 'firmware')


def firmware_modules(top='scoreboard', ends=('.py',)):
    found = set()
    for dirpath, dirnames, files in os.walk(os.path.join(FIRMWARE, top)):
        dirnames[:] = [d for d in dirnames if d != '__pycache__']
        for name in files:
            if name.endswith(ends):
                rel = os.path.relpath(os.path.join(dirpath, name), FIRMWARE)
                found.add(rel.replace(os.sep, '/'))
    return found


def run_manifest():
    """Execute manifest.py as MicroPython's makemanifest does, recording what it freezes."""
    calls = {'metadata': [], 'package': [], 'module': [], 'include': [], 'require': []}

    def recorder(kind):
        def fn(*args, **kw):
            calls[kind].append((args, kw))
        return fn

    env = {k: recorder(k) for k in calls}
    with open(os.path.join(ROOT, 'manifest.py')) as f:
        exec(compile(f.read(), 'manifest.py', 'exec'), env)
    return calls


def frozen_modules(calls):
    """The .py files the manifest's package()/module() calls take, relative to firmware/."""
    found = set()
    for args, kw in calls['package']:
        name = args[0]
        base = os.path.join(ROOT, kw.get('base_path', '.'))
        for dirpath, dirnames, files in os.walk(os.path.join(base, name.replace('.', '/'))):
            dirnames[:] = [d for d in dirnames if d != '__pycache__']
            for f in files:
                if f.endswith('.py'):
                    rel = os.path.relpath(os.path.join(dirpath, f), FIRMWARE)
                    found.add(rel.replace(os.sep, '/'))
    for args, kw in calls['module']:
        path = os.path.join(ROOT, kw.get('base_path', '.'), args[0])
        found.add(os.path.relpath(path, FIRMWARE).replace(os.sep, '/'))
    return found


def test_manifest_freezes_every_firmware_module():
    calls = run_manifest()
    mods = firmware_modules() | firmware_modules('lib')
    assert 'scoreboard/__init__.py' in mods and 'lib/microdot/microdot.py' in mods
    assert frozen_modules(calls) == mods
    for args, kw in calls['package'] + calls['module']:
        assert kw.get('opt') == 3, args
        assert kw.get('base_path') in ('firmware', 'firmware/lib'), args


def data_files():
    found = firmware_modules(ends=deploy.DATA) | firmware_modules('lib', deploy.DATA)
    assert 'scoreboard/net/page.html' in found
    return found


def test_manifest_says_where_the_data_files_go_on_the_flash():
    with open(os.path.join(ROOT, 'manifest.py')) as f:
        text = f.read()
    for rel in data_files():
        # frozen, page.py finds the page in /lib (a /scoreboard folder would hide the package)
        assert 'cp firmware/%s :lib/%s' % (rel, rel) in text, rel


def test_manifest_version_matches_package_json():
    (args, kw), = run_manifest()['metadata']
    with open(os.path.join(ROOT, 'package.json')) as f:
        pkg = json.load(f)
    assert kw['version'] == pkg['version'] == deploy.VERSION


def test_package_json_lists_every_firmware_module():
    with open(os.path.join(ROOT, 'package.json')) as f:
        pkg = json.load(f)
    # Besides the package: main.py and the board files (for the first-boot board choice), and
    # the vendored modules under firmware/lib, which go to the board's /lib/<name>, where mip
    # would have put them.
    lib = set(firmware_modules('lib'))
    targets = {t for t, _ in pkg['urls']
               if t not in deploy.KEEP_SOURCE and not t.startswith('boards/')}
    missing = (firmware_modules() | lib | data_files()) - targets
    extra = targets - firmware_modules() - lib - data_files()
    assert not missing, 'not in package.json (run `python tools/deploy.py package-json`): %s' % (
        sorted(missing),)
    assert not extra, 'package.json lists modules that are gone: %s' % (sorted(extra),)
    for target, url in pkg['urls']:
        # mip resolves a relative URL against package.json's own location: the repo root.
        assert os.path.isfile(os.path.join(ROOT, url)), url
        if target.startswith('boards/'):
            assert url == target
        else:
            assert url == 'firmware/' + target
    assert pkg.get('deps') == []


def test_package_json_carries_main_and_every_board():
    with open(os.path.join(ROOT, 'package.json')) as f:
        pkg = json.load(f)
    urls = dict(pkg['urls'])
    assert urls['main.py'] == 'firmware/main.py'
    boards = {t[len('boards/'):-3] for t in urls if t.startswith('boards/')}
    assert boards == set(deploy.known_boards(os.path.join(ROOT, 'boards')))


def test_package_json_is_generated_text():
    with open(os.path.join(ROOT, 'package.json')) as f:
        assert f.read() == deploy.package_json(), (
            'package.json is out of date: run `python tools/deploy.py package-json`')


# -- the board's manifest -------------------------------------------------------------------------
# makemanifest's include() as MicroPython's tools/manifestfile.py does it: $(VAR) substituted,
# the file opened and executed with the same commands, and any error in it raised again as
# "Error in manifest file: <path>: <error>". Our manifest is itself run through it, as a build
# runs FROZEN_MANIFEST.

class ManifestError(Exception):
    pass


def build_manifest(tmp_path, board_manifest):
    """Run manifest.py as a build for a board whose folder holds board_manifest (None: the
    board has no manifest.py, as RPI_PICO and ESP32_GENERIC have none). Returns what was
    frozen, required and included."""
    port = tmp_path / 'port'
    board = port / 'boards' / 'THE_BOARD'
    board.mkdir(parents=True)
    (port / 'boards' / 'manifest.py').write_text('require("port-stuff")\n')
    if board_manifest is not None:
        (board / 'manifest.py').write_text(board_manifest)
    vars_ = {'PORT_DIR': str(port), 'BOARD_DIR': str(board), 'MPY_DIR': str(tmp_path)}
    out = {'metadata': [], 'package': [], 'module': [], 'require': [], 'included': []}

    def resolve(path):
        for k, v in vars_.items():
            path = path.replace('$(%s)' % k, v)
        return os.path.abspath(path)

    def include(path, **kw):
        path = resolve(path)
        out['included'].append(path)
        try:
            with open(path) as f:
                exec(f.read(), env())
        except Exception as e:
            raise ManifestError('Error in manifest file: {}: {}'.format(path, e))

    def rec(kind):
        return lambda *a, **kw: out[kind].append((a, kw))

    def env():
        return {'include': include, 'metadata': rec('metadata'), 'package': rec('package'),
                'module': rec('module'), 'require': rec('require')}

    include(os.path.join(ROOT, 'manifest.py'))
    return out, str(port), str(board)


def test_manifest_includes_the_boards_manifest_so_a_pico_w_keeps_mip_requests_aioble(tmp_path):
    # RPI_PICO_W's own manifest (as in MicroPython's ports/rp2/boards/RPI_PICO_W/manifest.py):
    # the port's, then the networking bundle and aioble.
    pico_w = ('include("$(PORT_DIR)/boards/manifest.py")\n'
              'require("bundle-networking")\nrequire("aioble")\n'
              'require("mip")\nrequire("requests")\n')
    out, port, board = build_manifest(tmp_path, pico_w)
    assert out['included'][1] == os.path.join(board, 'manifest.py')
    assert os.path.join(port, 'boards', 'manifest.py') in out['included']
    required = [a[0] for a, _ in out['require']]
    for name in ('mip', 'requests', 'aioble', 'bundle-networking', 'port-stuff'):
        assert name in required, name
    (args, kw), = out['metadata']
    assert kw['license'] == 'MIT'
    assert {a[0] for a, _ in out['package']} == {'scoreboard', 'microdot'}


def test_a_board_without_its_own_manifest_gets_the_ports(tmp_path):
    out, port, board = build_manifest(tmp_path, None)
    assert out['included'][-1] == os.path.join(port, 'boards', 'manifest.py')
    assert [a[0] for a, _ in out['require']] == ['port-stuff']
    assert {a[0] for a, _ in out['package']} == {'scoreboard', 'microdot'}


def test_an_error_inside_the_boards_manifest_stops_the_build(tmp_path):
    # Only the board's manifest.py being absent falls back to the port's; a board manifest that
    # is there and fails (here: it includes a file that is missing) is not papered over.
    import pytest
    with pytest.raises(ManifestError) as e:
        build_manifest(tmp_path, 'include("$(BOARD_DIR)/missing/manifest.py")\n')
    assert 'missing' in str(e.value)
    with pytest.raises(ManifestError):
        build_manifest(tmp_path / 'b', 'raise ValueError("bad board")\n')


def test_licence_is_mit_in_the_licence_file_and_the_manifest():
    with open(os.path.join(ROOT, 'LICENSE')) as f:
        text = f.read()
    assert text.startswith('MIT License\n')
    assert 'Copyright (c) 2026 the shuffleboard scoreboard contributors' in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text
    (args, kw), = run_manifest()['metadata']
    assert kw['license'] == 'MIT'
