#!/usr/bin/env python3
"""The real-time simulator of a Wi-Fi board: the firmware's network runner on a virtual board,
serving the phone remote's HTTP API (DESIGN section 10) on the host's sockets.

  tools/net_sim.py --board NAME --http HOST:PORT [--headless] [--flash DIR] [--cpython]

--headless draws nothing and prints the view model as one JSON line at every change (the PIN
included, so a test can read it); without it the displays are drawn in this terminal and the
keys of `make sim` are the buttons. Lines on standard input are press-script commands run in
real time (`tap B`, `hold B MS`, `chord B1 B2 MS`, `down B`, `up B`, `state`, `draw`, `quit`).
The board's net.json is read from the virtual flash (`--flash DIR` keeps it as DIR/net.json);
the stand-in network joins at once, and without an `ssid` the board opens its access point.
The firmware runs under the MicroPython unix port unless --cpython.
"""
import sys

import paths


def _runner_class():
    from scoreboard.app import App
    from scoreboard.net.run import Runner

    class SimRunner(Runner):
        """The Runner on the virtual board: the chips listen before the drivers talk, as in
        the press-script simulator (tools/sim_engine.py)."""

        def __init__(self, board, flash, network=None, host='127.0.0.1', port=8080, log=None,
                     clock=None):
            from scoreboard.store import Store
            self.chips = []
            self.bind_error = None
            Runner.__init__(self, board, Store(flash), flash, clock=clock, network=network,
                            host=host, port=port, log=log, make=App)

        async def serve(self):
            # On the host a port in use is the user's to fix, not something to retry every 2 s:
            # one clear error and the simulator ends (a board retries: its address may come).
            from microdot import Microdot  # noqa: F401  (the server's module, as Runner uses)
            from scoreboard.net.web import make_app
            self.server = make_app(self)
            try:
                await self.server.start_server(host=self.host, port=self.port)
            except OSError as e:
                if getattr(e, 'errno', None) == 98 or 'ADDRINUSE' in str(e):
                    self.bind_error = 'port %d on %s is in use (another simulator or ' \
                        'server?): choose another with HTTP=PORT' % (self.port, self.host)
                else:
                    self.bind_error = 'cannot serve on %s:%d: %s' % (self.host, self.port, e)
                self.log('net_sim: ' + self.bind_error)

        def boot(self):
            import gc

            import machine
            from virtual_board import VirtualBoard
            machine.reset_all()
            # The chips come from the board file's wiring(), as in the press-script simulator,
            # never from the drivers they check.
            self.chips = VirtualBoard(self.board).groups
            if sys.implementation.name == 'micropython':
                gc.collect()
            Runner.boot(self)

    return SimRunner


if __name__ != '__main__' or sys.implementation.name == 'micropython' or '--engine' in sys.argv:
    paths.net()
    SimRunner = _runner_class()


# --- the engine (the firmware's side; MicroPython by default) ---------------------------------

