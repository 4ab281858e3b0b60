# The installer step after `mpremote mip install` of a package (`make package`; docs/flashing.md):
#
#   mpremote mip install --target /app_new URL/package.json + exec \
#       "import sys; sys.path.insert(0, '/app_new'); from scoreboard import install"
#
# mip has put the package in /app_new. Importing this module then puts the loader at the top of
# the flash (main.py, boot.py, wdtfeed.py, apps.py: each written whole), checks every file of
# /app_new against its manifest, makes it the app folder that does not run, and switches the
# pointer (the new version on trial where there is an old one). A board installed for the first
# time also gets the board files (/boards), to choose one at its first boot (boardpick). Then
# `mpremote reset` starts the new version.
import os

STAGING = 'app_new'


def _read(p):
    try:
        with open(p, 'rb') as f:
            return f.read()
    except OSError:
        return None


def run(staging=STAGING, root=''):
    top = root + '/' if root else ''
    base = top + staging
    loader = base + '/loader'
    names = [n for n, _ in _entries(loader)]
    if 'apps.py' in names:          # first: the others import it
        names.remove('apps.py')
        names.insert(0, 'apps.py')
    for n in names:
        if not _place(loader + '/' + n, top + n):
            print('install: %s is up to date' % n)
    import apps
    m = apps.manifest_at(base)
    bad = apps.verify_at(base)
    if bad is not None:
        raise ValueError('install: %s does not match its manifest: %s' % (staging, bad))
    if not apps.exists(top + 'board.py'):
        for n in _names(base + '/boards'):
            apps.makedirs(top + 'boards/' + n)
            apps.copy(base + '/boards/' + n, top + 'boards/' + n)
    name = apps.adopt(staging, root)
    print('install: %s in %s%s; `mpremote reset` starts it' % (m['version'], apps.BASE, name))
    return name


def _entries(d):
    try:
        return [(e[0], e[1]) for e in os.ilistdir(d)]
    except OSError:
        return []


def _names(d):
    return [n for n, _ in _entries(d)]


def _place(src, dst):
    """A loader file written whole at the top (apps.py may not be there yet: no import)."""
    data = _read(src)
    if data is None or data == _read(dst):
        return False
    tmp = dst + '.new'
    with open(tmp, 'wb') as f:
        f.write(data)
    try:
        os.rename(tmp, dst)
    except OSError:
        try:
            os.remove(dst)
        except OSError:
            pass
        os.rename(tmp, dst)
    return True


# Importing this module is the installer step (it is never imported by the firmware).
run()
