# LED-matrix drivers against their datasheets: the MAX7219 words on the SPI bus per LOAD frame,
# module order and rotation through the virtual chips, the WS2812 serpentine and GRB bytes,
# brightness and power; under MicroPython also that a refresh allocates nothing and that the
# host framebuf stand-in draws exactly like the real module.
# runs-on: micropython
import sys

import virtual_first  # noqa: F401  (tools/virtual first on the path)

import machine  # noqa: E402  (tools/virtual/machine.py)
from wire_probes import Frames  # noqa: E402
from scoreboard.drivers.max7219_matrix import MAX7219Matrix, arrangement  # noqa: E402
from scoreboard.drivers.ws2812_panel import WS2812Panel, led_index  # noqa: E402
import max7219_matrix as vmatrix  # noqa: E402  (tools/virtual)
import ws2812_panel as vpanel  # noqa: E402

MICROPYTHON = sys.implementation.name == 'micropython'

# Datasheet register addresses (MAX7219 19-4452, Table 2), written out here on purpose rather
# than imported from the driver.
DIGIT = (0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08)
DECODE = 0x09
INTENSITY = 0x0A
SCAN_LIMIT = 0x0B
SHUTDOWN = 0x0C
TEST = 0x0F


def _matrix(width=32, height=8, spi_id=0, cs_id=5, **kw):
    machine.reset_all()
    rec = Frames(('spi', spi_id), cs_id)
    drv = MAX7219Matrix(machine.SPI(spi_id), machine.Pin(cs_id, machine.Pin.OUT, value=1),
                        width, height, **kw)
    return drv, rec


def _row_frame(rec, reg):
    """The last LOAD frame that wrote digit register `reg` to every chip."""
    for i in range(len(rec.frames) - 1, -1, -1):
        ws = rec.words(i)
        if ws and all(w[0] == reg for w in ws):
            return ws
    raise AssertionError('no frame for register %d' % reg)


def test_init_sequence_matches_datasheet():
    drv, rec = _matrix(level=3)
    assert len(rec.frames) == 13
    for f in rec.frames:
        assert len(f) == 8                     # one 16-bit word per chip, 4 chips
    for r in range(8):                         # rows cleared first ...
        assert rec.words(r) == [(DIGIT[r], 0)] * 4
    # ... then the control registers, leaving shutdown last (datasheet: configure, then run)
    assert rec.words(8) == [(TEST, 0)] * 4
    assert rec.words(9) == [(DECODE, 0)] * 4   # no decode: raw rows for a matrix
    assert rec.words(10) == [(SCAN_LIMIT, 7)] * 4
    assert rec.words(11) == [(INTENSITY, 6)] * 4
    assert rec.words(12) == [(SHUTDOWN, 1)] * 4


def test_pixel_corners_32x8():
    # FC-16 4-in-1: DIN at the right end, so the rightmost module is chip 0 and the leftmost
    # chip 3, which receives the FIRST word of every frame.
    drv, rec = _matrix()
    drv.pixel(0, 0, 1)
    drv.show()
    assert _row_frame(rec, 1) == [(1, 0x80), (1, 0), (1, 0), (1, 0)]
    for r in range(2, 9):
        assert _row_frame(rec, r) == [(r, 0)] * 4
    drv.fill(0)
    drv.pixel(31, 7, 1)
    drv.show()
    assert _row_frame(rec, 1) == [(1, 0)] * 4
    assert _row_frame(rec, 8) == [(8, 0), (8, 0), (8, 0), (8, 0x01)]
    drv.fill(0)
    drv.pixel(9, 2, 1)                         # module 1 from the left, column 1, row 2
    drv.show()
    assert _row_frame(rec, 3) == [(3, 0), (3, 0x40), (3, 0), (3, 0)]


def test_64x16_row_major_and_serpentine():
    drv, rec = _matrix(64, 16)
    assert drv.modules[0] == (7, 0, 0) and drv.modules[7] == (0, 0, 0)
    assert drv.modules[8] == (7, 1, 0) and drv.modules[15] == (0, 1, 0)
    drv.pixel(0, 0, 1)                         # chip 7: word 15 - 7 = 8 of the frame
    drv.pixel(63, 15, 1)                       # chip 8: word 7, register 8, bit 0
    drv.show()
    ws = _row_frame(rec, 1)
    assert ws[8] == (1, 0x80) and sum(w[1] for w in ws) == 0x80
    ws = _row_frame(rec, 8)
    assert ws[7] == (8, 0x01) and sum(w[1] for w in ws) == 0x01

    drv, rec = _matrix(64, 16, serpentine=True)
    assert drv.modules[8] == (0, 1, 180) and drv.modules[15] == (7, 1, 180)
    drv.pixel(63, 15, 1)   # chip 15 (word 0), mounted upside down: its own row 0, column 0
    drv.pixel(0, 8, 1)     # chip 8 (word 7): its own row 7, column 7
    drv.show()
    ws = _row_frame(rec, 1)
    assert ws[0] == (1, 0x80) and sum(w[1] for w in ws) == 0x80
    ws = _row_frame(rec, 8)
    assert ws[7] == (8, 0x01) and sum(w[1] for w in ws) == 0x01


