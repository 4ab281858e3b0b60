# The interpreter inside the virtual board (tools/vboard.py). Runs under the MicroPython unix
# port, never on a device:
#
#   micropython repl_agent.py FLASH_DIR VIRTUAL_DIR main|nomain [BOARD]
#
# The flash folder becomes the filesystem root ('/'), as the board's internal flash is, so
# `:main.py` and `:scoreboard/x.mpy` from mpremote land in it. The host's stand-in modules
# (tools/virtual: machine, neopixel, ...) are served read-only under /.vboard, which is on sys.path
# but never listed, so a listing of the flash shows only what a real deploy wrote.
#
# The host (vboard.py) speaks MicroPython's REPL on the pty and asks this agent to run code:
#   request = kind (b'E' file input, b'I' single input) + 4 hex digits id + 8 hex digits length
#             + source + b'\xff' (never in UTF-8 text: it shows that the whole source is in)
#   reply   = whatever the code prints, then FRAME + kind + 8 hex digits length + payload:
#             b'K' first of all: Ctrl-C (SIGINT) may be sent during boot from now on
#             b'B' booted (payload: the banner)
#             b'A' request accepted (payload: its id): the user's code starts, Ctrl-C may come
#             b'D' request done (payload: id + the traceback, empty if none)
#             b'S' / b'H' soft / hard reset wanted (the agent exits after sending it)
#             b'W' the watchdog started (payload: its timeout in ms), b'F' it was fed: the
#                  host keeps the watchdog and resets the board when a feed is late
#
#   micropython repl_agent.py FLASH_DIR VIRTUAL_DIR main|nomain BOARD CAUSE WDT_MS
# also tells the agent what machine.reset_cause() says, and the timeout of a watchdog that still
# runs from before a soft reset (0: none).
#
# Ctrl-C reaches us as SIGINT, which the unix port turns into a KeyboardInterrupt at almost any
# bytecode. The host sends it only between A and D (or after K while booting), so it lands in the
# user's code, or, when it races the end of a run, in the agent just after. That late one must
# not lose or repeat anything: every step below can be run again after an interrupt (buffers
# show by their content how far they got), and a D sent twice is ignored by the host (its id).
import io
import os
import sys

import micropython
import vfs

FRAME = b'\x00\x04VB'
HIDDEN = '/.vboard'
AGENT = __file__.rsplit('/', 1)[-1]
DEBUG = bool(os.getenv('VBOARD_AGENT_DEBUG'))
KBD_TRACE = b'Traceback (most recent call last):\nKeyboardInterrupt: \n'


class PowerCut:
    """VBOARD_CUT=FILE: the power fails at a write. FILE (on the host) holds how many files may
    still be opened for writing on the flash; the open that finds it at 1 is the last thing the
    board does: the file is created (or emptied), the host is told (frame b'P') and the board
    is gone. The count is kept in FILE, so it runs on across soft resets (new agents)."""

    def __init__(self, path):
        d, _, name = path.rpartition('/')
        self.name = '/' + name
        self.fs = vfs.VfsPosix(d or '.')

    def tick(self):
        with self.fs.open(self.name, 'r') as f:
            left = int(f.read().strip() or '0')
        with self.fs.open(self.name, 'w') as f:
            f.write(str(left - 1))
        return left == 1


class RootFS:
    """The flash folder at '/', plus the host's stand-in modules at /.vboard (unlisted)."""

    def __init__(self, flash, virtual, cut=None):
        self.flash = vfs.VfsPosix(flash)
        self.virtual = vfs.VfsPosix(virtual)
        self.cut = PowerCut(cut) if cut else None

    def _pick(self, path):
        if path == HIDDEN or path.startswith(HIDDEN + '/'):
            return self.virtual, path[len(HIDDEN):] or '/'
        return self.flash, path

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def ilistdir(self, path):
        # (name, type, inode, size) as littlefs and FAT give it; VfsPosix leaves out the size.
        fs, p = self._pick(path)
        base = p if p.endswith('/') or not p else p + '/'
        for ent in fs.ilistdir(p):
            size = 0
            if ent[1] == 0x8000:
                size = fs.stat(base + ent[0])[6]
            yield (ent[0], ent[1], ent[2], size)

    def chdir(self, path):
        fs, p = self._pick(path)
        if fs is self.virtual:
            raise OSError(1)  # EPERM: the stand-ins are not part of the flash
        return fs.chdir(p)

    def getcwd(self):
        return self.flash.getcwd()

    def mkdir(self, path):
        fs, p = self._pick(path)
        return fs.mkdir(p)

    def remove(self, path):
        fs, p = self._pick(path)
        return fs.remove(p)

    def rmdir(self, path):
        fs, p = self._pick(path)
        return fs.rmdir(p)

    def rename(self, old, new):
        fs, a = self._pick(old)
        fs2, b = self._pick(new)
        if fs is not fs2:
            raise OSError(18)  # EXDEV
        return fs.rename(a, b)

    def stat(self, path):
        fs, p = self._pick(path)
        return fs.stat(p)

    def statvfs(self, path):
        fs, p = self._pick(path)
        return fs.statvfs(p)

    def open(self, path, mode):
        fs, p = self._pick(path)
        writing = 'w' in mode or 'a' in mode or '+' in mode
        if fs is self.virtual and writing:
            raise OSError(30)  # EROFS
        f = fs.open(p, mode)
        if writing and self.cut is not None and self.cut.tick():
            f.close()
            sys.stdout.buffer.write(FRAME + b'P' + b'%08x' % 0)
            import time
            while True:         # the power is gone: nothing more happens here
                time.sleep(1)
        return f


