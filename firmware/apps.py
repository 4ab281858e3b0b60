# The two app folders and the pointer (DESIGN section 12; docs/flashing.md).
#
# The scoreboard package lives in app_a or app_b on the flash, each with its manifest.json
# (the version and every file's SHA-256). The pointer, app.json, says which one runs:
#   {"run": "a", "prev": "b", "trial": true, "boots": 1, "undone": null}
# `make deploy`, the mip installer step and an update over the network write the folder that
# does not run, check every file against its manifest (verify()), and only then switch the
# pointer (switch()): a new version on trial. The pointer is written whole to app.json.new and
# renamed over app.json (atomic on littlefs; where a rename cannot replace, app.json is removed
# first and read() takes app.json.new), so a power cut at any byte leaves the old pointer or
# the new one, and with it the old version or the new one, never a mix.
#
# A version on trial goes back to the previous one by itself (undo()) when it faults
# TRIAL_FAULTS times, or the watchdog resets the board, before it has run TRIAL_MS; the
# firmware then says `update undone` on its display and in the fault log. After TRIAL_MS of
# running, commit() ends the trial.
#
# Kept as source at the top of the flash beside main.py (which calls enter()): it is the part
# that must work whichever folder runs. Board paths are relative to `root` ('' on a board, the
# flash folder in the tests).
import json
import os
import sys

POINTER = 'app.json'
BASE = 'app_'       # the folders: app_a, app_b
FOLDERS = ('a', 'b')
MANIFEST = 'manifest.json'
TRIAL_MS = 60000
TRIAL_FAULTS = 3
TRIAL_BOOTS = 5     # a trial that keeps booting (any reset, power cuts included) gives up
WDT_RESET = 3       # machine.WDT_RESET


def path(root, name):
    return root + '/' + name if root else name


def folder(name, root=''):
    return path(root, BASE + name)


def read(root=''):
    """The pointer, or None (the flat layout of a first install: no folders yet)."""
    for name in (POINTER, POINTER + '.new'):
        try:
            with open(path(root, name)) as f:
                ptr = json.load(f)
            if ptr.get('run') in FOLDERS:
                return ptr
        except (OSError, ValueError, AttributeError, TypeError):
            pass
    return None


def write(ptr, root=''):
    new = path(root, POINTER + '.new')
    with open(new, 'w') as f:
        f.write(json.dumps(ptr))
    dst = path(root, POINTER)
    try:
        os.rename(new, dst)
    except OSError:
        # a filesystem whose rename does not replace (FAT): read() takes app.json.new
        # meanwhile
        try:
            os.remove(dst)
        except OSError:
            pass
        os.rename(new, dst)


def other(name):
    return FOLDERS[1] if name == FOLDERS[0] else FOLDERS[0]


def inactive(root=''):
    """The folder an update writes: the one that does not run."""
    ptr = read(root)
    return other(ptr['run']) if ptr else FOLDERS[0]


def manifest(name, root=''):
    try:
        with open(folder(name, root) + '/' + MANIFEST) as f:
            m = json.load(f)
        if isinstance(m.get('files'), dict):
            return m
    except (OSError, ValueError, AttributeError):
        pass
    return None


def version(name, root=''):
    m = manifest(name, root) if name else None
    return m.get('version') if m else None


def sha256(p):
    import binascii
    import hashlib
    h = hashlib.sha256()
    buf = bytearray(512)
    mv = memoryview(buf)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            h.update(mv[:n])
    return binascii.hexlify(h.digest()).decode()


def verify(name, root=''):
    """None when every file the folder's manifest lists is there with its SHA-256, else the
    first that is not (or 'manifest')."""
    m = manifest(name, root)
    if m is None:
        return 'manifest'
    base = folder(name, root) + '/'
    for rel, digest in m['files'].items():
        try:
            if sha256(base + rel) != digest:
                return rel
        except OSError:
            return rel
    return None