def test_rotated_single_modules():
    # A module mounted a quarter turn clockwise: panel (0, 0) is its own column 0, row 7.
    drv, rec = _matrix(8, 8, rotate=90)
    drv.pixel(0, 0, 1)
    drv.show()
    assert _row_frame(rec, 8) == [(8, 0x80)]
    assert _row_frame(rec, 1) == [(1, 0)]
    drv, rec = _matrix(8, 8, rotate=270)      # a quarter turn the other way: column 7, row 0
    drv.pixel(0, 0, 1)
    drv.show()
    assert _row_frame(rec, 1) == [(1, 0x01)]
    drv, rec = _matrix(8, 8, rotate=180)      # upside down: column 7, row 7
    drv.pixel(0, 0, 1)
    drv.show()
    assert _row_frame(rec, 8) == [(8, 0x01)]


def test_arrangement_helper():
    assert arrangement(4) == ((3, 0, 0), (2, 0, 0), (1, 0, 0), (0, 0, 0))
    assert arrangement(2, 2, 'top-left') == ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))
    assert arrangement(2, 2, 'bottom-left', serpentine=True) == (
        (0, 1, 0), (1, 1, 0), (1, 0, 180), (0, 0, 180))
    assert arrangement(2, 1, rotate=90) == ((1, 0, 90), (0, 0, 90))
    try:
        MAX7219Matrix(machine.SPI(0), machine.Pin(5), 16, 8, modules=((0, 0, 0), (1, 0, 90)))
    except ValueError:
        pass
    else:
        raise AssertionError('mixed quarter turns must be refused')


def _pattern(w, h, seed):
    """A deterministic asymmetric picture: (x, y) lit or not."""
    s = seed
    out = []
    for _ in range(h):
        row = []
        for _ in range(w):
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            row.append(1 if (s >> 16) & 3 == 0 else 0)
        out.append(row)
    return out


def _draw(drv, pat):
    drv.fill(0)
    for y in range(len(pat)):
        for x in range(len(pat[0])):
            if pat[y][x]:
                drv.pixel(x, y, 1)


def _picture(pat):
    return [''.join('#' if v else '.' for v in row) for row in pat]


def test_virtual_matrix_round_trip():
    cases = (
        (32, 8, {}),
        (64, 16, {}),
        (64, 16, {'serpentine': True}),
        (16, 16, {'rotate': 90, 'first': 'bottom-left'}),
        (24, 8, {'rotate': 270, 'first': 'top-left'}),
        (16, 24, {'rotate': 180, 'serpentine': True, 'first': 'bottom-right'}),
    )
    for w, h, kw in cases:
        drv, rec = _matrix(w, h, **kw)
        chip = vmatrix.chips_for(drv)[0]
        assert chip.kind == 'pixels' and chip.width == w and chip.height == h
        for seed in (1, 7):
            pat = _pattern(w, h, seed)
            _draw(drv, pat)
            drv.show()
            assert chip.rows() == _picture(pat), (w, h, kw, seed)
        assert chip.on and chip.level == 3
        assert chip.pixel(0, 0) in ((0, 0, 0), vmatrix.LIT)


class _WrongOrder(MAX7219Matrix):
    """A broken driver: sends chip k's word k-th (nearest chip first), the classic mistake."""

    def _index_table(self):
        m = MAX7219Matrix._index_table(self)
        n = self.n
        for r in range(8):
            row = [m[r * n + k] for k in range(n)]
            for k in range(n):
                m[r * n + k] = row[n - 1 - k]
        return m