def attach_chips():
    """Wire the virtual chips of /board.py before the firmware starts (see vboard_chips.py)."""
    try:
        import vboard_chips
        vboard_chips.attach()
    except Exception as e:  # a board without chips still boots
        sys.stdout.write('vboard: no virtual display: %r\n' % (e,))


def banner(board):
    v = sys.implementation.version
    ver = 'v%d.%d.%d' % (v[0], v[1], v[2])
    if len(v) > 3 and v[3]:
        ver += '-' + v[3]
    name = 'Virtual board' + (' (%s)' % board if board else '')
    return 'MicroPython %s; %s with MicroPython unix port' % (ver, name)


def traceback_text(e):
    s = io.StringIO()
    sys.print_exception(e, s)
    # Drop the agent's own frames: the board shows only the user's code in a traceback.
    keep = [ln for ln in s.getvalue().split('\n')
            if not (ln.startswith('  File') and AGENT in ln)]
    return '\n'.join(keep).encode()


def reset_kind(e):
    """'H' or 'S' if exception e asks for a reset of the board, else None."""
    if isinstance(e, SystemExit):
        return 'S'
    if type(e).__name__ == 'Reset':  # machine.Reset from the stand-in machine module
        if e.args and 'soft' in str(e.args[0]):
            return 'S'
        return 'H'
    return None


