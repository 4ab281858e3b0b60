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
#   ir CODE [MS]     the board's infrared remote sends CODE (hex, with or without 0x: the number
#                    of the board file's IR codes): a real NEC pulse train on the receiver's pin,
#                    one frame, and with MS the key held that long (repeat codes every 108 ms
#                    for MS); then the key's release (the decoder's release time) and the gap
#   rf CODE [MS]     the same for the 433 MHz keyfob: an EV1527 code (24 bits), frames sent for
#                    MS (at least four frames, as a fob's short press sends); two data bits set
#                    are two fob keys at once (the RED+BLUE chord where both are bound)
#   light PCT        the light sensor reads PCT % of its range (the room's light)
#   tones            print the tones the buzzer played since the last `tones` as one JSON line
#                    {"tones": [[Hz, ms], ...]}
#
# Interactive front ends also use: `draw` (the displays as the virtual chips show them, then a
# line '.'), `quit`.
#
# The commands are one table, COMMANDS: name -> (argument kinds, Sim method); ARGS turns each
# argument kind into a value; kinds after a '?' are optional. A new command is a row in
# COMMANDS, a method of Sim, and (for a new kind of argument) a row in ARGS.
# The command line (tools/sim.py starts it: scripts streamed, the interactive pipe) is
# tools/sim_cli.py; this module is what a press-script run needs.
import sys

GAP_MS = 300           # DESIGN section 6: the gap after a tap, hold or chord
TAP_MS = 80            # DESIGN section 6: a tap's press
IDLE_STEP_MS = 25      # with no key down and nothing pending, time may pass in larger steps
# Quiet for longer than every firmware timer (nothing pressed since): whole tick periods pass
# in one jump (the firmware sees the same masked ticks), the rest in JUMP_MS steps.
TICKS_PERIOD = 1 << 29
JUMP_MS = 1 << 22
MAX_BUSY_MS = 24 * 3600 * 1000   # a key held longer than this is a script error, not a wait

VIEW_KEYS = ('screen', 'game', 'red', 'blue', 'pending', 'hammer', 'turn', 'frame', 'end',
             'target', 'winner', 'games', 'legs', 'message', 'beds', 'cursor', 'menu')


class ScriptError(Exception):
    def __init__(self, lineno, line, why):
        super().__init__('line %d: %s: %s' % (lineno, why, line.strip()))
        self.lineno = lineno


class TooLong(Exception):
    """A wait with a key held beyond MAX_BUSY_MS: the firmware would have to be run through
    every pass of it (auto-repeat), so the simulator refuses it."""


class NoPart(TooLong):
    """A script line for a part the board does not have (`ir` on a board without IR): refused
    when the line is run, like a wait too long (the runner names the line)."""


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


def button_names():
    """The firmware's button names (scoreboard.ui.keys), imported when first needed."""
    try:
        from scoreboard.ui.keys import NAMES
    except ImportError:     # the firmware's input layer moved: DESIGN section 4's names
        NAMES = ('RED', 'BLUE', 'OK', 'RED_MINUS', 'BLUE_MINUS')
    return NAMES


def _button(w, buttons, n, raw):
    b = w.upper()
    if b not in button_names():
        raise ScriptError(n, raw, 'unknown button %s' % w)
    if b not in buttons:
        raise ScriptError(n, raw, 'this board has no %s button' % b)
    return b


def _ms(w, buttons, n, raw):
    try:
        v = int(w)
    except ValueError:
        raise ScriptError(n, raw, 'not a number of milliseconds: %s' % w)
    if v < 0:
        raise ScriptError(n, raw, 'negative time')
    return v


def _code(w, buttons, n, raw):
    h = w[2:] if w[:2] in ('0x', '0X') else w
    try:
        v = int(h, 16)
    except ValueError:
        v = -1
    if v < 0 or not h:
        raise ScriptError(n, raw, 'not a hex code: %s' % w)
    return v


def _pct(w, buttons, n, raw):
    try:
        v = int(w)
    except ValueError:
        v = -1
    if not 0 <= v <= 100:
        raise ScriptError(n, raw, 'not a percentage 0..100: %s' % w)
    return v


# Argument kinds: one letter -> parser(word, board buttons, line number, line) -> value.
ARGS = {'b': _button, 'm': _ms, 'c': _code, 'p': _pct}

