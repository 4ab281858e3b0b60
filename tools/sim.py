#!/usr/bin/env python3
"""The scoreboard simulator: the real firmware on a virtual board.

  tools/sim.py                      interactive, in the terminal (what `make sim` runs)
  tools/sim.py --script FILE        run a press script on virtual time; one JSON line per `state`
  tools/sim.py --board NAME --http HOST:PORT [--headless]
                                    a Wi-Fi board (NETWORK = 'wlan') serving the phone remote
  options: --board NAME (a file in boards/), --flash DIR (keep the virtual flash there; default
           a fresh, empty one), --cpython (run the firmware under CPython instead of the
           MicroPython unix port)

With --http (DESIGN section 10) the firmware's network runner serves the HTTP API and the page
of the phone remote on the host's sockets in real time (tools/net_sim.py): open
http://HOST:PORT/ in a browser. A bare PORT listens on every address (0.0.0.0:PORT), so a phone
on the same network reaches it too. --headless draws nothing and prints the view model as one
JSON line at every change (the pairing PIN included); lines on standard input are press-script
commands. The board reads net.json from its virtual flash (--flash DIR keeps it as
DIR/net.json: `ssid`, `password`, `hostname`, and `mqtt` {host, port, user, password, venue,
table} for the venue's broker); the stand-in network joins at once, and without an `ssid` the
board opens its access point page.

The firmware runs in tools/sim_cli.py (the virtual board of tools/sim_engine.py) under
MicroPython; this front end only starts it, passes the script, and in interactive mode turns
keys into presses and draws what the virtual chips show.
"""
import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import termios
import time
import tty

import paths

paths.setup()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MICROPYTHON = os.environ.get('MICROPYTHON', os.path.join(ROOT, '.venv', 'bin', 'micropython'))
DEFAULT_BOARD = 'pico_tm1637'



def gesture_ms():
    """(long, hold, chord) thresholds in ms, from the firmware's gestures (DESIGN section 4's
    600, 3000 and 1000 where that module cannot be read)."""
    try:
        from scoreboard.ui.gestures import Gestures
        return Gestures.LONG_MS, Gestures.HOLD_MS, Gestures.CHORD_MS
    except (ImportError, AttributeError):
        return 600, 3000, 1000


LONG_MS, HOLD_MS, CHORD_MS = gesture_ms()
HELP = ('r/b: tap RED/BLUE   R/B: hold RED/BLUE 1 s   space/enter: tap OK   l: long OK   '
        'm: hold OK (menu)   c: chord (redo)   -/=: RED-/BLUE-   p: power cut   q: quit')
# Each key a press-script line: a long press is held a little past LONG_MS, a hold past HOLD_MS
# and a chord past CHORD_MS, so that the gesture is sure whatever the loop's step.
KEYS = {
    'r': 'tap RED', 'b': 'tap BLUE', ' ': 'tap OK', '\r': 'tap OK', '\n': 'tap OK',
    'R': 'hold RED 1000', 'B': 'hold BLUE 1000', 'l': 'hold OK %d' % (LONG_MS + 400),
    'm': 'hold OK %d' % (HOLD_MS + 200), 'c': 'chord RED BLUE %d' % (CHORD_MS + 200),
    '-': 'tap RED_MINUS', '=': 'tap BLUE_MINUS', 'p': 'power-cut',
}


def summary(line):
    """One line for people from the engine's JSON view: what the screen means, in words."""
    try:
        v = json.loads(line)
    except ValueError:
        return line
    screen = v.get('screen')
    words = [str(screen), str(v.get('game'))]
    if screen == 'menu' and v.get('menu'):
        words.append('%s = %s' % (v['menu'].get('item'), v['menu'].get('value')))
    elif screen != 'sleep':
        pending = v.get('pending') or {}
        for side in ('red', 'blue'):
            p = pending.get(side)
            words.append('%s %s%s' % (side, v.get(side), ' (+%d)' % p if p else ''))
        if v.get('target') is not None:
            words.append('to %s' % v['target'])
        if v.get('hammer'):
            words.append('hammer %s' % v['hammer'])
        if v.get('turn'):
            words.append('%s to shoot' % v['turn'])
        words.append('frame %s, end %s' % (v.get('frame'), v.get('end')))
        if 'cursor' in v:
            words.append('cursor %s' % v['cursor'])
        if v.get('winner'):
            words.append('%s wins' % v['winner'])
    games, legs = v.get('games') or {}, v.get('legs') or {}
    words.append('games %s-%s' % (games.get('red'), games.get('blue')))
    if legs.get('red') or legs.get('blue'):
        words.append('legs %s-%s' % (legs.get('red'), legs.get('blue')))
    if v.get('message'):
        words.append('"%s"' % v['message'])
    return ' | '.join(words)


def micropython_binary():
    """The MicroPython unix port: the project's pinned one, else one on PATH, else None."""
    if os.path.exists(MICROPYTHON):
        return MICROPYTHON
    return shutil.which('micropython')