def switch(name, root='', trial=True, checked=False):
    """Run folder `name` from the next boot on (checked first, unless the caller hashed every
    file as it wrote it), the running one kept as the previous version; raises ValueError when
    the folder does not verify."""
    bad = None if checked else verify(name, root)
    if bad is not None:
        raise ValueError('%s%s does not match its manifest: %s' % (BASE, name, bad))
    ptr = read(root)
    prev = ptr['run'] if ptr and ptr['run'] != name else (ptr or {}).get('prev')
    write({'run': name, 'prev': prev, 'trial': bool(trial and prev), 'boots': 0,
           'undone': None}, root)


def undo(ptr, root='', why=''):
    """Back to the previous version (the trial failed); returns the new pointer, or the same
    one committed when there is no good previous version to go back to."""
    prev = ptr.get('prev')
    if prev is None or verify(prev, root) is not None:
        ptr = dict(ptr, trial=False)
        write(ptr, root)
        return ptr
    bad = version(ptr['run'], root) or ptr['run']
    new = {'run': prev, 'prev': ptr['run'], 'trial': False, 'boots': 0,
           'undone': '%s (%s)' % (bad, why) if why else bad}
    write(new, root)
    return new


def commit(root=''):
    """The version on trial has run TRIAL_MS: it stays."""
    ptr = read(root)
    if ptr and ptr.get('trial'):
        ptr['trial'] = False
        write(ptr, root)


def said(root=''):
    """The `update undone` has been shown and logged: forget it."""
    ptr = read(root)
    if ptr and ptr.get('undone'):
        ptr['undone'] = None
        write(ptr, root)


def _reset_cause():
    """machine.reset_cause(), where a reset the firmware asked for (machine.reset(), mpremote
    reset) is not taken for the watchdog: on the RP2040 both report WDT_RESET, and the Pico
    SDK tells them apart by SCRATCH4 (its magic there: the watchdog really timed out)."""
    try:
        import machine
        cause = machine.reset_cause()
    except (ImportError, AttributeError):
        return None
    if cause == WDT_RESET and _mcu() == 'rp2' and hasattr(machine, 'mem32'):
        scratch4 = RP2040_SCRATCH4
        if 'RP2350' in getattr(sys.implementation, '_machine', ''):
            scratch4 = RP2350_SCRATCH4
        if machine.mem32[scratch4] != NON_REBOOT_MAGIC:
            return None     # machine.reset(): not the version's fault
    return cause


RP2040_SCRATCH4 = 0x4005801C    # the watchdog's SCRATCH4 (base 0x40058000 + 0x1c)
RP2350_SCRATCH4 = 0x400D801C
NON_REBOOT_MAGIC = 0x6AB73121   # the Pico SDK's watchdog_enable() puts it there


def _mcu():
    try:
        import board
        return getattr(board, 'MCU', None)
    except Exception:
        return None


def enter(root='', cause=None, count=True):
    """main.py, before anything of the package is loaded: count a trial boot (back to the
    previous version after a watchdog reset or too many boots), and put the running folder
    first on sys.path (boot.py: only that, count=False, so that a REPL imports the version
    that runs). Returns the pointer (None: the flat layout)."""
    ptr = read(root)
    if ptr is None:
        return None
    if count and ptr.get('trial'):
        if cause is None:
            cause = _reset_cause()
        boots = ptr.get('boots', 0) + 1
        # The first boot of a trial follows the reset that started it (on the RP2040
        # machine.reset() itself reports WDT_RESET): only a later watchdog reset counts.
        if (boots > 1 and cause == WDT_RESET) or boots > TRIAL_BOOTS:
            ptr = undo(ptr, root, 'watchdog reset' if cause == WDT_RESET else 'boots')
        else:
            ptr['boots'] = boots
            write(ptr, root)
    d = folder(ptr['run'], root)
    for name in FOLDERS:        # one folder on the path, never both
        for p in (folder(name, root), folder(name, root) + '/lib'):
            while p in sys.path:
                sys.path.remove(p)
    sys.path.insert(0, d + '/lib')
    sys.path.insert(0, d)
    return ptr