# The script commands: name -> (argument kinds, the Sim method that runs them; None: handled
# by the runner). tools/sim.py --help lists them.
COMMANDS = {
    'tap': ('b', 'tap'),
    'hold': ('bm', 'hold'),
    'chord': ('bbm', 'chord'),
    'down': ('b', 'press'),
    'up': ('b', 'release'),
    'wait': ('m', 'advance'),
    'power-cut': ('', 'boot'),
    'state': ('', 'state'),
    'ir': ('c?m', 'ir'),
    'rf': ('c?m', 'rf'),
    'light': ('p', 'light'),
    'tones': ('', 'tones'),
    'draw': ('', 'draw'),
    'quit': ('', None),
}


def parse_line(n, raw, buttons):
    """One press-script line -> (op, args), or None for a blank or comment line. Raises
    ScriptError naming the line."""
    line = raw.split('#', 1)[0].strip()     # a comment line, or a comment after a command
    if not line:
        return None
    words = line.split()
    op = words[0].lower()
    args = words[1:]
    row = COMMANDS.get(op)
    if row is None:
        raise ScriptError(n, raw, 'unknown command %s' % words[0])
    shape = row[0]
    need = shape.split('?')[0]
    shape = shape.replace('?', '')
    if not len(need) <= len(args) <= len(shape):
        if len(need) == len(shape):
            raise ScriptError(n, raw, '%s takes %d argument(s)' % (op, len(shape)))
        raise ScriptError(n, raw, '%s takes %d to %d arguments' % (op, len(need), len(shape)))
    vals = []
    for i in range(len(args)):
        vals.append(ARGS[shape[i]](args[i], buttons, n, raw))
    if op == 'chord' and vals[0] == vals[1]:
        raise ScriptError(n, raw, 'a chord needs two different buttons')
    return op, vals


def parse(lines, buttons):
    """Press-script lines -> list of (lineno, op, args). Raises ScriptError naming the line."""
    out = []
    n = 0
    for raw in lines:
        n += 1
        cmd = parse_line(n, raw, buttons)
        if cmd is not None:
            out.append((n, cmd[0], cmd[1]))
    return out


def app_idle(app):
    """True when no key is down and nothing is pending in the input (App.idle)."""
    return app.idle


def quiet_horizon(app):
    """Virtual ms after the last press by which every firmware timer has fired (the display's
    sleep is the longest; DESIGN section 4: idle 60 min, display off), plus a margin."""
    return getattr(app.ctl, 'SLEEP_MS', 3600000) + 1000


