# A stand-in for MicroPython's `rp2` module on the virtual board (host only): `asm_pio`
# assembles the program as the real one runs it (the instruction names put in the function's
# globals for the call), and `StateMachine` runs it. At init the state machine executes the
# program, cycle by cycle, on two test bytes and decodes the pin's waveform with the WS2812
# datasheet's timing (a 0 is high 0.2-0.55 us, a 1 high 0.6-1.0 us, a bit 0.65-1.85 us); a
# program that makes no such waveform sends nothing to the chips (`sm.error` says why).
# `put(value, shift)` takes the words as the real one does (an int, an array, a bytearray:
# one word an element, shifted left by `shift`), and the bits the program shifts out reach the
# chips on the side-set pin's WS2812 bus, as bytes, with interrupts left on (no irqoff window).
# Covers the instructions a WS2812 program needs: out, jmp (always, not_x, x), nop, side-set,
# delays, labels, wrap_target/wrap, with autopull and a left or right shifting OSR.
import machine


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2

    def __init__(self, id):
        if id not in (0, 1):
            raise ValueError('PIO 0 or 1')
        self.id = id


class PIOASMError(Exception):
    pass


class _Instr:
    def __init__(self, prog, op, args):
        self.op = op
        self.args = args
        self.side_v = None
        self.delay = 0
        prog.code.append(self)

    def side(self, v):
        self.side_v = v
        return self

    def __getitem__(self, delay):
        if not 0 <= delay <= 31:
            raise PIOASMError('delay 0..31')
        self.delay = delay
        return self


class _Program:
    def __init__(self, kw):
        self.kw = kw
        self.code = []
        self.labels = {}
        self.wrap_target = 0
        self.wrap = None


def asm_pio(**kw):
    def assemble(fn):
        prog = _Program(kw)
        g = fn.__globals__

        def op(name):
            return lambda *a: _Instr(prog, name, a)

        def label(name):
            prog.labels[name] = len(prog.code)

        def wrap_target():
            prog.wrap_target = len(prog.code)

        def wrap():
            prog.wrap = len(prog.code) - 1

        names = {'out': op('out'), 'jmp': op('jmp'), 'nop': op('nop'), 'set': op('set'),
                 'pull': op('pull'), 'label': label, 'wrap_target': wrap_target,
                 'wrap': wrap, 'x': 'x', 'y': 'y', 'not_x': 'not_x', 'not_y': 'not_y',
                 'pins': 'pins', 'osr': 'osr', 'block': 'block', 'noblock': 'noblock'}
        saved = {}
        for k in names:
            if k in g:
                saved[k] = g[k]
            g[k] = names[k]
        try:
            fn()
        finally:
            for k in names:
                if k in saved:
                    g[k] = saved[k]
                else:
                    del g[k]
        if prog.wrap is None:
            prog.wrap = len(prog.code) - 1
        return prog
    return assemble


def _run(prog, cfg, words, max_cycles=100000):
    """Execute `prog` on the TX FIFO `words` until it stalls on an empty FIFO; the side-set
    pin's level each cycle (a bytearray)."""
    code = prog.code
    thresh = cfg['pull_thresh']
    left = cfg['out_shiftdir'] == PIO.SHIFT_LEFT
    fifo = list(words)
    osr = 0
    count = 32            # the OSR starts empty: the first out pulls
    x = y = 0
    pin = 0
    pc = 0
    levels = bytearray()
    while len(levels) < max_cycles:
        ins = code[pc]
        if ins.op == 'out' and count >= thresh:
            if not fifo:
                break      # stalls: the FIFO ran dry
            osr = fifo.pop(0) & 0xffffffff
            count = 0
        if ins.side_v is not None:
            pin = ins.side_v & 1
        nxt = pc + 1 if pc != prog.wrap else prog.wrap_target
        if ins.op == 'out':
            dest, n = ins.args
            if left:
                v = osr >> (32 - n)
                osr = (osr << n) & 0xffffffff
            else:
                v = osr & ((1 << n) - 1)
                osr >>= n
            count += n
            if dest == 'x':
                x = v
            elif dest == 'y':
                y = v
            elif dest == 'pins':
                pin = v & 1
        elif ins.op == 'jmp':
            if len(ins.args) == 1:
                cond, target = None, ins.args[0]
            else:
                cond, target = ins.args
            go = (cond is None or (cond == 'not_x' and x == 0) or (cond == 'x' and x != 0)
                  or (cond == 'not_y' and y == 0) or (cond == 'y' and y != 0))
            if go:
                nxt = prog.labels[target]
        elif ins.op == 'set':
            dest, v = ins.args
            if dest == 'x':
                x = v
            elif dest == 'y':
                y = v
            elif dest == 'pins':
                pin = v & 1
        elif ins.op != 'nop':
            raise PIOASMError('the virtual PIO runs no %s' % ins.op)
        for _ in range(1 + ins.delay):
            levels.append(pin)
        pc = nxt
    return levels


