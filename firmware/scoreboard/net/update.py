# Updates over Wi-Fi (DESIGN section 12; docs/flashing.md): GET /api/version and POST
# /api/update, whose routes web.py's make_app registers; this module is loaded at the first
# request (or at boot to end a trial), so it is not resident while nobody updates. The body is
# update.bin from `make package`:
#
#   b'SBUP1\n' + b'<n>\n' + manifest.json (n bytes) + manifest.sig (64 hex digits) + b'\n'
#   + every file of the manifest, in sorted order, each exactly its size
#
# A paired phone's token (401 without one, 403 with a wrong one); Content-Length at most what
# the flash can take (the free space and what the folder that does not run holds now: 413
# beyond); the manifest signed with the board's update key (403 when it is not, before anything
# is written). The files go into the folder that does not run, hashed as they arrive: one that
# does not match its SHA-256 stops the update (403) and the pointer is not touched. Only a whole,
# checked folder is switched to (the new version on trial), then the board resets into it.
# A refused update's body is read to its end (bounded) before the answer: closed with bytes
# unread, the connection would be reset and the phone would not learn why.
# The body is read in CHUNK bytes at a time, each an await: the scoring loop runs between two
# chunks, so an update never holds it for more than one pass.
import asyncio
import json
import os

from .. import sign

URL = '/api/update'
MAGIC = b'SBUP1\n'
CHUNK = 512
MAX_MANIFEST = 16384
CHUNK_MS = 10000        # a sender that stalls this long is dropped
RESET_MS = 500          # after the answer, before the reset into the new version
DRAIN_BYTES = 1 << 20   # a refused update's body read and dropped, at most this much ...
DRAIN_MS = 5000         # ... for at most this long

try:
    from asyncio import sleep_ms
except ImportError:  # CPython
    def sleep_ms(ms):  # type: ignore[misc,no-redef]
        return asyncio.sleep(ms / 1000)

if hasattr(asyncio, 'wait_for_ms'):
    def _within(aw, ms):
        return asyncio.wait_for_ms(aw, ms)
else:
    def _within(aw, ms):
        return asyncio.wait_for(aw, ms / 1000)

restart = None      # how the board resets into the new version (a test puts its own)


class Refused(Exception):
    def __init__(self, code, why):
        super().__init__(why)
        self.code = code
        self.why = why


def _apps():
    import apps
    return apps


def version_state(root=''):
    """GET /api/version: {"version", "previous", "trial"}."""
    try:
        a = _apps()
    except ImportError:
        return {'version': None, 'previous': None, 'trial': False}
    ptr = a.read(root)
    if ptr is None:
        return {'version': None, 'previous': None, 'trial': False}
    return {'version': a.version(ptr['run'], root),
            'previous': a.version(ptr.get('prev'), root),
            'trial': bool(ptr.get('trial'))}


def free_bytes(root=''):
    """What the flash can still take, in bytes."""
    try:
        st = os.statvfs(root or '/')
        return st[0] * st[4]
    except (OSError, AttributeError):
        return 0


def _folder_bytes(a, top):
    n = 0
    for rel in a.files_in(top):
        try:
            n += os.stat(top + '/' + rel)[6]
        except OSError:
            pass
    return n


class Body:
    """The request body, read as it arrives: what microdot's head read took with it first."""

    def __init__(self, req, length):
        self.buf = req.body or b''
        self.reader = req.sock[0]
        self.left = length - len(self.buf)

    async def read(self, n):
        while len(self.buf) < n:
            if self.left <= 0:
                raise Refused(400, 'the update ends too soon')
            chunk = await _within(self.reader.read(min(CHUNK, self.left)), CHUNK_MS)
            if not chunk:
                raise Refused(400, 'the update ends too soon')
            self.left -= len(chunk)
            self.buf += chunk
        out = self.buf[:n]
        self.buf = self.buf[n:]
        return out

    async def line(self, limit):
        out = b''
        while not out.endswith(b'\n'):
            if len(out) > limit:
                raise Refused(403, 'not an update package')
            out += await self.read(1)
        return out


