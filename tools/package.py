#!/usr/bin/env python3
"""The update package (DESIGN section 12; docs/flashing.md), and sending it over Wi-Fi.

    python tools/package.py package [--out build/package]
    python tools/package.py ota --host IP[:PORT] [--token TOKEN] [--package build/package]

`package` builds build/package/: the compiled package (.mpy, the phone page, the vendored
libraries), the loader (loader/main.py, boot.py, wdtfeed.py, apps.py), the board files
(boards/, for a first install), scoreboard/install.py's step, and
  manifest.json  {"version", "files": {path: sha256}, "sizes": {path: bytes}}
  manifest.sig   HMAC-SHA256 of manifest.json's bytes with the update key, hex
  package.json   for `mpremote mip install --target /app_new PATH-OR-URL/package.json`
  update.bin     the same files in one stream, for POST /api/update (make ota)
The update key is made once on this computer, outside the repository, in
$SCOREBOARD_KEYS (default ~/.config/scoreboard)/update.key, mode 0600; `make deploy` puts it on
the board. Its content is never printed.

`ota` sends update.bin to a Wi-Fi board: POST /api/update with the paired phone's token
(TOKEN, or the environment's SCOREBOARD_TOKEN), then prints the board's answer.
"""
import argparse
import hashlib
import hmac
import json
import os
import secrets
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import deploy  # noqa: E402  (tools/ is on the path: this script's folder, or the test path)

MAGIC = b'SBUP1\n'      # update.bin: MAGIC, len(manifest)\n, manifest, sig\n, then the files
LOADER = 'loader'
KEY_NAME = 'update.key'


class PackageError(Exception):
    pass


def key_dir():
    return os.environ.get('SCOREBOARD_KEYS') or os.path.join(
        os.path.expanduser('~'), '.config', 'scoreboard')


def key_path(make=True):
    """The host's update key file (made on first use: 32 random bytes, as hex, mode 0600)."""
    d = key_dir()
    p = os.path.join(d, KEY_NAME)
    if not os.path.exists(p):
        if not make:
            return None
        os.makedirs(d, mode=0o700, exist_ok=True)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, 'w') as f:
            f.write(secrets.token_hex(32) + '\n')
        print('package: made a new update key in %s (keep it: boards deployed with it take '
              'only updates signed with it)' % p)
    return p


def read_key(p):
    with open(p) as f:
        return bytes.fromhex(f.read().strip())


def sign(manifest_bytes, key):
    return hmac.new(key, manifest_bytes, hashlib.sha256).hexdigest()


def build_package(out=None, src=None, boards_dir=None, key=None, opt=0):
    """Build the package into `out` (default build/package); returns its manifest."""
    src = src or os.path.join(ROOT, 'firmware')
    boards_dir = boards_dir or os.path.join(ROOT, 'boards')
    out = out or os.path.join(ROOT, 'build', deploy.PACKAGE_DIR)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    made = deploy.build(src, os.path.join(out, '.build'), opt=opt)
    files = {}
    for rel, path in deploy.package_files(made).items():
        files[rel] = path
    for name in deploy.KEEP_SOURCE:
        files['%s/%s' % (LOADER, name)] = made[name]
    for b in deploy.known_boards(boards_dir):
        files['boards/%s.py' % b] = os.path.join(boards_dir, b + '.py')
    for rel, path in files.items():
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(path, dst)
    shutil.rmtree(os.path.join(out, '.build'))
    placed = {rel: os.path.join(out, rel) for rel in files}
    m = deploy.make_manifest(placed)
    text = deploy.manifest_text(m).encode()
    with open(os.path.join(out, deploy.MANIFEST), 'wb') as f:
        f.write(text)
    if key is None:
        key = read_key(key_path())
    sig = sign(text, key)
    with open(os.path.join(out, 'manifest.sig'), 'w') as f:
        f.write(sig + '\n')
    # mip: every file (the manifest too) relative to package.json, whatever serves it
    urls = [[rel, rel] for rel in sorted(placed)] + [[deploy.MANIFEST, deploy.MANIFEST],
                                                      ['manifest.sig', 'manifest.sig']]
    with open(os.path.join(out, 'package.json'), 'w') as f:
        json.dump({'urls': urls, 'deps': [], 'version': m['version']}, f, indent=1)
    with open(os.path.join(out, 'update.bin'), 'wb') as f:
        f.write(stream_head(text, sig))
        for rel in sorted(m['files']):
            with open(placed[rel], 'rb') as g:
                f.write(g.read())
    return m


def stream_head(manifest_bytes, sig):
    return MAGIC + b'%d\n' % len(manifest_bytes) + manifest_bytes + sig.encode() + b'\n'


def ota(host, token, package=None, timeout=120):
    """POST update.bin to http://host/api/update; returns (status, answer)."""
    import http.client
    package = package or os.path.join(ROOT, 'build', deploy.PACKAGE_DIR)
    path = os.path.join(package, 'update.bin')
    if not os.path.exists(path):
        raise PackageError('no %s: run `make package` first' % path)
    name, _, port = host.partition(':')
    conn = http.client.HTTPConnection(name, int(port or 80), timeout=timeout)
    size = os.path.getsize(path)
    headers = {'Content-Type': 'application/octet-stream', 'Content-Length': str(size)}
    if token:
        headers['Authorization'] = 'Bearer ' + token
    try:
        with open(path, 'rb') as f:
            conn.request('POST', '/api/update', body=f, headers=headers)
            r = conn.getresponse()
            body = r.read().decode('utf-8', 'replace')
    except (BrokenPipeError, ConnectionResetError):
        # the board answered before the body was all sent (a refusal: it reads no more)
        try:
            r = conn.getresponse()
            body = r.read().decode('utf-8', 'replace')
        except Exception:
            raise PackageError('%s closed the connection before the update was sent: is '
                               'TOKEN a paired phone\'s token?' % host)
    finally:
        conn.close()
    try:
        answer = json.loads(body)
    except ValueError:
        answer = body
    return r.status, answer


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('package')
    p.add_argument('--out', help='folder (default build/package)')
    p.add_argument('--opt', type=int, default=0)
    o = sub.add_parser('ota')
    o.add_argument('--host', required=True, help='the board: IP or IP:PORT')
    o.add_argument('--token', help='a paired phone\'s token (or SCOREBOARD_TOKEN)')
    o.add_argument('--package', help='folder (default build/package)')
    args = ap.parse_args(argv)
    try:
        if args.cmd == 'package':
            m = build_package(args.out, opt=args.opt)
            out = args.out or os.path.join(ROOT, 'build', deploy.PACKAGE_DIR)
            print('package: %s in %s: %d files, %d bytes, signed' % (
                m['version'], os.path.relpath(out), len(m['files']), sum(m['sizes'].values())))
        else:
            token = args.token or os.environ.get('SCOREBOARD_TOKEN')
            status, answer = ota(args.host, token, args.package)
            print('ota: %s answered %d: %s' % (args.host, status, json.dumps(answer)))
            return 0 if status == 200 else 1
    except (PackageError, deploy.DeployError, OSError) as e:
        print('package: error: %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