def test_virtual_chip_catches_wrong_module_order():
    machine.reset_all()
    drv = _WrongOrder(machine.SPI(0), machine.Pin(5, machine.Pin.OUT), 32, 8)
    chip = vmatrix.chips_for(drv)[0]
    pat = _pattern(32, 8, 3)
    _draw(drv, pat)
    drv.show()
    assert chip.rows() != _picture(pat)
    # and a driver told the wrong arrangement (modules listed left to right) is caught too
    machine.reset_all()
    good = MAX7219Matrix(machine.SPI(0), machine.Pin(5, machine.Pin.OUT), 32, 8)
    chip = vmatrix.chips_for(good)[0]
    chip_wrong = vmatrix.MatrixView(chip.chain, 32, 8, arrangement(4, 1, 'top-left'))
    _draw(good, pat)
    good.show()
    assert chip.rows() == _picture(pat)
    assert chip_wrong.rows() != _picture(pat)


def test_brightness_power_and_test_mode():
    drv, rec = _matrix()
    chip = vmatrix.chips_for(drv)[0]
    expect = (0, 2, 4, 6, 8, 10, 12, 15)
    for level in range(8):
        rec.clear()
        drv.brightness(level)
        assert rec.words(0) == [(INTENSITY, expect[level])] * 4
        assert chip.level == level
    rec.clear()
    drv.brightness(99)
    assert rec.words(0) == [(INTENSITY, 15)] * 4
    drv.pixel(0, 0, 1)
    drv.show()
    rec.clear()
    drv.power(False)
    assert rec.words(0) == [(SHUTDOWN, 0)] * 4
    assert not chip.on and not chip.lit(0, 0)
    drv.power(True)
    assert chip.on and chip.lit(0, 0)
    # the virtual chip honours display test (all on) and the scan limit, as the datasheet says
    dev = chip.chain.devices[3]
    dev.regs[TEST] = 1
    assert chip.lit(1, 1)
    dev.regs[TEST] = 0
    dev.regs[SCAN_LIMIT] = 0
    assert chip.lit(0, 0) is True and not chip.lit(0, 1)
    drv.deinit()
    assert not chip.on


def test_update_pushes_only_changes():
    drv, rec = _matrix()
    rec.clear()
    assert drv.update() is False and rec.frames == []
    drv.pixel(3, 3, 1)
    assert drv.update() is True and len(rec.frames) == 13
    rec.clear()
    assert drv.update() is False and rec.frames == []


# -- WS2812 ---------------------------------------------------------------------------------------

def test_serpentine_index_tables():
    # The common 8x32 panel: columns of 8, zig-zag, LED 0 at the top left.
    cases = (
        ((0, 0), 0), ((0, 7), 7), ((1, 7), 8), ((1, 0), 15), ((2, 0), 16), ((31, 0), 255),
        ((31, 7), 248),
    )
    for (x, y), k in cases:
        assert led_index(x, y, 32, 8) == k, (x, y)
    # rows, progressive
    for (x, y), k in (((0, 0), 0), ((31, 0), 31), ((0, 1), 32), ((5, 7), 229)):
        assert led_index(x, y, 32, 8, vertical=False, serpentine=False) == k
    # rows, serpentine, LED 0 at the bottom right
    for (x, y), k in (((31, 7), 0), ((0, 7), 31), ((0, 6), 32), ((31, 6), 63), ((31, 0), 255)):
        assert led_index(x, y, 32, 8, vertical=False, start='bottom-right') == k
    # every table is a permutation
    for vertical in (False, True):
        for serp in (False, True):
            for start in ('top-left', 'top-right', 'bottom-left', 'bottom-right'):
                seen = {}
                for y in range(8):
                    for x in range(32):
                        seen[led_index(x, y, 32, 8, vertical, serp, start)] = 1
                assert len(seen) == 256 and min(seen) == 0 and max(seen) == 255