async def _drain(req, left):
    """`left`: the bytes of the body still in the socket."""
    # A refused update's body is read and dropped before the answer (at most DRAIN_BYTES, for
    # DRAIN_MS): a board that closes with bytes unread resets the connection, and the phone
    # would lose the answer that says why. A chunk per pass, as when it is taken.
    left = min(left, DRAIN_BYTES)
    from .. import ticks
    clock = ticks.reader()
    t0 = clock()
    reader = req.sock[0]
    try:
        while left > 0 and ticks.diff(clock(), t0) < DRAIN_MS:
            chunk = await _within(reader.read(min(CHUNK, left)), DRAIN_MS)
            if not chunk:
                return
            left -= len(chunk)
    except Exception:   # a sender that gave up: nothing to answer it anyway
        pass


async def receive(body, root=''):
    """Stream one update (`body`, a Body) into the folder that does not run; returns the new
    version's state."""
    a = _apps()
    if await body.read(len(MAGIC)) != MAGIC:
        raise Refused(403, 'not an update package (make package builds one)')
    n = await body.line(8)
    try:
        n = int(n)
    except ValueError:
        raise Refused(403, 'not an update package')
    if not 0 < n <= MAX_MANIFEST:
        raise Refused(403, 'not an update package')
    key = sign.board_key(root)
    if key is None:
        raise Refused(403, "not signed with this board's update key (the board has none)")
    # The manifest checked as it arrives, a chunk at a time: no one step hashes it all.
    mac = sign.Hmac(key)
    del key
    parts = []
    left = n
    while left > 0:
        part = await body.read(min(CHUNK, left))
        left -= len(part)
        mac.update(part)
        parts.append(part)
        await sleep_ms(0)
    sig = (await body.line(80)).decode().strip()
    if not sign.matches(mac.digest(), sig):
        raise Refused(403, "not signed with this board's update key")
    manifest = b''.join(parts)
    del parts
    try:
        m = await parse(manifest)
        files = m['files']
        sizes = m['sizes']
        version = m['version']
    except (ValueError, KeyError, TypeError):
        raise Refused(403, 'the manifest is malformed')
    names = sorted(files)
    if sum([sizes[r] for r in names]) != body.left + len(body.buf):
        raise Refused(400, 'the files are not the size the manifest says')
    target = a.inactive(root)
    top = a.folder(target, root)
    # Nothing of the folder counts as a version any more; then it takes the new files.
    try:
        os.remove(top + '/' + a.MANIFEST)
    except OSError:
        pass
    await _prune(a, top, names)
    import hashlib
    import binascii
    for rel in names:
        path = top + '/' + rel
        a.makedirs(path)
        h = hashlib.sha256()
        left = sizes[rel]
        with open(path, 'wb') as f:
            while left > 0:
                chunk = await body.read(min(CHUNK, left))
                left -= len(chunk)
                h.update(chunk)
                f.write(chunk)
                await sleep_ms(0)   # a scoring pass between two chunks, whatever the pace
        if binascii.hexlify(h.digest()).decode() != files[rel]:
            raise Refused(403, 'tampered: %s does not match its SHA-256' % rel)
    with open(top + '/' + a.MANIFEST, 'wb') as f:
        f.write(manifest)
    with open(top + '/manifest.sig', 'w') as f:
        f.write(sig + '\n')
    a.switch(target, root, checked=True)
    await _loader(a, top, names, root)
    st = version_state(root)
    st['version'] = version
    return st


LINES = 8      # manifest lines parsed per pass


