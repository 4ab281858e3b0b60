# Where the project's parts are, and the one module that puts them on sys.path: for the host
# tools run as scripts (under CPython or the MicroPython unix port) and for what a test needs
# beyond the test path. The test path itself (host_tests/, firmware/, tools/) is pyproject.toml's
# `pythonpath`, read by pytest and by the unix-port runner host_tests/mp_run.py alike.
#
#   A tool in tools/ (its own folder is on sys.path when it runs as a script):
#       import paths
#       paths.setup()                   # firmware/ and tools/
#   A test (the test path already has tools/, so `import paths` works there too):
#       import paths
#       paths.virtual_first()           # the stand-in machine ahead of the port's own
#       name = paths.board_file(arg)    # 'some/folder/x.py' -> 'x', its folder on the path
#
# Runs on both interpreters: no os.path (MicroPython has none), only string joins.
import sys

try:
    from os.path import abspath as _abspath
except ImportError:   # MicroPython
    _abspath = None


def _parent(path):
    # spelled without '..' where it can be, so that the folders read the same as the test path
    # mp_run.py puts on sys.path (one spelling of a folder, one entry)
    if '/' in path:
        head, tail = path.rsplit('/', 1)
        if tail not in ('', '.', '..'):
            return head or '/'
    elif path not in ('', '.', '..'):
        return '.'
    return path + '/..'


def _in(root, sub):
    return sub if root == '.' else root + '/' + sub


ROOT = _parent(_parent(_abspath(__file__) if _abspath else __file__))
FIRMWARE = _in(ROOT, 'firmware')
LIB = FIRMWARE + '/lib'                    # vendored libraries (microdot), /lib on a board
TOOLS = _in(ROOT, 'tools')
VIRTUAL = TOOLS + '/virtual'               # stand-in machine, neopixel, framebuf, chip models
ONBOARD = TOOLS + '/onboard'               # MicroPython code the tools run on a (virtual) board
BOARDS = _in(ROOT, 'boards')
TESTS = _in(ROOT, 'host_tests')
FIXTURES = TESTS + '/fixtures/boards'      # test boards (bare, wlan_tm1637, the bug_* boards)


def add(*folders):
    """Each folder ahead on sys.path unless it is on it already (the last given ends first)."""
    for p in folders:
        if p not in sys.path:
            sys.path.insert(0, p)


def ahead(*folders):
    """Each folder at the front of sys.path, moved there if it was further back (the last
    given ends first)."""
    for p in folders:
        if p in sys.path:
            sys.path.remove(p)
        sys.path.insert(0, p)


def behind(*folders):
    """Each folder at the end of sys.path unless it is on it already."""
    for p in folders:
        if p not in sys.path:
            sys.path.append(p)


def setup():
    """A host tool's path: the firmware and the other tools."""
    add(FIRMWARE, TOOLS)


def virtual(root=ROOT):
    """The virtual board's path, as the press-script simulator uses it: the board files as
    top-level modules (board.py on a device), the firmware, the tools and the stand-ins. `root`
    may be another tree laid out the same (a compiled copy)."""
    add(_in(root, 'boards'), _in(root, 'firmware'), _in(root, 'tools'), _in(root, 'tools/virtual'))


def virtual_first():
    """tools/virtual (machine, neopixel, framebuf, the chip models) ahead of everything, then
    tools/ and firmware/: for the tests that talk to the drivers directly."""
    ahead(FIRMWARE, TOOLS, VIRTUAL)


def net(root=ROOT):
    """The Wi-Fi board's path (tools/net_sim.py): the virtual board's, with the vendored
    libraries, all moved to the front."""
    ahead(_in(root, 'boards'), _in(root, 'firmware'), _in(root, 'firmware/lib'),
          _in(root, 'tools'), _in(root, 'tools/virtual'))


def board_file(name):
    """A board named as a file outside boards/ ('folder/x.py' or 'folder/x'): its folder goes
    ahead on sys.path and its module name is returned; a plain name is returned as it is."""
    if '/' not in name:
        return name
    folder, name = name.rsplit('/', 1)
    sys.path.insert(0, folder)
    return name[:-3] if name.endswith('.py') else name