def test_ws2812_grb_bytes_and_brightness():
    machine.reset_all()
    drv = WS2812Panel(machine.Pin(13), level=7)
    buf = drv.np.buf
    drv.fill(0)
    drv.pixel(1, 7, 1)                         # red: LED 8 on the column serpentine
    drv.pixel(2, 0, 2)                         # blue: LED 16
    drv.show()
    assert bytes(buf[24:27]) == bytes((0, 120, 0))          # G, R, B at level 7 (max 120)
    assert bytes(buf[48:51]) == bytes((60 * 120 // 255, 0, 120))
    assert sum(buf) == 120 + 28 + 120
    drv.brightness(0)
    assert bytes(buf[24:27]) == bytes((0, 4, 0))
    drv.power(False)
    assert sum(buf) == 0
    drv.power(True)
    assert bytes(buf[24:27]) == bytes((0, 4, 0))
    drv.deinit()
    assert sum(buf) == 0


LEGEND = {'r': (255, 0, 0), 'b': (0, 60, 255), 'a': (255, 150, 0), 'd': (40, 40, 40)}
CHARS = '.rbad'


def test_virtual_panel_round_trip():
    for vertical in (True, False):
        for serp in (True, False):
            for start in ('top-left', 'top-right', 'bottom-left', 'bottom-right'):
                machine.reset_all()
                drv = WS2812Panel(machine.Pin(13), 32, 8, vertical, serp, start, level=5)
                chip = vpanel.chips_for(drv)[0]
                assert chip.kind == 'pixels'
                s = 5
                want = []
                for y in range(8):
                    row = ''
                    for x in range(32):
                        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
                        c = (s >> 16) % 5
                        drv.pixel(x, y, c)
                        row += CHARS[c]
                    want.append(row)
                drv.show()
                assert chip.rows(LEGEND) == want, (vertical, serp, start)
                assert chip.on and chip.level == 5
                drv.power(False)
                assert not chip.on


# -- MicroPython only -----------------------------------------------------------------------------

def test_framebuf_stand_in_matches_real_module():
    if not MICROPYTHON:
        return          # the real framebuf exists only under MicroPython
    import framebuf
    ns = {}
    with open(virtual_first.ROOT + '/tools/virtual/framebuf.py') as f:
        exec(f.read(), ns)
    Fake = ns['FrameBuffer']
    fmts = (('MONO_VLSB', 32, 16), ('MONO_HLSB', 30, 9), ('MONO_HMSB', 16, 8), ('GS8', 12, 7),
            ('RGB565', 10, 6))
    for name, w, h in fmts:
        fmt = getattr(framebuf, name)
        size = {'MONO_VLSB': w * ((h + 7) // 8), 'GS8': w * h, 'RGB565': 2 * w * h}.get(
            name, ((w + 7) // 8) * h)
        a = bytearray(size)
        b = bytearray(size)
        real = framebuf.FrameBuffer(a, w, h, fmt)
        fake = Fake(b, w, h, ns[name])
        src_a = bytearray(4 * 8)
        src_b = bytearray(4 * 8)
        sreal = framebuf.FrameBuffer(src_a, 8, 4, framebuf.GS8)
        sfake = Fake(src_b, 8, 4, ns['GS8'])
        for fb in (sreal, sfake):
            fb.fill(0)
            fb.line(0, 0, 7, 3, 1)
            fb.pixel(3, 1, 2)
        ops = (
            ('fill', (0,)), ('pixel', (3, 2, 1)), ('hline', (-3, 1, 20, 1)),
            ('vline', (5, -2, 30, 1)), ('rect', (1, 1, 7, 5, 1)), ('fill_rect', (6, 3, 40, 2, 0)),
            ('line', (0, h - 1, w - 1, 0, 1)), ('line', (w - 1, h - 1, 2, 0, 1)),
            ('text', ('Ab9!', 2, 1, 1)), ('text', ('xyz', -3, h - 4, 1)),
            ('blit', (sreal, 4, 2)), ('scroll', (2, 1)), ('scroll', (-3, -2)),
            ('rect', (0, 0, w, h, 1, True)), ('text', ('~', 0, 0, 0)),
            ('blit', (sreal, -2, h - 2, 0)),
        )
        for op, args in ops:
            fa = getattr(real, op)
            fb_ = getattr(fake, op)
            if op == 'blit':
                fa(*args)
                fb_(*((sfake,) + args[1:]))
            else:
                fa(*args)
                fb_(*args)
            assert a == b, (name, op, args)


class _NullNP:
    """A NeoPixel whose write() goes nowhere (the real one hands buf to machine.bitstream)."""

    def __init__(self, n):
        self.buf = bytearray(3 * n)

    def write(self):
        pass


def test_show_allocates_nothing():
    if not MICROPYTHON:
        return          # gc.mem_alloc() is MicroPython's
    import gc
    machine.reset_all()
    drivers = (
        MAX7219Matrix(machine.SPI(0), machine.Pin(5, machine.Pin.OUT), 32, 8),
        MAX7219Matrix(machine.SPI(1), machine.Pin(6, machine.Pin.OUT), 64, 16, serpentine=True),
        MAX7219Matrix(machine.SPI(1), machine.Pin(7, machine.Pin.OUT), 16, 16, rotate=90),
        WS2812Panel(machine.Pin(13), np=_NullNP(256)),
    )
    for drv in drivers:
        for k in range(3):          # warm up
            drv.pixel(k, 1, 1)
            drv.show()
            drv.update()
        gc.collect()
        before = gc.mem_alloc()
        for k in range(20):
            drv.pixel(k % drv.width, k % drv.height, (k & 3))
            drv.show()
            drv.update()
            drv.brightness(k & 7)
        assert gc.mem_alloc() - before == 0, drv