async def parse(manifest):
    """The manifest's JSON, parsed a few lines per pass where it is laid out as
    tools/deploy.py's manifest_text lays it out, one entry per line (the 12 KB manifest of
    100 files in one json.loads is 0.5 ms on the unix port on a PC, many times that on a
    microcontroller); any other layout in one json.loads."""
    lines = manifest.split(b'\n')
    if len(lines) < 2 or not lines[0].startswith(b'{'):
        return json.loads(manifest)
    try:
        m = {}
        sect = None
        done = False
        for i, line in enumerate(lines):
            if done:
                raise ValueError
            if i == 0:
                line = line[1:]
            if line.endswith(b':{'):
                if sect is not None:
                    raise ValueError
                sect = m[json.loads(line[:-2])] = {}
                continue
            comma = line.endswith(b',')    # more follows at this level
            body = line[:-1] if comma else line
            core = body.rstrip(b'}')
            closes = len(body) - len(core)
            (sect if sect is not None else m).update(json.loads(b'{' + core + b'}'))
            if sect is not None and closes:
                sect = None
                closes -= 1
            if closes:
                if closes > 1 or comma:
                    raise ValueError
                done = True
            elif not comma:
                raise ValueError
            if i % LINES == LINES - 1:
                await sleep_ms(0)
        if not done:
            raise ValueError
        return m
    except (ValueError, TypeError, AttributeError):
        return json.loads(manifest)


async def _prune(a, top, keep):
    for rel in a.files_in(top):
        if rel not in keep and rel != 'manifest.sig':
            os.remove(top + '/' + rel)
            await sleep_ms(0)


async def _loader(a, top, names, root):
    # The loader at the top of the flash (main.py, boot.py, wdtfeed.py, apps.py), each written
    # whole, where it changed.
    base = root + '/' if root else ''
    for rel in names:
        if not rel.startswith('loader/'):
            continue
        dst = base + rel[len('loader/'):]
        try:
            same = a.sha256(dst)
            await sleep_ms(0)
            if same == a.sha256(top + '/' + rel):
                continue
        except OSError:
            pass
        await sleep_ms(0)   # each file hashed and placed in a pass of its own
        a.place(top + '/' + rel, dst)
        await sleep_ms(0)


async def _restart():
    await sleep_ms(RESET_MS)
    if restart is not None:
        restart()
        return
    import machine
    machine.reset()


async def _commit_later(trial, now):
    # A Wi-Fi board's loop is the runner's: the trial of a new version ends here once it has
    # run TRIAL_MS (app.main ends it on the other boards).
    while trial.on:
        if trial.due(now()):
            trial.commit()
            return
        await sleep_ms(1000)


def end_trial(trial, now):
    """A version on trial: its end, once it has run TRIAL_MS (web.py's make_app calls this)."""
    asyncio.create_task(_commit_later(trial, now))


async def post(req, root, authorised, reply, refuse):
    """POST /api/update (web.py's route, which loads this module at the first request)."""
    cl = req.headers.get('Content-Length')
    length = int(cl) if cl and cl.isdigit() else 0
    unread = length - len(req.body or b'')
    no = authorised(req)
    if no is not None:
        await _drain(req, unread)
        return no
    if not cl or not cl.isdigit():
        return refuse(400, 'an update says its Content-Length')
    try:
        a = _apps()
    except ImportError:
        await _drain(req, unread)
        return refuse(501, 'this board has no app folders: deploy it over USB once')
    room = free_bytes(root) + _folder_bytes(a, a.folder(a.inactive(root), root))
    if length > room:
        await _drain(req, unread)
        return refuse(413, 'the update is %d bytes, the flash has room for %d' % (
            length, room))
    body = Body(req, length)
    try:
        st = await receive(body, root)
    except Refused as e:
        await _drain(req, body.left)
        return refuse(e.code, e.why)
    except asyncio.TimeoutError:
        return refuse(408, 'the update stalled')
    except OSError as e:
        await _drain(req, body.left)
        return refuse(500, 'the flash: %s' % (e,))
    asyncio.create_task(_restart())
    return reply(200, st)