class Engine:
    def __init__(self, board, flash, host, port, headless, out=None):
        import network
        self.board = board
        self.host = host
        self.port = port
        self.headless = headless
        self.out = out or sys.stdout
        self.runner = SimRunner(board, flash, network=network, host=host, port=port,
                                log=self.note)
        self.held = {}
        self.done = False
        self.failed = False
        self.board_name = getattr(board, '__name__', 'board')
        self._last = None

    def note(self, text):
        sys.stderr.write(text + '\n')

    def show(self):
        import sim_engine
        ctl = self.runner.app.ctl
        line = sim_engine.dumps(ctl.view)
        if self.headless:
            if line == self._last:
                return
            self._last = line
            self.out.write(line + '\n')
        else:
            # What the chips show (the lamp test ending, a blink) changes without the view.
            pic = '\n'.join(self.picture())
            if line + pic == self._last:
                return
            self._last = line + pic
            host = '127.0.0.1' if self.host in ('0.0.0.0', '') else self.host
            head = 'Wi-Fi board %s (virtual): the phone remote at http://%s:%d/' % (
                self.board_name, host, self.port)
            keys = _env('SCOREBOARD_SIM_KEYS') or 'q: quit'
            self.out.write('\x1b[H\x1b[2J' + head + '\n\n' + pic + '\n\n' + line + '\n\n' +
                           keys + '\n')
        if hasattr(self.out, 'flush'):
            self.out.flush()

    def picture(self):
        from draw_board import picture     # the displays as their chips show them
        return picture(self.runner.chips, not self.headless)

    async def watch(self):
        from scoreboard.aio import sleep_ms
        ver = None
        beat = 0
        while not self.done:
            ctl = self.runner.app.ctl
            beat += 1
            if ctl.version != ver or (not self.headless and beat >= 10):
                ver = ctl.version
                beat = 0
                self.show()
            if self.runner.bind_error:
                self.done = True
                self.failed = True
            await sleep_ms(5)

    async def press(self, names, ms):
        import machine
        from scoreboard.aio import sleep_ms
        for n in names:
            machine.drive(self.board.BUTTONS[n], 0)
        await sleep_ms(ms)
        for n in names:
            machine.drive(self.board.BUTTONS[n], None)
        await sleep_ms(300)

    async def command(self, line):
        import machine
        import sim_engine
        try:
            prog = sim_engine.parse([line], self.board.BUTTONS)
        except sim_engine.ScriptError as e:
            self.out.write('error: %s\n' % e)
            return
        for _, op, args in prog:
            if op == 'quit':
                self.done = True
            elif op == 'tap':
                await self.press(args, 80)
            elif op == 'hold':
                await self.press(args[:1], args[1])
            elif op == 'chord':
                await self.press(args[:2], args[2])
            elif op == 'down':
                machine.drive(self.board.BUTTONS[args[0]], 0)
            elif op == 'up':
                machine.drive(self.board.BUTTONS[args[0]], None)
            elif op == 'wait':
                from scoreboard.aio import sleep_ms
                await sleep_ms(args[0])
            elif op == 'state':
                self.out.write(sim_engine.dumps(self.runner.app.ctl.view) + '\n')
            elif op == 'draw':
                self.out.write('\n'.join(self.picture()) + '\n.\n')
            elif op == 'power-cut':
                self.runner.boot()
            if hasattr(self.out, 'flush'):
                self.out.flush()

    async def stdin(self):
        import select

        from scoreboard.aio import sleep_ms
        p = select.poll()
        p.register(sys.stdin, select.POLLIN)
        while not self.done:
            if p.poll(0):
                line = sys.stdin.readline()
                if not line:
                    return            # no more input: the board runs on
                await self.command(line)
            else:
                await sleep_ms(20)

    async def main(self):
        import asyncio

        from scoreboard.aio import sleep_ms
        self.runner.start()
        asyncio.create_task(self.watch())
        asyncio.create_task(self.stdin())
        while not self.done:
            await sleep_ms(50)
        self.runner.stop()