class Agent:
    def __init__(self, board):
        self.out = sys.stdout.buffer
        self.inp = sys.stdin.buffer
        self.board = board
        self.globals = {'__name__': '__main__'}
        self.phase = 'header'
        self.head = bytearray(13)
        self.body = None
        self.reply = None   # (kind, payload) ready to send
        self.booted = 0
        self.announced = False
        self.kbd_pending = False
        self.chips_attached = False
        self.ready_sent = False

    def send(self, kind, payload):
        # One write call: the frame goes out whole or not at all.
        self.out.write(FRAME + kind.encode() + b'%08x' % len(payload) + payload)

    def run_file(self, name):
        """Run boot.py or main.py as the board does: its traceback goes to the console."""
        try:
            os.stat(name)
        except OSError:
            return None
        if self.kbd_pending:
            # Ctrl-C came before this file started (the board was still starting): it is the
            # file that stops, as on a board where the interrupt lands in its first line.
            self.kbd_pending = False
            self.out.write(KBD_TRACE)
            return None
        try:
            with open(name) as f:
                src = f.read()
            exec(compile(src, name, 'exec'), self.globals)
        except BaseException as e:  # noqa: B036 - the board survives anything its files do
            unlock_heap()
            kind = reset_kind(e)
            if kind:
                return kind
            self.out.write(traceback_text(e))
        return None

    def boot(self, run_main):
        if not self.ready_sent:
            self.ready_sent = True
            self.send('K', b'')  # the SIGINT handler is in place: the host may send Ctrl-C now
        if not self.chips_attached:
            self.chips_attached = True
            attach_chips()
        # Each step is marked done before it runs, so a retry after a stray interrupt goes on.
        todo = ['boot.py', 'main.py'] if run_main else ['boot.py']
        while self.booted < len(todo):
            name = todo[self.booted]
            self.booted += 1
            kind = self.run_file(name)
            if kind:
                self.send(kind, b'')
                sys.exit(0)
        text = banner(self.board).encode()
        if not self.announced:
            self.send('B', text)  # sent twice after an untimely interrupt: the host drops one
            self.announced = True

    def execute(self, kind, rid, src):
        try:
            self.send('A', rid)  # from here on the host may send Ctrl-C
            code = compile(src.decode(), '<stdin>', 'single' if kind == 'I' else 'exec')
            exec(code, self.globals)
        except BaseException as e:  # noqa: B036 - everything is reported, as the board does
            unlock_heap()
            rk = reset_kind(e)
            if rk:
                return rk, b''
            return 'D', rid + traceback_text(e)
        return 'D', rid

    def step(self):
        if DEBUG:
            sys.stderr.write('agent: step %s\n' % self.phase)
        if self.phase == 'header':
            if not self.head[0]:
                n = self.inp.readinto(self.head)  # all 13 bytes, or EOF
                if n < len(self.head):
                    sys.exit(0)  # the host went away
            size = int(bytes(self.head[5:13]), 16) + 1
            if self.body is None or len(self.body) != size:
                self.body = bytearray(size)
            self.phase = 'body'
        if self.phase == 'body':
            if self.body[-1] != 0xFF:
                n = self.inp.readinto(self.body)
                if n < len(self.body):
                    sys.exit(0)
            self.phase = 'run'
        if self.phase == 'run':
            self.phase = 'running'  # never run twice: an interrupt from here on is a Ctrl-C
            self.reply = self.execute(chr(self.head[0]), bytes(self.head[1:5]),
                                      bytes(memoryview(self.body)[:-1]))
            self.phase = 'send'
        if self.phase == 'send':
            kind, payload = self.reply
            self.send(kind, payload)
            if kind in ('S', 'H'):
                sys.exit(0)
            self.body = None
            self.head = bytearray(13)
            self.phase = 'header'

    def serve(self):
        while True:
            try:
                self.step()
            except KeyboardInterrupt:
                # A Ctrl-C that raced the end of a run: it landed in the agent, not the code.
                unlock_heap()
                if DEBUG:
                    sys.stderr.write('agent: interrupted in %s\n' % self.phase)
                if self.phase == 'running':
                    self.reply = ('D', bytes(self.head[1:5]) + KBD_TRACE)
                    self.phase = 'send'


def unlock_heap():
    """An interrupt inside the GC can leave the heap locked; a board's REPL unlocks it too."""
    micropython.heap_lock()  # depth + 1 >= 1, then down to 0 (unlocking at 0 would wrap)
    while micropython.heap_unlock():
        pass


FEED_FRAME = FRAME + b'F' + b'%08x' % 0


def watch(cause, wdt_ms):
    """The stand-in machine module as the chip left it, reporting its watchdog to the host;
    machine.Timer callbacks run in a thread of their own, as the chip's timer IRQ does."""
    import machine
    machine.set_reset_cause(cause)
    out = sys.stdout.buffer

    def on_watchdog(w, started):
        if started:
            t = b'%d' % w.timeout
            out.write(FRAME + b'W' + b'%08x' % len(t) + t)
        else:
            out.write(FEED_FRAME)

    machine.on_watchdog = on_watchdog
    if wdt_ms:
        w = machine.watchdog()
        w.timeout = wdt_ms          # still running: a soft reset does not stop it
        w.fed_at = machine.now_ms()
    running = []

    def on_timer(t):
        if running:
            return
        running.append(1)
        import _thread
        _thread.start_new_thread(_timers, (machine,))

    machine.on_timer = on_timer


def _timers(machine):
    import time
    while True:
        time.sleep_ms(10)
        try:
            machine.run_timers()
        except Exception as e:  # a callback's fault, as a board prints it
            sys.print_exception(e)


def main():
    flash, virtual, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    board = sys.argv[4] if len(sys.argv) > 4 else ''
    cause = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    wdt_ms = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    vfs.umount('/')
    vfs.mount(RootFS(flash, virtual, os.getenv('VBOARD_CUT')), '/')
    os.chdir('/')
    sys.path[:] = ['', '.frozen', '/lib', HIDDEN]
    sys.argv[:] = []
    watch(cause, wdt_ms)
    agent = Agent(board)
    booted = False
    while True:
        try:
            if not booted:
                agent.boot(mode == 'main')
                booted = True
            agent.serve()
        except KeyboardInterrupt:
            # A Ctrl-C that landed in the agent itself, not in the user's code. While booting it
            # still stops the next file (main.py).
            unlock_heap()
            if not booted:
                agent.kbd_pending = True


main()