# --- the installers' steps (deploy.py runs them over mpremote; install.py after mip) --------

def entries(d):
    """[(name, is a folder)] of folder d ([] when it is not there); CPython too (tests)."""
    try:
        if hasattr(os, 'ilistdir'):
            return [(e[0], bool(e[1] & 0x4000)) for e in os.ilistdir(d)]
        return [(n, bool(os.stat(d + '/' + n)[0] & 0x4000)) for n in os.listdir(d)]
    except OSError:
        return []


def files_in(top, rel=''):
    """Every file under folder top, as paths relative to it."""
    out = []
    for name, isdir in entries(top + ('/' + rel if rel else '')):
        r = rel + '/' + name if rel else name
        if isdir:
            out += files_in(top, r)
        else:
            out.append(r)
    return out


def makedirs(p):
    # every folder on the way to file p
    i = p.find('/', 1)
    while i > 0:
        try:
            os.mkdir(p[:i])
        except OSError:
            pass
        i = p.find('/', i + 1)


def copy(src, dst):
    makedirs(dst)
    buf = bytearray(512)
    mv = memoryview(buf)
    with open(src, 'rb') as f, open(dst, 'wb') as g:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            g.write(mv[:n])


def carry(frm, to, rels, root=''):
    """Copy files rels from folder `frm` to folder `to` on the board itself (a deploy's files
    that did not change since the running version: nothing crosses the USB cable)."""
    a = folder(frm, root) + '/'
    b = folder(to, root) + '/'
    for rel in rels:
        copy(a + rel, b + rel)


def prune(name, keep, root=''):
    """Remove from folder `name` every file not in `keep` (its folders stay)."""
    top = folder(name, root)
    for rel in files_in(top):
        if rel not in keep:
            os.remove(top + '/' + rel)


def _rmdirs(top):
    for name, isdir in entries(top):
        if isdir:
            _rmdirs(top + '/' + name)
            try:
                os.rmdir(top + '/' + name)
            except OSError:
                pass


def rmtree(top):
    for rel in files_in(top):
        os.remove(top + '/' + rel)
    _rmdirs(top)
    try:
        os.rmdir(top)
    except OSError:
        pass


def place(src, dst):
    """Put file src at dst whole or not at all (a copy to dst.new, then a rename)."""
    tmp = dst + '.new'
    copy(src, tmp)
    try:
        os.rename(tmp, dst)
    except OSError:
        try:
            os.remove(dst)
        except OSError:
            pass
        os.rename(tmp, dst)


def broken(e, root=''):
    """main.py: the package did not load. A version on trial goes back to the previous one
    at once (the reason in the pointer, for the fault log), and the board resets."""
    ptr = read(root)
    if ptr is None or not ptr.get('trial'):
        return
    print('apps: %s%s does not load: %r' % (BASE, ptr['run'], e))
    if undo(ptr, root, 'does not load')['run'] != ptr['run']:
        import machine
        machine.reset()


def manifest_at(top):
    try:
        with open(top + '/' + MANIFEST) as f:
            m = json.load(f)
        if isinstance(m.get('files'), dict):
            return m
    except (OSError, ValueError, AttributeError):
        pass
    return None


def verify_at(top):
    """verify() of a folder by its path (the staging folder of an install)."""
    m = manifest_at(top)
    if m is None:
        return 'manifest'
    for rel, digest in m['files'].items():
        try:
            if sha256(top + '/' + rel) != digest:
                return rel
        except OSError:
            return rel
    return None


def exists(p):
    try:
        os.stat(p)
        return True
    except OSError:
        return False


def adopt(staging, root=''):
    """A checked folder `staging` becomes the app folder that does not run (the one there is
    removed first: it is not the running version), then the pointer switches to it."""
    name = inactive(root)
    dst = folder(name, root)
    src = path(root, staging)
    if exists(dst):
        rmtree(dst)
    os.rename(src, dst)
    switch(name, root)
    return name