def parse_args(argv):
    opts = {'board': 'wlan_tm1637', 'flash': None, 'http': '127.0.0.1:8080', 'headless': False,
            'cpython': False, 'root': None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ('--board', '--flash', '--http', '--root'):
            if i + 1 >= len(argv):
                raise ValueError('%s needs a value' % a)
            opts[a[2:]] = argv[i + 1]
            i += 2
            continue
        if a in ('--headless', '--cpython'):
            opts[a[2:]] = True
        else:
            raise ValueError('unknown argument %s' % a)
        i += 1
    host, _, port = opts['http'].rpartition(':')
    if not host or not port.isdigit():
        raise ValueError('--http takes HOST:PORT')
    opts['host'] = host
    opts['port'] = int(port)
    return opts


def load_board(name):
    if '/' in name:
        name = paths.board_file(name)
    else:
        paths.behind(paths.FIXTURES)   # the Wi-Fi test boards
    return __import__(name)


def engine_main(argv):
    try:
        o = parse_args(argv)
    except ValueError as e:
        sys.stderr.write('net_sim: %s\n' % e)
        return 2
    if o['flash'] is None:
        sys.stderr.write('net_sim: --flash DIR is required\n')
        return 2
    try:
        board = load_board(o['board'])
    except ImportError:
        sys.stderr.write('net_sim: unknown board %s\n' % o['board'])
        return 2
    if getattr(board, 'NETWORK', None) != 'wlan':
        sys.stderr.write("net_sim: board %s has no Wi-Fi (its file has no NETWORK = 'wlan')\n"
                         % o['board'])
        return 2
    import asyncio
    import scoreboard
    scoreboard.prepare_heap()
    eng = Engine(board, o['flash'], o['host'], o['port'], o['headless'])
    try:
        asyncio.run(eng.main())
    except KeyboardInterrupt:
        pass
    return 1 if eng.failed else 0


def _env(name):
    try:
        import os
        return os.getenv(name)
    except (ImportError, AttributeError):
        return None


# --- the front end (CPython): start the engine, pass the keys ----------------------------------

def front_main(argv):
    import os
    import shutil
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        o = parse_args(argv)
    except ValueError as e:
        print('net_sim: %s' % e, file=sys.stderr)
        return 2
    tmp = None
    flash = o['flash']
    if flash is None:
        tmp = flash = tempfile.mkdtemp(prefix='scoreboard-flash-')
    else:
        os.makedirs(flash, exist_ok=True)
        flash = os.path.abspath(flash)
    args = list(argv)
    if o['flash'] is None:
        args += ['--flash', flash]
    else:
        args[args.index('--flash') + 1] = flash
    board = o['board']
    if board.endswith('.py') and os.path.isfile(board):
        args[args.index('--board') + 1] = os.path.abspath(board)
    problem = port_problem(o['host'], o['port'])
    if problem:
        print('net_sim: ' + problem, file=sys.stderr)
        return 2
    mp = os.environ.get('MICROPYTHON', os.path.join(root, '.venv', 'bin', 'micropython'))
    if not os.path.exists(mp):
        mp = shutil.which('micropython')
    cmd = ([mp] if mp and not o['cpython'] else [sys.executable]) + [os.path.abspath(__file__)]
    cmd += [a for a in args if a != '--cpython'] + ['--engine']
    try:
        if o['headless'] or not sys.stdin.isatty():
            proc = child(cmd)
            try:
                return proc.wait()
            finally:
                stop_child(proc)
        return interactive(cmd)
    except KeyboardInterrupt:
        return 0
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def port_problem(host, port):
    """Why the simulator cannot serve on host:port (in use, or not an address here), or None."""
    import errno
    import socket
    s = socket.socket(socket.AF_INET6 if ':' in host else socket.AF_INET)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as the server's own
        s.bind((host, port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return ('port %d on %s is in use (another simulator or server?): choose another '
                    'with HTTP=PORT' % (port, host))
        return 'cannot serve on %s:%d: %s' % (host, port, e.strerror or e)
    finally:
        s.close()
    return None


def _die_with_parent():
    # In the child, before the exec: the kernel sends it SIGTERM when the front end dies, also
    # by SIGKILL, so no engine is left serving the port (Linux; elsewhere stop_child does it).
    try:
        import ctypes
        import signal
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError, ImportError):
        pass


def child(cmd, **kw):
    """The engine as a child process that never outlives this one."""
    import signal
    import subprocess
    proc = subprocess.Popen(cmd, preexec_fn=_die_with_parent, **kw)

    def ended(signum, frame):
        raise SystemExit(128 + signum)          # the finally blocks stop the child
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            signal.signal(sig, ended)
        except (ValueError, OSError):
            pass
    return proc


def stop_child(proc):
    import subprocess
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=3)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def interactive(cmd):
    import os
    import select
    import subprocess
    import termios
    import tty
    from sim import HELP, KEYS
    os.environ['SCOREBOARD_SIM_KEYS'] = HELP
    proc = child(cmd, stdin=subprocess.PIPE, text=True, bufsize=1)
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        sys.stderr.write(HELP + '\n')
        while proc.poll() is None:
            ready, _, _ = select.select([sys.stdin], [], [], 0.2)
            if not ready:
                continue
            ch = sys.stdin.read(1)
            if ch in ('q', '\x03', '\x04'):
                break
            if ch in KEYS:
                proc.stdin.write(KEYS[ch] + '\n')
                proc.stdin.flush()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        try:
            proc.stdin.write('quit\n')
            proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        stop_child(proc)
    return proc.returncode or 0


if __name__ == '__main__':
    if '--engine' in sys.argv or sys.implementation.name == 'micropython':
        sys.exit(engine_main([a for a in sys.argv[1:] if a != '--engine']))
    sys.exit(front_main(sys.argv[1:]))