def engine_cmd(args, flash, extra):
    eng = os.path.join(ROOT, 'tools', 'sim_cli.py')
    base = ['--root', ROOT, '--board', args.board, '--flash', flash] + extra
    if extra[:1] == ['--stdin'] or sys.stdout.isatty():
        base.append('--colour')         # `draw` colours only what a terminal shows
    mp = None if args.cpython else micropython_binary()
    if mp is None:
        if not args.cpython:
            print('sim: no MicroPython unix port yet (`make test` or `make sim` installs it into '
                  '.venv); running the firmware under CPython', file=sys.stderr)
        return [sys.executable, eng] + base
    return [mp, eng] + base


def known_boards():
    return sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, 'boards'))
                  if n.endswith('.py') and not n.startswith('_'))


def run_script(args, flash):
    if args.script != '-':
        return subprocess.run(engine_cmd(args, flash, ['--script', os.path.abspath(
            args.script)])).returncode
    # A script on standard input: the engine checks a script whole before it runs it, so it
    # reads a file; the pipe is copied into a temporary one, in pieces.
    with tempfile.NamedTemporaryFile(prefix='scoreboard-script-', delete=False) as f:
        shutil.copyfileobj(sys.stdin.buffer, f)
    try:
        return subprocess.run(engine_cmd(args, flash, ['--script', f.name, '--name',
                                                       '<stdin>'])).returncode
    finally:
        os.remove(f.name)


def interactive(args, flash):
    if not sys.stdin.isatty():
        print('make sim needs a terminal; for scripts use tools/sim.py --script FILE',
              file=sys.stderr)
        return 2
    proc = subprocess.Popen(engine_cmd(args, flash, ['--stdin']), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(cmd):
        proc.stdin.write(cmd + '\n')
        proc.stdin.flush()

    def picture():
        ask('draw')
        lines = []
        while True:
            line = proc.stdout.readline()
            if not line or line == '.\n':
                return lines
            lines.append(line.rstrip('\n'))

    def view():
        ask('state')
        return proc.stdout.readline().strip()

    def tone(last):
        # The buzzer's last tone (boards with a BUZZER): 'tone: 1319 Hz, 80 ms'.
        ask('tones')
        try:
            played = json.loads(proc.stdout.readline()).get('tones') or []
        except ValueError:
            played = []
        if played:
            return 'tone: %s Hz, %s ms' % (played[-1][0], played[-1][1])
        return last

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setcbreak(fd)
        out.write('\x1b[?25l\x1b[2J')
        last = time.monotonic()
        note = ''
        heard = ''
        while proc.poll() is None:
            # Virtual time follows the wall clock between key presses.
            now = time.monotonic()
            ask('wait %d' % int((now - last) * 1000))
            last = now
            out.write('\x1b[H')
            out.write('Shuffleboard scoreboard: board %s (virtual)\x1b[K\n\x1b[K\n' % args.board)
            for line in picture():
                out.write(line + '\x1b[K\n')
            out.write('\x1b[K\n' + summary(view()) + '\x1b[K\n')
            heard = tone(heard)
            out.write(heard + '\x1b[K\n')
            out.write('\x1b[K\n' + HELP + '\x1b[K\n' + note + '\x1b[K\n\x1b[J')
            out.flush()
            ready, _, _ = select.select([sys.stdin], [], [], 0.1)
            if not ready:
                continue
            ch = sys.stdin.read(1)
            if ch in ('q', '\x03', '\x04'):
                break
            cmd = KEYS.get(ch)
            if cmd:
                note = '> ' + cmd
                ask(cmd)
                last = time.monotonic()   # the press itself took its virtual time
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write('\x1b[?25h\n')
        try:
            ask('quit')
        except (BrokenPipeError, ValueError):
            pass
        proc.wait(timeout=5)
    return 0


# What each press-script command does, for --help (the commands and their arguments come from
# the engine's table, sim_engine.COMMANDS).
WHAT = {
    'tap': 'press B for 80 ms, then 300 ms with nothing pressed',
    'hold': 'press B for MS, then the 300 ms gap',
    'chord': 'press B1 and B2 together for MS, then the gap',
    'down': 'press B (no time passes)',
    'up': 'release B',
    'wait': 'let MS of virtual time pass',
    'power-cut': 'RAM is lost; the firmware boots again from the virtual flash',
    'state': 'print the view model as one JSON line',
    'draw': 'print the displays as the virtual chips show them, then a line "."',
    'ir': 'the IR remote sends CODE (hex, 0x optional) as a real NEC pulse train; with MS the '
          'key is held MS (repeat codes); then its release and the 300 ms gap',
    'rf': 'the 433 MHz keyfob sends CODE (EV1527, hex) for MS (at least 4 frames); two data '
          'bits set: two fob keys at once',
    'light': 'the light sensor reads PCT % (brightness auto follows it)',
    'tones': 'print the tones the buzzer played since the last tones, {"tones": [[Hz, ms], ...]}',
    'quit': 'end the script here',
}
ARG_NAMES = {'b': 'B', 'm': 'MS', 'c': 'CODE', 'p': 'PCT'}


def script_help():
    """The press-script commands, from the engine's own table."""
    import sim_engine
    lines = ['press-script commands (B: RED, BLUE, OK, RED_MINUS, BLUE_MINUS; MS: '
             'milliseconds; CODE: a remote code in hex; PCT: 0..100; [ ]: optional; # starts a '
             'comment):']
    for name in sorted(sim_engine.COMMANDS):
        shape = sim_engine.COMMANDS[name][0]
        kinds = shape.replace('?', '')
        need = len(shape.split('?')[0])
        args = [ARG_NAMES.get(k, k.upper()) for k in kinds]
        if kinds.count('b') > 1:
            args = ['B%d' % (i + 1) if a == 'B' else a for i, a in enumerate(args)]
        args = [a if i < need else '[%s]' % a for i, a in enumerate(args)]
        usage = ' '.join([name] + args)
        lines.append('  %-16s %s' % (usage, WHAT.get(name, '')))
    return '\n'.join(lines)


def board_network(board):
    """The board file's NETWORK ('wlan' on a Wi-Fi board), read without importing it."""
    import ast
    path = board if board.endswith('.py') else os.path.join(ROOT, 'boards', board + '.py')
    try:
        with open(path) as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, 'id', None) == 'NETWORK'
                                                for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None


