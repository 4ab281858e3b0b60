#!/usr/bin/env python3
"""A virtual MicroPython board on a pseudo-terminal: mpremote and `make deploy` with no hardware.

    python tools/vboard.py [--flash DIR] [--board NAME]

The first line on stdout is the device path (/dev/pts/N); then it runs until killed. Point
mpremote at it (`mpremote connect /dev/pts/N ...`) or deploy to it (`make deploy PORT=...`).

It speaks MicroPython's REPL as a board does: the friendly REPL (banner, `>>> `, line editing,
paste mode), the raw REPL (Ctrl-A, Ctrl-B, Ctrl-D to run, "OK" + output + \\x04 + traceback +
\\x04 + ">") with raw-paste flow control, Ctrl-C to interrupt running code, Ctrl-D soft reset.
The code runs in a persistent MicroPython unix-port process (tools/virtual/repl_agent.py) whose
filesystem root is the flash folder. A soft reset, machine.reset() or machine.soft_reset() starts
a fresh process that runs boot.py, then main.py (not after a soft reset in the raw REPL, as on a
board). This process does the terminal side; the agent runs the code.

The board's displays are virtual chips (tools/virtual), wired at boot from /board.py on the flash
before main.py starts. What the firmware shows can be read back while it runs:

    mpremote connect /dev/pts/N resume exec "import vboard_chips; print(vboard_chips.picture())"

VBOARD_DEBUG=1 in the environment traces the REPL traffic on stderr. VBOARD_CUT=FILE cuts the
power at a write: FILE holds how many more files may be opened for writing on the flash
(repl_agent.PowerCut); at the last one vboard exits at once, as a board whose power fails.

The board's watchdog (machine.WDT) is the RP2040's and lives here: the agent reports every start
and feed; a feed that is late resets the board (the link drops, main.py runs again,
reset_cause() says WDT_RESET); a soft reset does not stop it, a hard reset does.
"""
import argparse
import ctypes
import errno
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import tty

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIRTUAL = os.path.join(ROOT, 'tools', 'virtual')
AGENT = os.path.join(VIRTUAL, 'repl_agent.py')

FRAME = b'\x00\x04VB'
HEAD = len(FRAME) + 1 + 8
RAW_BANNER = b'raw REPL; CTRL-B to exit\r\n'
HELP_LINE = b'Type "help()" for more information.\r\n'
PASTE_BANNER = b'\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== '
SOFT_REBOOT = b'MPY: soft reboot\r\n'
PS1 = b'>>> '
WDT_RESET = 3               # machine.WDT_RESET
PS2 = b'... '
RAW_PASTE_WINDOW = 1024     # bytes the host may send before it must wait for \x01
SIGINT_GAP = 0.5            # s between two SIGINTs in one run: a second one before the first
                            # was handled makes the unix port exit
STALL = 2.0                 # s without the pty draining: nobody is reading, drop old output
HANG = 1.0                  # s stuck on a lock after an interrupt: restart the interpreter
OUT_KEEP = 16384            # bytes of output kept for a reader that is not there
COMPOUND = re.compile(r'(@|(if|while|for|try|with|def|class|async)(?![A-Za-z0-9_]))')
CTRL_RUN = re.compile(rb'[\x01-\x05]')  # the bytes the raw REPL acts on
PASTE_END = re.compile(rb'[\x03\x04]')  # the bytes that end raw-paste data


def find_micropython():
    for cand in (os.environ.get('VBOARD_MICROPYTHON'),
                 os.path.join(ROOT, '.venv', 'bin', 'micropython'),
                 shutil.which('micropython')):
        if cand and os.path.exists(cand):
            return cand
    raise SystemExit('vboard: no micropython binary (run `make venv`, or set VBOARD_MICROPYTHON)')


def continue_with_input(src):
    """True if the friendly REPL should ask for another line (MicroPython's rule, ported)."""
    if not src:
        return False
    n_open = 0
    quote = None
    i = 0
    while i < len(src):
        c = src[i]
        if quote is None:
            if c == '#':
                while i < len(src) and src[i] != '\n':
                    i += 1
            elif c in '\'"':
                quote = c * 3 if src.startswith(c * 3, i) else c
                i += len(quote) - 1
            elif c in '([{':
                n_open += 1
            elif c in ')]}':
                n_open -= 1
        elif c == '\\':
            i += 1
        elif src.startswith(quote, i):
            i += len(quote) - 1
            quote = None
        elif c == '\n' and len(quote) == 1:
            quote = None
        i += 1
    if quote is not None and len(quote) == 3:
        return True
    if n_open > 0:
        return True
    if src.endswith('\\'):
        return True
    return bool(COMPOUND.match(src)) and not src.endswith('\n')


