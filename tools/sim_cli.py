# The simulator's command line, run by tools/sim.py under the MicroPython unix port (or
# CPython): the real firmware on the virtual board of tools/sim_engine.py, fed a press script
# or, interactively, one line at a time on stdin (answers end with a line '.' where they are
# several lines: `draw`, an error).
#
# Scripts are streamed: checked line by line, then run line by line, so memory stays the same
# whatever their length (a script of 20,000 commands and several MB runs in the default heap).
# A line is read in pieces of at most LINE_MAX bytes, so a line of any length costs no more:
# one longer than that is an error naming it (exit 2), never a MemoryError.
#
# usage: sim_cli.py --board NAME --flash DIR [--script FILE [--name NAME] | --stdin] [--root DIR]
#                   [--colour]
#   --name: what error messages call the script (sim.py says <stdin> for a piped one)
import sys

import paths
from sim_engine import ScriptError, Sim, TooLong, parse_line


LINE_MAX = 4096     # the longest script line (the longest command is a few dozen bytes)


class _Long:
    # what read_line() gives for a line longer than LINE_MAX: its first bytes, for the message
    def __init__(self, head):
        self.head = head


def read_line(f):
    """The next line of an open binary stream without its newline, None at the end, or a
    _Long for a line longer than LINE_MAX (read past in pieces: bounded memory)."""
    raw = f.readline(LINE_MAX + 1)
    if not raw:
        return None
    if raw[-1:] == b'\n':
        return raw[:-1]
    if len(raw) <= LINE_MAX:
        return raw          # the last line, without a newline
    head = raw[:40]
    while True:
        more = f.readline(LINE_MAX)
        if not more or more[-1:] == b'\n':
            return _Long(head)


def check_length(n, raw):
    if isinstance(raw, _Long):
        try:
            head = raw.head.decode()
        except UnicodeError:
            head = repr(raw.head)[2:-1]
        raise ScriptError(n, head + '...', 'a line longer than %d bytes' % LINE_MAX)
    return raw


def text_line(n, raw):
    """One script line's bytes -> text; a line that is not UTF-8 is a ScriptError naming it."""
    try:
        return raw.decode()
    except UnicodeError:
        raise ScriptError(n, repr(raw)[2:-1], 'not UTF-8 text')


def stream(f, buttons):
    """(lineno, op, args) for each command of an open script file (bytes), one line at a
    time: memory stays the same whatever the script's length."""
    n = 0
    while True:
        raw = read_line(f)
        if raw is None:
            return
        n += 1
        cmd = parse_line(n, text_line(n, check_length(n, raw)), buttons)
        if cmd is not None:
            yield n, cmd[0], cmd[1]


def warn_deaf(sim):
    # A board file whose wiring() names other pins than its displays() use: say so, or the
    # simulator shows a blank display with no reason.
    for chip in sim.vboard.deaf():
        sys.stderr.write('sim: a %s chip of %s heard nothing from the firmware: do its '
                         'wiring() pins match displays()?\n' % (type(chip).__name__,
                                                                 sim.board_name))
    if sim.vboard.error and sim.app.displays:
        sys.stderr.write('sim: %s: %s\n' % (sim.board_name, sim.vboard.error))


def run_script(script, board, flash, buttons, colour=False, name=None):
    """Check the whole script, then run it: both passes read one line at a time. `name` is
    what the error messages call it (the path when None)."""
    try:
        f = open(script, 'rb')
    except OSError:
        sys.stderr.write('cannot read %s\n' % script)
        return 2
    script = name or script
    try:
        try:
            for _ in stream(f, buttons):
                pass
        except ScriptError as e:
            sys.stderr.write('%s: %s\n' % (script, e))
            return 2
        f.seek(0)
        sim = Sim(board, flash, colour=colour, forget=True)
        warn_deaf(sim)
        for n, op, args in stream(f, buttons):
            if op == 'quit':
                break
            try:
                sim.run(op, args)
            except TooLong as e:
                sys.stderr.write('%s: line %d: %s\n' % (script, n, e))
                return 2
        return 0
    finally:
        f.close()


def main(argv):
    root = '.'
    board = 'pico_tm1637'
    flash = None
    script = None
    name = None
    interactive = False
    colour = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--board', '--flash', '--script', '--root', '--name'):
            if i + 1 >= len(argv):
                sys.stderr.write('%s needs a value\n' % a)
                return 2
            v = argv[i + 1]
            i += 2
            if a == '--board':
                board = v
            elif a == '--flash':
                flash = v
            elif a == '--script':
                script = v
            elif a == '--name':
                name = v
            else:
                root = v
            continue
        if a == '--stdin':
            interactive = True
        elif a == '--colour':
            colour = True
        else:
            sys.stderr.write('unknown argument %s\n' % a)
            return 2
        i += 1
    if flash is None:
        sys.stderr.write('--flash DIR is required\n')
        return 2
    # The stand-in machine and neopixel shadow the port's own; boards are top-level modules
    # as board.py is on the device; a board file outside boards/ (a test fixture) brings its
    # folder.
    paths.virtual(root)
    board = paths.board_file(board)
    try:
        b = __import__(board)
    except ImportError:
        sys.stderr.write('unknown board %s\n' % board)
        return 2
    buttons = b.BUTTONS
    if script is not None:
        return run_script(script, board, flash, buttons, colour, name)
    if interactive:
        sim = Sim(board, flash, colour=colour, forget=True)
        warn_deaf(sim)
        n = 0
        stdin = getattr(sys.stdin, 'buffer', sys.stdin)
        while True:
            raw = read_line(stdin)
            if raw is None:
                return 0
            n += 1
            try:
                cmd = parse_line(n, text_line(n, check_length(n, raw)), buttons)
                if cmd is not None and cmd[0] == 'quit':
                    return 0
                if cmd is not None:
                    sim.run(cmd[0], cmd[1])
            except (ScriptError, TooLong) as e:
                sys.stdout.write('error: %s\n.\n' % e)
                sys.stdout.flush()
    sys.stderr.write('give --script FILE or --stdin\n')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