class Sim:
    def __init__(self, board_name, flash, out=None, colour=False, forget=False):
        # forget: the simulator is the whole process (tools/sim_cli.py), so a power cut drops
        # the firmware's modules (see _ram_lost); in a process that shares them (a test run)
        # only the module-level state the firmware keeps across a boot is cleared
        import machine
        self.forget = forget
        self.machine = machine
        self.board = __import__(board_name)
        self.board_name = board_name
        self.flash = flash
        self.now = 0
        self.touched = 0        # virtual time of the last press, release or boot
        self.held = {}
        self.out = out or sys.stdout
        self.colour = colour
        self.boots = 0
        self.resets = []        # (virtual ms, 'watchdog') for every reset the watchdog made
        self.vboard = None
        machine.set_clock(self._clock)   # the watchdog and the timers on virtual time
        from virtual.irqpin import Clock
        self.us = Clock()       # the microsecond clock the receivers' IRQs read
        self.receivers = {}     # 'ir', 'rf' -> virtual.receiver.Receiver on the board's pin
        self.remote_until = 0   # a remote's train and its key's release end by then
        self.light_pct = 50     # the room, as the light sensor sees it
        self._tones_told = 0    # tones already printed by `tones`
        self._tones_old = []    # tones of the boots before this one
        self.boot()

    # --- the board --------------------------------------------------------------------------

    def _clock(self):
        return self.now

    def boot(self, cause=None):
        """Power on (or a reset with `cause`, as machine.reset_cause() then says): fresh RAM
        (a new App, fresh wires and chips), the same flash."""
        if self.boots:
            self._ram_lost()
        import scoreboard
        scoreboard.prepare_heap()          # as firmware/main.py does, before the app loads
        import scoreboard.app
        App = scoreboard.app.App
        from scoreboard.store import Store
        from virtual_board import VirtualBoard
        m = self.machine
        self.app = None
        self.vboard = None
        if self.boots:      # this simulator's tones so far (the first boot: none yet)
            self._tones_old = self.tones_played()
        m.reset_all(cause)
        for name in self.held:
            m.drive(self.board.BUTTONS[name], 0)
        self._parts()
        # The chips are on the board before power-on: they listen from the first edge the
        # drivers send, built from the board file's wiring, not from its drivers.
        self.vboard = VirtualBoard(self.board)
        self.chips = self.vboard.groups
        self.step_ms = getattr(scoreboard.app, 'LOOP_MS', 5)     # the firmware's loop period
        self.app = App(self.board, Store(self.flash), self.now, us=self.us)
        self.light(self.light_pct)
        self.touched = self.now
        self.boots += 1

    def _ram_lost(self):
        # A power cut: a board's RAM holds the firmware's modules and everything at their
        # module level (the store's count of failed writes, caches, loaded game modules), so
        # they are all dropped here and import again at the boot, as from a board's flash.
        # The board file (pins and parts: no state of its own) stays, so a test may wrap its
        # functions; the virtual chips are not RAM.
        self.app = None
        if self.forget:
            for name in list(sys.modules):
                if name == 'scoreboard' or name.startswith('scoreboard.'):
                    del sys.modules[name]
        else:
            # Other code in this process holds the modules (a test's RuleError must stay the
            # one the game raises), so they stay; what they keep from boot to boot goes: the
            # files the store keeps alive after failed writes, which count to store.KEEP.
            st = sys.modules.get('scoreboard.store')
            if st is not None:
                st._kept[:] = []
        if sys.implementation.name == 'micropython':
            import gc
            gc.collect()

    def _parts(self):
        # The board's optional parts (DESIGN section 11) on the virtual board, before power-on:
        # the remotes' receivers on their pins, the buzzer's PWM on the loop's clock.
        from virtual.receiver import Receiver
        m = self.machine
        self.receivers = {}
        for attr, kind in (('IR', 'ir'), ('RF', 'rf')):
            part = getattr(self.board, attr, None)
            if part:
                r = Receiver(part['pin'], kind, clock=self.us)
                r.idle_line()
                self.receivers[kind] = r
        pwm = getattr(m, 'PWM', None)
        if pwm is not None:
            pwm.default_clock = self._ms

    def _ms(self):
        return self.now & 0x1FFFFFFF
    def press(self, b):
        self.held[b] = True
        self.touched = self.now
        self.machine.drive(self.board.BUTTONS[b], 0)

    def release(self, b):
        if b in self.held:
            del self.held[b]
        self.touched = self.now
        self.machine.drive(self.board.BUTTONS[b], None)

    def advance(self, ms):
        """Let ms of virtual time pass, one loop pass every LOOP_MS (IDLE_STEP_MS when nothing
        is down). Once every firmware timer has had its turn since the last press, nothing is
        due: whole tick periods pass at once, the rest in JUMP_MS steps."""
        end = self.now + ms
        app = self.app
        horizon = quiet_horizon(app)
        if self.held and ms > MAX_BUSY_MS:
            raise TooLong('a key held for more than %d ms' % MAX_BUSY_MS)
        rs = list(self.receivers.values())
        while self.now < end:
            quiet = not self.held and app_idle(app) and self.now >= self.remote_until
            step = IDLE_STEP_MS if quiet else self.step_ms
            if quiet and self.now - self.touched >= horizon:
                left = end - self.now
                # The passes skipped fed the watchdog (a quiet pass feeds every FEED_MS).
                if left >= TICKS_PERIOD:
                    self.now += left - left % TICKS_PERIOD    # the same masked ticks
                    self._fed()
                    continue
                step = JUMP_MS
            if self.now + step > end:
                step = end - self.now
            self.now += step
            for r in rs:
                if r._edges:        # a train queued: its edges due by now onto the pin
                    r.play(self.now)
            if step == JUMP_MS:
                self._fed()
            app.step(self.now & 0x1FFFFFFF)
            self.machine.run_timers(self.now)
            if self.machine.watchdog().expired(self.now):
                self.watchdog_reset()
                app = self.app

    def _fed(self):
        w = self.machine.watchdog()
        if w.timeout is not None:
            w.fed_at = self.now

    def watchdog_reset(self):
        """The watchdog was not fed in time: the board resets (RAM lost, flash kept)."""
        self.resets.append((self.now, 'watchdog'))
        self.boot(self.machine.WDT_RESET)

    # --- commands (COMMANDS names them) ------------------------------------------------------

    def run(self, op, args):
        method = COMMANDS[op][1]
        if method is not None:
            getattr(self, method)(*args)
        if hasattr(self.out, 'flush'):
            self.out.flush()

    def tap(self, b):
        self.hold(b, TAP_MS)

    def hold(self, b, ms):
        self.press(b)
        self.scan()
        self.advance(ms)
        self.release(b)
        self.scan()
        self.advance(GAP_MS)

    def chord(self, b1, b2, ms):
        self.press(b1)
        self.press(b2)
        self.scan()
        self.advance(ms)
        self.release(b1)
        self.release(b2)
        self.scan()
        self.advance(GAP_MS)

    def scan(self):
        # tap, hold and chord press and release just before a loop pass, so the firmware sees
        # the key down for exactly MS ms: `hold RED 1200` is +1 at 600, 750, 900, 1050 and
        # 1200 ms, and `hold OK 2999` a long press, not a hold. (down and up are bare pin
        # changes: the next pass, up to LOOP_MS later, sees them.)
        self.app.step(self.now & 0x1FFFFFFF)

    def state(self):
        self.out.write(dumps(self.app.ctl.view) + '\n')

    # --- the optional parts: remotes, light, buzzer (DESIGN section 11) ----------------------

    def ir(self, code, ms=0):
        self.remote('ir', code, ms)

    def rf(self, code, ms=0):
        self.remote('rf', code, ms)

    def remote(self, kind, code, ms=0):
        """A press of a remote's key: the pulse train for `code` on the receiver's pin, the
        key held `ms` (repeat codes, repeated frames); then its release and the gap."""
        r = self.receivers.get(kind)
        if r is None:
            raise NoPart('this board has no %s receiver' % ('IR' if kind == 'ir' else 'RF'))
        if kind == 'ir':
            from scoreboard.remote.nec import NEC as decoder
        else:
            from scoreboard.remote.ev1527 import EV1527 as decoder
        end = r.press(code, self.now, ms)
        after = decoder.RELEASE_MS + GAP_MS
        self.touched = self.now
        self.remote_until = end + after
        self.advance(end - self.now)
        self.advance(after)
        self.touched = self.now

    def light(self, pct):
        """The room's light: the light sensor reads pct % (kept across a power cut)."""
        self.light_pct = pct
        adc = getattr(self.machine, 'ADC', None)
        pin = getattr(self.board, 'LIGHT', None)
        if adc is None or pin is None:
            return
        for a in adc.instances:
            if getattr(a.pin, 'id', None) == pin:
                a.set_percent(pct)

    def tones_played(self):
        """Every tone the buzzer played since the simulator started: (Hz, start ms, ms or
        None while it sounds)."""
        out = list(self._tones_old)
        pwm = getattr(self.machine, 'PWM', None)
        if pwm is not None:
            for p in pwm.instances:
                out += p.tones
        return out

    def tones(self):
        """Print the tones played (and ended) since the last `tones`: {"tones": [[Hz, ms],
        ...]}."""
        done = [t for t in self.tones_played() if t[2] is not None]
        new = done[self._tones_told:]
        self._tones_told = len(done)
        self.out.write(dumps({'tones': [[t[0], t[2]] for t in new]}) + '\n')

    def draw(self):
        for line in self.picture():
            self.out.write(line + '\n')
        self.out.write('.\n')

    def picture(self, colour=None):
        """The displays as their chips show them: terminal lines, one block per display
        (ANSI colour where the output is a terminal: --colour)."""
        return self.vboard.picture(self.colour if colour is None else colour)


def setup_path(root):
    """The virtual board's path (kept for callers of the old name): tools/paths.py's virtual()."""
    import paths
    paths.virtual(root)
