# The simulator's engine: the real firmware (scoreboard.app.App) on a virtual board, on virtual
# time. It runs under the MicroPython unix port (the default: tools/sim.py starts it) and under
# CPython. It reads press-script lines (DESIGN section 6) and answers on stdout:
#
#   tap B            press B for 80 ms, then 300 ms with nothing pressed
#   hold B MS        press B for MS, then the 300 ms gap
#   chord B1 B2 MS   press both for MS, then the gap
#   down B / up B    press / release B, no time passes
#   wait MS          let MS of virtual time pass
#   power-cut        RAM is lost; the firmware boots again from the virtual flash
#   state            print the view model as one JSON line
#   # comment        (and blank lines, and anything after a # on a line) ignored
#
# Interactive front ends also use: `draw` (the displays as the virtual chips show them, then a
# line '.'), `quit`.
#
# usage: sim_engine.py --board NAME --flash DIR [--script FILE | --stdin] [--root DIR]
import gc
import sys

GAP_MS = 300
TAP_MS = 80
STEP_MS = 5            # the firmware's loop period (scoreboard.app.LOOP_MS)
IDLE_STEP_MS = 25      # with no key down and nothing pending, time may pass in larger steps

VIEW_KEYS = ('screen', 'game', 'red', 'blue', 'pending', 'hammer', 'turn', 'frame', 'end',
             'target', 'winner', 'games', 'legs', 'message', 'beds', 'cursor', 'menu')


class ScriptError(Exception):
    def __init__(self, lineno, line, why):
        super().__init__('line %d: %s: %s' % (lineno, why, line.strip()))
        self.lineno = lineno


def dumps(v):
    """JSON with the view model's keys in their documented order (MicroPython dicts keep no
    order), nested dicts sorted."""
    if isinstance(v, dict):
        keys = [k for k in VIEW_KEYS if k in v]
        rest = sorted([k for k in v if k not in keys])
        return '{' + ', '.join(['"%s": %s' % (k, dumps(v[k])) for k in keys + rest]) + '}'
    if isinstance(v, (list, tuple)):
        return '[' + ', '.join([dumps(x) for x in v]) + ']'
    if v is None:
        return 'null'
    if v is True:
        return 'true'
    if v is False:
        return 'false'
    if isinstance(v, str):
        out = '"'
        for ch in v:
            if ch == '"' or ch == '\\':
                out += '\\' + ch
            elif ord(ch) < 32:
                out += '\\u%04x' % ord(ch)
            else:
                out += ch
        return out + '"'
    return str(v)


def _button(w, buttons, n, raw):
    b = w.upper()
    if b not in ('RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS'):
        raise ScriptError(n, raw, 'unknown button %s' % w)
    if b not in buttons:
        raise ScriptError(n, raw, 'this board has no %s button' % b)
    return b


def _ms(w, n, raw):
    try:
        v = int(w)
    except ValueError:
        raise ScriptError(n, raw, 'not a number of milliseconds: %s' % w)
    if v < 0:
        raise ScriptError(n, raw, 'negative time')
    return v


def text_lines(data):
    """A script file's bytes -> its lines as text; a line that is not UTF-8 is a ScriptError
    naming it."""
    out = []
    n = 0
    for raw in data.split(b'\n'):
        n += 1
        try:
            out.append(raw.decode())
        except UnicodeError:
            raise ScriptError(n, repr(raw)[2:-1], 'not UTF-8 text')
    if out and not out[-1]:
        out.pop()               # the empty piece after a final newline
    return out


def parse(lines, buttons):
    """Press-script lines -> list of (lineno, op, args). Raises ScriptError naming the line."""
    out = []
    n = 0
    for raw in lines:
        n += 1
        line = raw.split('#', 1)[0].strip()     # a comment line, or a comment after a command
        if not line:
            continue
        words = line.split()
        op = words[0].lower()
        args = words[1:]

        shapes = {'tap': 'b', 'hold': 'bm', 'chord': 'bbm', 'down': 'b', 'up': 'b',
                  'wait': 'm', 'power-cut': '', 'state': '', 'draw': '', 'quit': ''}
        if op not in shapes:
            raise ScriptError(n, raw, 'unknown command %s' % words[0])
        shape = shapes[op]
        if len(args) != len(shape):
            raise ScriptError(n, raw, '%s takes %d argument(s)' % (op, len(shape)))
        vals = []
        for i in range(len(shape)):
            if shape[i] == 'b':
                vals.append(_button(args[i], buttons, n, raw))
            else:
                vals.append(_ms(args[i], n, raw))
        if op == 'chord' and vals[0] == vals[1]:
            raise ScriptError(n, raw, 'a chord needs two different buttons')
        out.append((n, op, vals))
    return out