def _decode(levels, freq):
    """WS2812 bits from a waveform sampled each PIO cycle: (bits, why-not or None)."""
    us = 1e6 / freq
    bits = []
    i = 0
    n = len(levels)
    while i < n:
        if not levels[i]:
            i += 1
            continue
        j = i
        while j < n and levels[j]:
            j += 1
        k = j
        while k < n and not levels[k]:
            k += 1
        high = (j - i) * us
        period = (k - i) * us
        if 0.2 <= high <= 0.55:
            bit = 0
        elif 0.6 <= high <= 1.0:
            bit = 1
        else:
            return bits, 'a high of %.3f us is neither a WS2812 0 nor a 1' % high
        if k < n and not 0.65 <= period <= 1.85:
            return bits, 'a bit of %.3f us is outside the WS2812 timing' % period
        bits.append(bit)
        i = j
    return bits, None


class StateMachine:
    def __init__(self, id, program=None, freq=-1, **kw):
        if not 0 <= id <= 7:
            raise ValueError('StateMachine 0..7')
        self.id = id
        self._on = False
        self.error = None
        self.puts = 0
        self.words = 0
        if program is not None:
            self.init(program, freq, **kw)

    def init(self, program, freq=-1, *, in_base=None, out_base=None, set_base=None,
             jmp_pin=None, sideset_base=None, in_shiftdir=None, out_shiftdir=None,
             push_thresh=None, pull_thresh=None):
        kw = program.kw
        self.prog = program
        self.freq = freq if freq > 0 else 125000000
        self.cfg = {'pull_thresh': pull_thresh or kw.get('pull_thresh', 32),
                    'out_shiftdir': (out_shiftdir if out_shiftdir is not None
                                     else kw.get('out_shiftdir', PIO.SHIFT_LEFT))}
        if not kw.get('autopull'):
            raise PIOASMError('the virtual PIO models autopull programs only')
        self.pin = sideset_base
        self._key = ('neopixel', sideset_base.id) if sideset_base is not None else None
        self._me = [self._deliver]
        self._value = None
        self._shift = 0
        self._out = None
        # The program's waveform for two test bytes, decoded as a strip would.
        t = self.cfg['pull_thresh']
        probe = (0xa5, 0x3c)
        words = [(b << (32 - 8)) if t == 8 else (b << 24) for b in probe]
        bits, why = _decode(_run(program, self.cfg, words), self.freq)
        want = []
        for b in probe:
            want.extend((b >> (7 - i)) & 1 for i in range(8))
        if why is None and bits != want:
            why = 'the program sent bits %r for %r' % (bits, want)
        self.error = why

    def active(self, value=None):
        if value is None:
            return self._on
        self._on = bool(value)
        return self._on

    def put(self, value, shift=0):
        """Words to the TX FIFO; on the virtual board they go out at once. Allocates nothing
        itself (the refresh path calls it with the heap locked): the decoding runs where the
        chips do, with the heap usable."""
        self.puts += 1
        if not self._on or self._key is None:
            return
        self._value = value
        self._shift = shift
        machine.to_chips(self._me, self)

    def _deliver(self, _):
        # Allocation-free after the first put of a length (the refresh path may hold the heap
        # locked more than once, which to_chips undoes only once).
        value = self._value
        self._value = None
        if isinstance(value, int):
            n = 1
        else:
            n = len(value)
        self.words += n
        if self.error is not None:
            return            # no WS2812 waveform: the strip shows nothing
        t = self.cfg['pull_thresh']
        left = self.cfg['out_shiftdir'] == PIO.SHIFT_LEFT
        size = (n * t) // 8
        out = self._out
        if out is None or len(out) != size:
            out = self._out = bytearray(size)
        shift = self._shift
        acc = 0
        nbits = 0
        j = 0
        for k in range(n):
            w = value if n == 1 and isinstance(value, int) else value[k]
            w = (w << shift) & 0xffffffff
            for i in range(t):
                b = (w >> (31 - i)) & 1 if left else (w >> i) & 1
                acc = (acc << 1) | b
                nbits += 1
                if nbits == 8:
                    if j < size:
                        out[j] = acc
                    j += 1
                    acc = 0
                    nbits = 0
        machine.to_chips(machine.bus(self._key), out)