def serve_http(args):
    """--http: the Wi-Fi board's runner, in tools/net_sim.py (which takes the same arguments)."""
    http = args.http
    if http.isdigit():
        http = '0.0.0.0:' + http
    if board_network(args.board) != 'wlan':
        wifi = [b for b in known_boards() if board_network(b) == 'wlan']
        print('sim: board %s has no Wi-Fi (its file has no NETWORK = \'wlan\'), so it serves '
              'no phone remote; boards with Wi-Fi: %s' % (args.board, ', '.join(wifi)),
              file=sys.stderr)
        return 2
    host, _, port = http.rpartition(':')
    if not port.isdigit():
        print('sim: HTTP takes PORT or HOST:PORT', file=sys.stderr)
        return 2
    import net_sim
    problem = net_sim.port_problem(host or '0.0.0.0', int(port))
    if problem:
        print('sim: ' + problem, file=sys.stderr)
        return 2
    board = args.board
    if board.endswith('.py') and os.path.isfile(board):
        board = os.path.abspath(board)
    argv = ['--board', board, '--http', http]
    if args.headless:
        argv.append('--headless')
    if args.flash:
        argv += ['--flash', args.flash]
    if args.cpython:
        argv.append('--cpython')
    if not args.headless:
        shown = '127.0.0.1' if host in ('0.0.0.0', '') else host
        print('sim: the phone remote of board %s at http://%s:%s/' % (args.board, shown, port),
              file=sys.stderr)
    return net_sim.front_main(argv)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, epilog=script_help(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--script', help='press script to run on virtual time (- reads it from '
                   'standard input)')
    p.add_argument('--board', default=os.environ.get('BOARD') or DEFAULT_BOARD)
    p.add_argument('--flash', help='folder that keeps the virtual flash between runs')
    p.add_argument('--cpython', action='store_true', help='run the firmware under CPython')
    p.add_argument('--http', metavar='HOST:PORT',
                   help="a Wi-Fi board's phone remote on HOST:PORT (a bare PORT: 0.0.0.0:PORT)")
    p.add_argument('--headless', action='store_true',
                   help='with --http: draw nothing, print the view model as JSON at every change')
    p.add_argument('--list-boards', action='store_true')
    args = p.parse_args(argv)
    boards = known_boards()
    if args.headless and not args.http:
        p.error('--headless goes with --http')
    if args.http:
        if args.script:
            p.error('--script runs on virtual time; --http runs in real time (pass press-script '
                    'lines on standard input instead)')
        if args.board not in boards and not (args.board.endswith('.py')
                                             and os.path.isfile(args.board)):
            print('unknown board %r; known boards: %s' % (args.board, ', '.join(boards)),
                  file=sys.stderr)
            return 2
        return serve_http(args)
    if args.list_boards:
        print('\n'.join(boards))
        return 0
    if args.board.endswith('.py') and os.path.isfile(args.board):
        args.board = os.path.abspath(args.board)     # a board file outside boards/
    elif args.board not in boards:
        print('unknown board %r; known boards: %s' % (args.board, ', '.join(boards)),
              file=sys.stderr)
        return 2
    if args.script and args.script != '-' and not os.path.isfile(args.script):
        print('no such script: %s' % args.script, file=sys.stderr)
        return 2
    tmp = None
    flash = args.flash
    if flash is None:
        tmp = flash = tempfile.mkdtemp(prefix='scoreboard-flash-')
    else:
        os.makedirs(flash, exist_ok=True)
        flash = os.path.abspath(flash)
    try:
        if args.script:
            return run_script(args, flash)
        return interactive(args, flash)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