def die_with_parent():
    """Runs in the child before exec: it gets SIGKILL when vboard goes, however vboard goes."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Child:
    """One run of the interpreter, from power-on (or soft reset) to its end."""

    def __init__(self, micropython, flash, board, run_main, cause=1, watchdog=None):
        # cause: what machine.reset_cause() says; watchdog: the timeout of a watchdog still
        # running from before a soft reset (it does not stop), else None
        args = [micropython, AGENT, flash, VIRTUAL, 'main' if run_main else 'nomain', board or '',
                str(cause), str(watchdog or 0)]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     bufsize=0, start_new_session=True,
                                     preexec_fn=die_with_parent)
        self.out = self.proc.stdout.fileno()
        self.buf = b''
        # SIGINT goes only where it lands in code being run: after K while booting, between A
        # and D for a request (see repl_agent.py). A Ctrl-C before that waits for it.
        self.armed = False
        self.sigint_pending = False
        self.last_sigint = 0.0
        self.rid = 0             # id of the request being run
        self.sigints = 0         # SIGINTs sent so far
        self.stuck_since = None  # when it was first seen waiting on a lock

    def send(self, kind, src):
        self.rid = (self.rid + 1) & 0xFFFF
        self.armed = False
        self.sigint_pending = False
        self.last_sigint = 0.0  # a new run: its first Ctrl-C goes through at once
        try:
            self.proc.stdin.write(kind + b'%04x%08x' % (self.rid, len(src)) + src + b'\xff')
        except (BrokenPipeError, OSError):
            pass  # it died: its end of output says so

    def arm(self):
        """The agent is in code that Ctrl-C may stop; returns what a waiting Ctrl-C did."""
        self.armed = True
        if self.sigint_pending:
            self.sigint_pending = False
            return self.interrupt()
        return None

    def interrupt(self):
        """Send SIGINT (Ctrl-C); returns what was done, for the debug trace."""
        if not self.armed:
            self.sigint_pending = True
            return 'pending'
        now = time.monotonic()
        if now - self.last_sigint < SIGINT_GAP:
            return 'skipped'
        self.last_sigint = now
        self.sigints += 1
        try:
            os.kill(self.proc.pid, signal.SIGINT)
        except ProcessLookupError:
            return 'gone'
        return 'sent'

    def hung(self):
        """True if the interpreter has been stuck on a lock for HANG seconds.

        An interrupt can leave the unix port deadlocked: a KeyboardInterrupt raised inside its
        own locked code leaves a mutex held, and the next wait on it never ends (seen about once
        in a few thousand interrupts). A single-threaded interpreter that waits on a futex for a
        second, in a process that was sent SIGINT, is taken for one in that state.
        """
        if not self.sigints:
            return False
        try:
            with open('/proc/%d/wchan' % self.proc.pid) as f:
                stuck = 'futex' in f.read()
        except OSError:
            stuck = False
        now = time.monotonic()
        if not stuck:
            self.stuck_since = None
            return False
        if self.stuck_since is None:
            self.stuck_since = now
        return now - self.stuck_since >= HANG

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()


class VBoard:
    def __init__(self, flash, board=None, micropython=None, log=sys.stderr):
        self.flash = os.path.abspath(flash)
        self.board = board
        self.micropython = micropython or find_micropython()
        self.log = log
        self.master, self.slave = os.openpty()
        # The slave end stays open here too: the pty lives while no client is connected, and a
        # client finds it in raw mode (no echo, no line editing, no newline translation).
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.mode = 'friendly'      # or 'raw'
        self.banner = b'MicroPython; Virtual board'
        self.inq = bytearray()      # received, not yet read by the REPL (the board's ring buffer)
        self.outq = bytearray()     # to send to the client
        self.last_drain = time.monotonic()
        self.line = bytearray()     # friendly: current line; raw: the code so far
        self.lines = []             # friendly: earlier lines of a compound statement
        self.paste = False          # friendly paste mode (Ctrl-E)
        self.escape = 0             # friendly: inside an escape sequence (arrow keys ...)
        self.rawpaste = None        # raw-paste: [window remaining] while receiving
        self.busy = False           # the interpreter is running something
        self.ctx = None             # what it runs: 'boot', 'raw' or 'friendly'
        self.child = None
        self.running = True
        self.debug = bool(os.environ.get('VBOARD_DEBUG'))
        # The RP2040's watchdog, kept here, outside the interpreter: the agent reports each
        # start and feed; not fed in time, the board resets. A soft reset does not stop it.
        self.wdt_timeout = None     # ms, while it runs
        self.fed_told = True        # the trace has said the first feed since the last start
        self.wdt_due = None         # time.monotonic() by which it must be fed
        self.watchdog_resets = 0
        self.start(run_main=True)

    # -- the interpreter process --------------------------------------------------------------

    def start(self, run_main, cause=1):
        if self.child is not None:
            self.child.stop()
        self.cause = cause
        self.child = Child(self.micropython, self.flash, self.board, run_main, cause,
                           self.wdt_timeout)
        self.busy = True
        self.ctx = 'boot'
        self.trace('start pid %d, %s', self.child.proc.pid, 'main' if run_main else 'nomain')

    def soft_reset(self):
        self.emit_raw(SOFT_REBOOT)
        self.reset_input_state()
        self.start(run_main=self.mode == 'friendly')

    def hard_reset(self, cause=1):
        # As a board: the link drops, what was received is gone, it boots into the friendly REPL.
        # The chip's reset stops the watchdog (the firmware starts it again).
        self.wdt_timeout = None
        self.wdt_due = None
        self.inq.clear()
        self.mode = 'friendly'
        self.reset_input_state()
        self.start(run_main=True, cause=cause)

    def watchdog_reset(self):
        late = (time.monotonic() - self.wdt_due) * 1000 + self.wdt_timeout
        print('vboard: watchdog reset (not fed for %d ms)' % late, file=self.log, flush=True)
        self.watchdog_resets += 1
        self.hard_reset(cause=WDT_RESET)

    def on_watchdog(self, kind, payload):
        now = time.monotonic()
        if kind == b'W':
            self.trace('watchdog start %s ms', payload.decode())
            self.fed_told = False
        elif not self.fed_told:
            self.trace('watchdog fed')          # the first feed since that start, only
            self.fed_told = True
        if kind == b'W' and self.wdt_timeout is None:
            self.wdt_timeout = int(payload)     # a second WDT() keeps the first timeout
        if self.wdt_timeout is not None:
            self.wdt_due = now + self.wdt_timeout / 1000

    def reset_input_state(self):
        self.line = bytearray()
        self.lines = []
        self.paste = False
        self.escape = 0
        self.rawpaste = None

    def trace(self, fmt, *args):
        if self.debug:
            print('vboard %.3f: %s' % (time.monotonic(), fmt % args), file=self.log, flush=True)

    def run_code(self, kind, src, ctx):
        self.trace('run %s %d bytes (%s)', kind, len(src), ctx)
        self.busy = True
        self.ctx = ctx
        self.child.send(kind, bytes(src))

    def on_child_output(self):
        child = self.child
        try:
            data = os.read(child.out, 65536)
        except OSError:
            data = b''
        if not data:
            rc = child.proc.wait()
            if self.ctx == 'boot' and child.sigints:
                # A Ctrl-C during boot.py or main.py stops them and leaves a board at its REPL,
                # the chip not reset (its watchdog runs on). The interpreter went down with the
                # interrupt here (seen now and then when it lands in the agent's own start-up):
                # it starts again without main.py, so the Ctrl-C still does what it does on a
                # board and the host that sent it (mpremote) gets its REPL.
                print('vboard: the interpreter stopped at a Ctrl-C during boot (exit code %s); '
                      'at the REPL, main.py not run' % rc, file=self.log, flush=True)
                self.start(run_main=False, cause=self.cause)
                return
            print('vboard: the interpreter stopped (exit code %s); resetting' % rc,
                  file=self.log, flush=True)
            self.hard_reset()
            return
        child.buf += data
        while child is self.child:
            buf = child.buf
            k = buf.find(FRAME)
            if k < 0:
                keep = 0  # a frame marker may be cut in two between reads
                for n in range(len(FRAME) - 1, 0, -1):
                    if buf.endswith(FRAME[:n]):
                        keep = n
                        break
                self.emit(buf[:len(buf) - keep])
                child.buf = buf[len(buf) - keep:]
                break
            if len(buf) < k + HEAD:
                self.emit(buf[:k])
                child.buf = buf[k:]
                break
            n = int(buf[k + len(FRAME) + 1:k + HEAD], 16)
            if len(buf) < k + HEAD + n:
                self.emit(buf[:k])
                child.buf = buf[k:]
                break
            self.emit(buf[:k])
            kind = buf[k + len(FRAME):k + len(FRAME) + 1]
            payload = buf[k + HEAD:k + HEAD + n]
            child.buf = buf[k + HEAD + n:]
            self.on_frame(kind, payload)
        self.process_input()

    def on_frame(self, kind, payload):
        if kind in (b'W', b'F'):    # the watchdog started, fed (from any thread)
            self.on_watchdog(kind, payload)
            return
        if kind == b'P':            # VBOARD_CUT: the power fails (repl_agent.PowerCut)
            print('vboard: power cut', file=self.log, flush=True)
            self.child.proc.kill()
            os._exit(0)
        self.trace('frame %s %d bytes, ctx %s', kind, len(payload), self.ctx)
        child = self.child
        if kind in (b'K', b'A'):
            if kind == b'K' and self.ctx not in ('boot', 'recover'):
                return
            if kind == b'A' and (payload != b'%04x' % child.rid or self.ctx == 'boot'):
                return
            done = child.arm()
            if done:
                self.trace('waiting Ctrl-C: %s', done)
            return
        if kind == b'B' and self.ctx == 'recover':
            # A fresh interpreter after a deadlock: back to the prompt of the mode we were in.
            self.busy = False
            self.ctx = None
            self.child.armed = False
            self.emit_raw(b'>' if self.mode == 'raw' else PS1)
            return
        if kind == b'B' and self.ctx != 'boot':
            return  # a repeat (an interrupt raced the agent's boot)
        if kind == b'D':
            if self.ctx not in ('raw', 'friendly') or payload[:4] != b'%04x' % child.rid:
                return  # a repeat, or for a request that is no longer waited for
            payload = payload[4:]
        child.armed = False
        ctx = self.ctx
        self.busy = False
        self.ctx = None
        if kind == b'B':
            self.banner = payload
            if self.mode == 'raw':
                self.emit_raw(RAW_BANNER + b'>')
            else:
                self.emit_raw(self.banner + b'\r\n' + HELP_LINE + PS1)
        elif kind == b'D':
            if ctx == 'raw':
                self.emit_raw(b'\x04' + cooked(payload) + b'\x04>')
            else:
                self.emit_raw(cooked(payload) + PS1)
        elif kind == b'S':  # SystemExit, machine.soft_reset()
            if ctx == 'raw':
                self.emit_raw(b'\x04\x04')
            self.soft_reset()
        elif kind == b'H':  # machine.reset()
            self.hard_reset()

    # -- the terminal side ---------------------------------------------------------------------

    def emit(self, data):
        """Output of the running code: newlines go out as \\r\\n, as a board's console does."""
        if data:
            self.emit_raw(cooked(data))

    def emit_raw(self, data):
        self.outq += data
        self.flush_out()

    def flush_out(self):
        while self.outq:
            try:
                n = os.write(self.master, self.outq)
            except BlockingIOError:
                n = 0
            except OSError as e:
                if e.errno != errno.EIO:
                    raise
                n = 0
            if n <= 0:
                break
            del self.outq[:n]
            self.last_drain = time.monotonic()
        if not self.outq:
            self.last_drain = time.monotonic()
        elif len(self.outq) > OUT_KEEP and time.monotonic() - self.last_drain > STALL:
            # Nobody has read for a while: drop what is stale, as a board with no host does.
            termios.tcflush(self.slave, termios.TCIFLUSH)
            del self.outq[:-OUT_KEEP // 4]

    def on_input(self):
        try:
            data = os.read(self.master, 65536)
        except (BlockingIOError, OSError):
            return
        for b in data:
            if self.busy and b == 3:
                # the interrupt character never reaches the buffer
                self.trace('Ctrl-C while busy (%s): %s', self.ctx, self.child.interrupt())
            else:
                self.inq.append(b)
        self.process_input()

    def process_input(self):
        i = 0
        inq = self.inq
        while i < len(inq) and not self.busy and self.running:
            if self.mode == 'raw':
                i = self.raw_input(inq, i)
            else:
                self.friendly_char(inq[i])
                i += 1
        del inq[:i]

    def raw_input(self, inq, i):
        """Consume raw REPL input from inq[i:]; returns the new index."""
        if self.rawpaste is not None:
            return self.raw_paste_input(inq, i)
        m = CTRL_RUN.search(inq, i)
        if m is None:
            self.line += inq[i:]
            return len(inq)
        j = m.start()
        self.line += inq[i:j]
        c = inq[j]
        if c == 1:  # Ctrl-A: raw REPL again, or the raw-paste request \x05 A \x01
            if len(self.line) == 2 and self.line[0] == 5:
                if self.line[1] == ord('A'):
                    self.emit_raw(b'R\x01' + struct.pack('<H', RAW_PASTE_WINDOW) + b'\x01')
                    self.rawpaste = [RAW_PASTE_WINDOW]
                else:
                    self.emit_raw(b'R\x00>')
                self.line = bytearray()
            else:
                self.line = bytearray()
                self.emit_raw(RAW_BANNER + b'>')
        elif c == 2:  # Ctrl-B: friendly REPL
            self.line = bytearray()
            self.mode = 'friendly'
            self.emit_raw(b'\r\n' + self.banner + b'\r\n' + HELP_LINE + PS1)
        elif c == 3:  # Ctrl-C: clear
            self.line = bytearray()
        elif c == 4:  # Ctrl-D: run, or soft reset on an empty buffer
            src = bytes(self.line)
            self.line = bytearray()
            self.emit_raw(b'OK')
            if not src:
                self.emit_raw(b'\r\n')
                self.soft_reset()
            else:
                self.run_code(b'E', src, 'raw')
        else:  # Ctrl-E is just data here (it starts the raw-paste request)
            self.line.append(c)
        return j + 1

    def raw_paste_input(self, inq, i):
        m = PASTE_END.search(inq, i)
        end = m.start() if m else len(inq)
        chunk = inq[i:end]
        self.line += chunk
        remain = self.rawpaste[0] - len(chunk)
        acks = 0
        while remain <= 0:
            remain += RAW_PASTE_WINDOW
            acks += 1
        self.rawpaste[0] = remain
        if acks:
            self.emit_raw(b'\x01' * acks)
        if end == len(inq):
            return end
        c = inq[end]
        src = bytes(self.line)
        self.line = bytearray()
        self.rawpaste = None
        self.emit_raw(b'\x04')  # end of data acknowledged
        if c == 3:
            self.emit_raw(b'\x04Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n'
                          b'\x04>')
        else:
            self.run_code(b'E', src, 'raw')
        return end + 1

    def friendly_char(self, c):
        if self.paste:
            if c == 3:
                self.paste = False
                self.line = bytearray()
                self.emit_raw(b'\r\n' + PS1)
            elif c == 4:
                self.paste = False
                src = bytes(self.line)
                self.line = bytearray()
                self.emit_raw(b'\r\n')
                self.run_code(b'E', src, 'friendly')
            else:
                self.line.append(c)
                self.emit_raw(b'\r\n=== ' if c == 13 else bytes([c]))
            return
        if self.escape:
            # ESC [ ... final byte: cursor keys and the like are read and ignored
            if self.escape == 1:
                self.escape = 2 if c in b'[O' else 0
            elif 0x40 <= c <= 0x7e:
                self.escape = 0
            return
        empty = not self.line
        if not self.lines and empty and c in (1, 2, 3, 4, 5):
            if c == 1:
                self.mode = 'raw'
                self.emit_raw(b'\r\n' + RAW_BANNER + b'>')
            elif c == 2:
                self.emit_raw(b'\r\n' + self.banner + b'\r\n' + HELP_LINE + PS1)
            elif c == 3:
                self.emit_raw(b'\r\n' + PS1)
            elif c == 4:
                self.emit_raw(b'\r\n')
                self.soft_reset()
            else:
                self.paste = True
                self.line = bytearray()
                self.emit_raw(PASTE_BANNER)
            return
        if c == 3:  # cancel the line (and a compound statement being entered)
            self.line = bytearray()
            self.lines = []
            self.emit_raw(b'\r\n' + PS1)
        elif c == 4 and self.lines and empty:  # stop entering a compound statement
            self.emit_raw(b'\r\n')
            self.friendly_run()
        elif c == 13:
            self.emit_raw(b'\r\n')
            if not self.lines and empty:
                self.emit_raw(PS1)
                return
            src = b'\n'.join(self.lines + [bytes(self.line)]).decode('utf-8', 'replace')
            if continue_with_input(src):
                self.lines.append(bytes(self.line))
                self.line = bytearray()
                self.emit_raw(PS2)
            else:
                self.friendly_run()
        elif c in (8, 127):
            if self.line:
                self.line.pop()
                self.emit_raw(b'\x08 \x08')
        elif c == 27:
            self.escape = 1
        elif c >= 32:
            self.line.append(c)
            self.emit_raw(bytes([c]))

    def friendly_run(self):
        src = b'\n'.join(self.lines + [bytes(self.line)])
        self.lines = []
        self.line = bytearray()
        self.run_code(b'I', src, 'friendly')

    # -- the loop ------------------------------------------------------------------------------

    def poll(self, timeout=0.5):
        if self.wdt_due is not None:
            timeout = max(0.0, min(timeout, self.wdt_due - time.monotonic()))
        rd = [self.master]
        if self.child is not None:
            rd.append(self.child.out)
        wr = [self.master] if self.outq else []
        r, w, _ = select.select(rd, wr, [], timeout)
        if self.master in r:
            self.on_input()
        if self.child is not None and self.child.out in r:
            self.on_child_output()
        if w or self.outq:
            self.flush_out()
        if self.busy and self.child is not None and self.child.hung():
            self.recover()
        if self.wdt_due is not None and time.monotonic() > self.wdt_due:
            self.watchdog_reset()

    def recover(self):
        """The interpreter deadlocked on Ctrl-C: answer as if the code stopped there, and go
        on with a fresh interpreter (its RAM is lost, as after a reset)."""
        print('vboard: the interpreter hung on Ctrl-C (a unix-port deadlock); restarting it',
              file=self.log, flush=True)
        ctx = self.ctx
        trace = b'Traceback (most recent call last):\r\nKeyboardInterrupt: \r\n'
        if ctx == 'raw':
            self.emit_raw(b'\x04' + trace + b'\x04')
        else:
            self.emit_raw(trace)
        self.start(run_main=False)
        self.ctx = 'boot' if ctx == 'boot' else 'recover'

    def serve_forever(self):
        while self.running:
            self.poll()

    def close(self):
        self.running = False
        if self.child is not None:
            self.child.stop()
            self.child = None
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Stopped(Exception):
    """SIGTERM, SIGINT or SIGHUP: vboard ends (raised from the handler to wake select)."""


def cooked(data):
    return bytes(data).replace(b'\n', b'\r\n')


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--flash', help='folder that is the board\'s flash (default: a new temp dir)')
    ap.add_argument('--board', help='board name, shown in the banner and passed to the agent')
    ap.add_argument('--micropython', help='the unix-port binary (default: .venv/bin/micropython)')
    args = ap.parse_args(argv)
    tmp = None
    flash = args.flash
    if flash is None:
        tmp = flash = tempfile.mkdtemp(prefix='vboard-flash-')
    os.makedirs(flash, exist_ok=True)
    board = VBoard(flash, args.board, args.micropython)

    def stop(signum, frame):
        raise Stopped()

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, stop)
    print(board.path, flush=True)
    print('vboard: flash %s; pid %d; Ctrl-C or SIGTERM stops it' % (board.flash, os.getpid()),
          file=sys.stderr, flush=True)
    try:
        board.serve_forever()
    except Stopped:
        pass
    finally:
        board.close()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