class Sim:
    def __init__(self, board_name, flash, out=None):
        import machine
        self.machine = machine
        self.board = __import__(board_name)
        self.board_name = board_name
        self.flash = flash
        self.now = 0
        self.held = {}
        self.out = out or sys.stdout
        self.boots = 0
        self.boot()

    # --- the board --------------------------------------------------------------------------

    def boot(self):
        """Power on: fresh RAM (a new App, fresh wires and chips), the same flash."""
        import scoreboard
        scoreboard.prepare_heap()          # as firmware/main.py does, before the app loads
        from scoreboard.app import App
        from scoreboard.store import Store
        m = self.machine
        m.reset_all()
        for name in self.held:
            m.drive(self.board.BUTTONS[name], 0)
        # The chips must listen before the drivers talk to them, as on a real board: build the
        # displays once to learn where the chips sit, attach them, then let the app build its
        # own displays (the init sequence then reaches the chips).
        self.chips = []
        for disp in self.board.displays():
            group = []
            for drv in disp.drivers:
                group += chips_for(drv)
            self.chips.append(group)
        # Those first displays are garbage now, scattered between the code the board file
        # loaded: collect before the app builds, as if they had never been (a board builds
        # its displays once). CPython's heap needs no such care, and its collection is slow.
        if sys.implementation.name == 'micropython':
            gc.collect()
        self.app = App(self.board, Store(self.flash), self.now)
        self.boots += 1

    def press(self, b):
        self.held[b] = True
        self.machine.drive(self.board.BUTTONS[b], 0)

    def release(self, b):
        if b in self.held:
            del self.held[b]
        self.machine.drive(self.board.BUTTONS[b], None)

    def advance(self, ms):
        end = self.now + ms
        app = self.app
        while self.now < end:
            quiet = not self.held and app.idle
            step = IDLE_STEP_MS if quiet else STEP_MS
            if self.now + step > end:
                step = end - self.now
            self.now += step
            app.step(self.now & 0x1FFFFFFF)

    # --- commands ---------------------------------------------------------------------------

    def run(self, op, args):
        if op == 'tap':
            self.press(args[0])
            self.advance(TAP_MS)
            self.release(args[0])
            self.advance(GAP_MS)
        elif op == 'hold':
            self.press(args[0])
            self.advance(args[1])
            self.release(args[0])
            self.advance(GAP_MS)
        elif op == 'chord':
            self.press(args[0])
            self.press(args[1])
            self.advance(args[2])
            self.release(args[0])
            self.release(args[1])
            self.advance(GAP_MS)
        elif op == 'down':
            self.press(args[0])
        elif op == 'up':
            self.release(args[0])
        elif op == 'wait':
            self.advance(args[0])
        elif op == 'power-cut':
            self.boot()
        elif op == 'state':
            self.out.write(dumps(self.app.ctl.view) + '\n')
        elif op == 'draw':
            for line in self.picture():
                self.out.write(line + '\n')
            self.out.write('.\n')
        if hasattr(self.out, 'flush'):
            self.out.flush()

    def picture(self):
        """The displays as their chips show them: terminal lines, one block per display."""
        lines = []
        for i in range(len(self.chips)):
            group = self.chips[i]
            if len(self.chips) > 1:
                lines.append('end %d' % (i + 1))
            blocks = [term(c) for c in group]
            height = max([len(b) for b in blocks]) if blocks else 0
            for r in range(height):
                row = ''
                for b in blocks:
                    row += (b[r] if r < len(b) else '') + '   '
                lines.append(row)
        return lines


def chips_for(drv):
    from virtual.chip_map import chips_for
    return chips_for(drv, 'virtual.')


def term(chip):
    if chip.kind == 'pixels':
        from virtual import draw_pixels as d
    else:
        from virtual import draw_segments as d
    return d.term(chip)


def setup_path(root):
    # The stand-in machine and neopixel must shadow the port's own; boards are top-level
    # modules as board.py is on the device.
    for p in (root + '/boards', root + '/firmware', root + '/tools', root + '/tools/virtual'):
        if p not in sys.path:
            sys.path.insert(0, p)


def main(argv):
    root = '.'
    board = 'pico_tm1637'
    flash = None
    script = None
    interactive = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--board', '--flash', '--script', '--root'):
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
            else:
                root = v
            continue
        if a == '--stdin':
            interactive = True
        else:
            sys.stderr.write('unknown argument %s\n' % a)
            return 2
        i += 1
    if flash is None:
        sys.stderr.write('--flash DIR is required\n')
        return 2
    setup_path(root)
    if '/' in board:
        # A board file outside boards/ (a test fixture): its folder goes on the path.
        folder, board = board.rsplit('/', 1)
        sys.path.insert(0, folder)
        if board.endswith('.py'):
            board = board[:-3]
    try:
        b = __import__(board)
    except ImportError:
        sys.stderr.write('unknown board %s\n' % board)
        return 2
    buttons = b.BUTTONS
    if script is not None:
        try:
            with open(script, 'rb') as f:
                data = f.read()
        except OSError:
            sys.stderr.write('cannot read %s\n' % script)
            return 2
        try:
            prog = parse(text_lines(data), buttons)
        except ScriptError as e:
            sys.stderr.write('%s: %s\n' % (script, e))
            return 2
        sim = Sim(board, flash)
        for _, op, args in prog:
            if op == 'quit':
                break
            sim.run(op, args)
        return 0
    if interactive:
        sim = Sim(board, flash)
        n = 0
        while True:
            line = sys.stdin.readline()
            if not line:
                return 0
            n += 1
            try:
                prog = parse([line], buttons)
            except ScriptError as e:
                sys.stdout.write('error: %s\n.\n' % e)
                sys.stdout.flush()
                continue
            for _, op, args in prog:
                if op == 'quit':
                    return 0
                sim.run(op, args)
    sys.stderr.write('give --script FILE or --stdin\n')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
