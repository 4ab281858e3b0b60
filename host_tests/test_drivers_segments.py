# Seven-segment drivers against their datasheets: the TM1637 bit stream (start/stop, LSB first,
# ACK, commands), the MAX7219 words per LOAD frame (init registers, no-decode segment order, chain
# order), the 595 chain (bit order, chain order, latch, /OE), the WS2812 digit pieces (GRB bytes);
# the virtual chips decode each back; under MicroPython show() allocates nothing.
# runs-on: micropython
import sys

import virtual_first  # noqa: F401  (tools/virtual first on the path)

import machine  # noqa: E402  (tools/virtual/machine.py)
from wire_probes import Frames  # noqa: E402
from machine import Pin, SPI  # noqa: E402
from scoreboard.drivers.tm1637 import TM1637, ORDER_6  # noqa: E402
from scoreboard.drivers.max7219_digits import MAX7219Digits  # noqa: E402
from scoreboard.drivers.sr595 import SR595  # noqa: E402
from scoreboard.drivers.ws2812_digits import WS2812Digits  # noqa: E402
import tm1637 as vtm  # noqa: E402  (tools/virtual)
import max7219 as vmax  # noqa: E402
import sr595 as vsr  # noqa: E402
import ws2812_digits as vws  # noqa: E402

MICROPYTHON = sys.implementation.name == 'micropython'

# Seven-segment shapes written out here (bit0 = a .. bit6 = g, bit7 = dp), not taken from the
# firmware's font: '0'..'9' as in the TM1637 datasheet's common-cathode table.
SEG = {'0': 0x3F, '1': 0x06, '2': 0x5B, '3': 0x4F, '4': 0x66, '5': 0x6D, '6': 0x7D,
       '7': 0x07, '8': 0x7F, '9': 0x6F, ' ': 0x00, '-': 0x40}


def segs(s):
    """'12.3' -> canonical bytes, a '.' folding into the digit before it."""
    out = []
    for ch in s:
        if ch == '.':
            out[-1] |= 0x80
        else:
            out.append(SEG[ch])
    return out


def load(drv, s):
    b = segs(s)
    for i in range(len(b)):
        drv.buf[i] = b[i]


# ---- TM1637 ----------------------------------------------------------------------------------

class Wire:
    """Records the TM1637 bus as the datasheet draws it: 'S' start, 'P' stop, then the DIO level
    at each CLK rising edge (8 data bits LSB first, the 9th is the ACK slot)."""

    def __init__(self, clk, dio):
        self.clk = machine.line(clk)
        self.dio = machine.line(dio)
        self.trace = []
        self.clk.listeners.append(self.on_clk)
        self.dio.listeners.append(self.on_dio)

    def on_clk(self, line):
        if line.level() == 1:
            self.trace.append(str(self.dio.level()))

    def on_dio(self, line):
        if self.clk.level() == 1:
            self.trace.append('S' if line.level() == 0 else 'P')

    def text(self):
        return ''.join(self.trace)


def lsb_bits(b):
    return ''.join(str((b >> i) & 1) for i in range(8))


def test_tm1637_bit_stream_matches_datasheet():
    machine.reset_all()
    chip = vtm.TM1637Chip(2, 3, 4)
    clk = Pin(2)
    dio = Pin(3)            # the wires settle at their idle level before anyone listens
    wire = Wire(2, 3)
    drv = TM1637(clk, dio, brightness=7)
    # Datasheet "write SRAM data in address auto increment mode": start, command 1 (0x40), stop;
    # start, command 2 (0xC0), data 1..N, stop; start, command 3 (display control), stop. Each
    # byte LSB first, then the ACK clock with DIO pulled low by the chip. The stop condition
    # raises CLK once more with DIO low before DIO rises.
    def frame(*bs):
        return 'S' + ''.join(lsb_bits(b) + '0' for b in bs) + '0P'
    expect = frame(0x40) + frame(0xC0, 0, 0, 0, 0) + frame(0x8F)
    assert wire.text() == expect, wire.text()
    assert drv.nacks == 0
    assert chip.errors == 0


def test_tm1637_digits_and_commands():
    machine.reset_all()
    chip = vtm.TM1637Chip(2, 3, 4, log=True)
    drv = TM1637(Pin(2), Pin(3))
    load(drv, '01.23')           # dp on digit 1: the colon of the clock modules
    drv.show()
    assert chip.log[-3:] == [b'\x40', bytes([0xC0, 0x3F, 0x86, 0x5B, 0x4F]), b'\x8f'], chip.log
    assert chip.digits() == segs('01.23')
    assert chip.on and chip.level == 7
    drv.brightness(2)
    assert chip.log[-1] == b'\x8a' and chip.level == 2      # 0x88 | pulse width 2 (4/16)
    drv.power(False)
    assert chip.log[-1] == b'\x80' and not chip.on           # display off command
    drv.power(True)
    assert chip.log[-1] == b'\x8a' and chip.on
    drv.brightness(99)
    assert chip.log[-1] == b'\x8f'
    drv.deinit()
    assert chip.log[-1] == b'\x80'
    assert chip.errors == 0 and drv.nacks == 0


def test_tm1637_six_digit_scrambled_order():
    machine.reset_all()
    chip = vtm.TM1637Chip(4, 5, 6, order=ORDER_6, log=True)
    drv = TM1637(Pin(4), Pin(5), digits=6, order=ORDER_6)
    load(drv, '123456')
    drv.show()
    # GRID1..GRID6 (addresses 0..5) of these modules show positions 3, 2, 1, 6, 5, 4.
    assert chip.log[-2] == bytes([0xC0] + segs('321654')), chip.log[-2]
    assert chip.digits() == segs('123456')


def test_tm1637_without_chip_sees_no_ack():
    machine.reset_all()
    drv = TM1637(Pin(6), Pin(7))           # nothing on the wires: the pull-up reads 1 at ACK
    assert drv.nacks == 7                  # 0x40, 0xC0 + 4 data bytes, 0x8F


def test_tm1637_chips_for():
    machine.reset_all()
    drv = TM1637(Pin(2), Pin(3), colour='red')
    chips = vtm.chips_for(drv)
    assert len(chips) == 1 and chips[0].colour == 'red' and chips[0].kind == 'segments'
    load(drv, '7  1')
    drv.show()
    assert chips[0].digits() == segs('7  1')
    assert vtm.chips_for(object()) == []


# ---- MAX7219 ---------------------------------------------------------------------------------

DIGIT0 = 0x01       # MAX7219 datasheet Table 2
DECODE = 0x09
INTENSITY = 0x0A
SCAN_LIMIT = 0x0B
SHUTDOWN = 0x0C
TEST = 0x0F


def test_max7219_init_register_writes():
    machine.reset_all()
    frames = Frames(('spi', 0), 17)
    chain = vmax.MAX7219Chain(1)
    vmax.attach(chain, ('spi', 0), 17)
    MAX7219Digits(SPI(0), Pin(17), brightness=7)
    # One 16-bit word per LOAD (one chip): address byte then data byte, MSB first.
    expect = [bytes([TEST, 0]), bytes([DECODE, 0]), bytes([SCAN_LIMIT, 7]),
              bytes([INTENSITY, 15])]
    for d in range(8):
        expect.append(bytes([DIGIT0 + d, 0]))
    expect.append(bytes([SHUTDOWN, 1]))
    assert frames.frames == expect, frames.frames
    dev = chain[0]
    assert dev.decode_mode == 0 and dev.scan_limit == 7 and dev.intensity == 15
    assert not dev.shutdown and not dev.test


def test_max7219_no_decode_segment_order():
    machine.reset_all()
    chain = vmax.MAX7219Chain(1)
    vmax.attach(chain, ('spi', 0), 17)
    drv = MAX7219Digits(SPI(0), Pin(17))
    load(drv, '0.1234567')
    drv.show()
    dev = chain[0]
    # Datasheet Table 6 (no-decode): D7..D0 = DP A B C D E F G. Digit 0 is the rightmost.
    assert dev.regs[DIGIT0 + 0] == 0x70          # '7' = A B C
    assert dev.regs[DIGIT0 + 7] == 0xFE          # '0.' = DP A B C D E F
    assert dev.regs[DIGIT0 + 6] == 0x30          # '1' = B C
    assert dev.regs[DIGIT0 + 5] == 0x6D          # '2' = A B D E G
    view = vmax.DigitView(chain, 0)
    assert view.digits() == segs('0.1234567')
    drv.brightness(3)
    assert dev.intensity == 6 and view.level == 3
    drv.power(False)
    assert dev.shutdown and not view.on and view.digits() == [0] * 8
    drv.power(True)
    assert view.on


def test_max7219_chain_order():
    machine.reset_all()
    frames = Frames(('spi', 1), 13)
    chain = vmax.MAX7219Chain(2)
    vmax.attach(chain, ('spi', 1), 13)
    drv = MAX7219Digits(SPI(1), Pin(13), n_devices=2)
    load(drv, '12345678' + '87654321')
    drv.show()
    # The word sent first ends in the LAST chip: the digit-0 frame carries chip 1's word
    # ('1', its rightmost digit: B C = 0x30) before chip 0's ('8': 0x7F).
    digit0 = [f for f in frames.frames if f[0] == DIGIT0][-1]
    assert digit0 == bytes([DIGIT0, 0x30, DIGIT0, 0x7F]), digit0
    left = vmax.DigitView(chain, 0)
    right = vmax.DigitView(chain, 1)
    assert left.digits() == segs('12345678')
    assert right.digits() == segs('87654321')


def test_max7219_virtual_chip_decode_and_scan_limit():
    # The virtual chip honours Code B decoding and the scan limit, whatever sends the words.
    machine.reset_all()
    chain = vmax.MAX7219Chain(1)
    vmax.attach(chain, ('spi', 0), 17)
    cs = Pin(17, Pin.OUT, value=1)
    spi = SPI(0)
    for reg, data in ((SHUTDOWN, 1), (DECODE, 0xFF), (SCAN_LIMIT, 3), (INTENSITY, 8),
                      (DIGIT0 + 0, 0x05), (DIGIT0 + 1, 0x8A), (DIGIT0 + 2, 0x0F),
                      (DIGIT0 + 3, 0x0B), (DIGIT0 + 4, 0x01)):
        cs(0)
        spi.write(bytes([reg, data]))
        cs(1)
    view = vmax.DigitView(chain, 0)
    # digits 4..7 beyond the scan limit are dark; Code B: 0x0B 'E', 0x0F blank, 0x0A '-', 5.
    assert view.digits() == [0, 0, 0, 0, 0x79, 0x00, 0x40 | 0x80, 0x6D]
    assert view.level == 4
    cs(0)
    spi.write(bytes([TEST, 1]))
    cs(1)
    assert view.digits() == [0xFF] * 8 and view.on


def test_max7219_chips_for():
    machine.reset_all()
    drv = MAX7219Digits(SPI(0), Pin(17), n_devices=2, colour='red')
    chips = vmax.chips_for(drv)
    assert len(chips) == 2 and chips[0].kind == 'segments' and chips[0].colour == 'red'
    load(drv, '1       ' + '       2')
    drv.show()
    assert chips[0].digits() == segs('1       ')
    assert chips[1].digits() == segs('       2')
    assert vmax.chips_for(object()) == []


# ---- 74HC595 / TPIC6B595 ---------------------------------------------------------------------

class Bits:
    def __init__(self, data_id, clock_id):
        self.data = machine.line(data_id)
        self.bits = []
        machine.line(clock_id).listeners.append(self.on_clock)

    def on_clock(self, line):
        if line.level() == 1:
            self.bits.append(self.data.level())


def test_595_bitbang_bit_and_chain_order():
    machine.reset_all()
    chip = vsr.SR595Chip(4, 12, data_id=10, clock_id=11)
    bits = Bits(10, 11)
    drv = SR595(Pin(10), Pin(11), Pin(12), digits=4)
    bits.bits = []
    load(drv, '1234')
    drv.show()
    # 74HC595: the first bit clocked ends in Q7 of the farthest register, which (near_left)
    # drives the rightmost digit: '4' (b c f g = Q1 Q2 Q5 Q6 = 0x66) goes first, Q7 first.
    first = bits.bits[:8]
    assert first == [0, 1, 1, 0, 0, 1, 1, 0], first
    assert len(bits.bits) == 32
    assert list(chip.out) == [0x06, 0x5B, 0x4F, 0x66]     # register 0 nearest the MCU
    assert chip.digits() == segs('1234')
    assert chip.latches >= 2 and chip.on


def test_595_polarity_wiring_and_spi():
    machine.reset_all()
    # Common-anode digits on 74HC595 (output low lights), Q7..Q0 wired as a..dp (lsb_first),
    # chain starting at the rightmost digit, on hardware SPI.
    chip = vsr.SR595Chip(3, 9, spi_key=('spi', 1), invert=True, lsb_first=True,
                         near_left=False)
    sent = []
    machine.bus(('spi', 1)).append(lambda b: sent.append(bytes(b)))
    drv = SR595(None, None, Pin(9), spi=SPI(1), digits=3, invert=True, lsb_first=True,
                near_left=False)
    load(drv, '7.0-')
    drv.show()
    # near_left=False: the farthest register is the leftmost digit, so '7.' goes first.
    # '7.' = a b c dp -> Q7 Q6 Q5 Q0 (lsb_first) = 0xE1, inverted 0x1E.
    assert sent[-1][0] == 0x1E, sent[-1]
    assert chip.digits() == segs('7.0-')


def test_595_output_enable_and_brightness():
    machine.reset_all()
    chip = vsr.SR595Chip(2, 12, data_id=10, clock_id=11, oe_id=13)
    drv = SR595(Pin(10), Pin(11), Pin(12), digits=2, oe=Pin(13))
    load(drv, '42')
    drv.show()
    assert chip.on and chip.digits() == segs('42')
    drv.power(False)
    assert machine.line(13).level() == 1 and not chip.on        # /OE high: outputs off
    drv.power(True)
    assert chip.on

    class FakePWM:
        def __init__(self):
            self.duty = None

        def duty_u16(self, v):
            self.duty = v

    pwm = FakePWM()
    drv2 = SR595(Pin(20), Pin(21), Pin(22), digits=2, oe=pwm, brightness=7)
    assert pwm.duty == 0                       # /OE active low: full brightness = always low
    drv2.brightness(0)
    assert 60000 < pwm.duty < 65535            # mostly high: dim
    drv2.power(False)
    assert pwm.duty == 65535


def test_595_without_oe_power_shifts_blanks():
    machine.reset_all()
    chip = vsr.SR595Chip(2, 12, data_id=10, clock_id=11)
    drv = SR595(Pin(10), Pin(11), Pin(12), digits=2)
    load(drv, '88')
    drv.show()
    drv.power(False)
    assert chip.digits() == [0, 0]
    drv.power(True)
    assert chip.digits() == segs('88')


def test_595_chips_for():
    machine.reset_all()
    drv = SR595(Pin(10), Pin(11), Pin(12), digits=4, oe=Pin(13), invert=True)
    chips = vsr.chips_for(drv)
    assert len(chips) == 1
    load(drv, '2 10')
    drv.show()
    assert chips[0].digits() == segs('2 10')
    assert vsr.chips_for(object()) == []


# ---- WS2812 digits ---------------------------------------------------------------------------

def test_ws2812_digit_pieces_grb():
    machine.reset_all()
    chip = vws.WS2812DigitsChip(20, digits=2, leds=2, dp_leds=1)
    drv = WS2812Digits(Pin(20), digits=2, leds=2, dp_leds=1, colours=('red', 'blue'))
    load(drv, '1.2')
    drv.show()
    buf = chip.buf
    per = 7 * 2 + 1
    # Digit 0 '1.': pieces b (LEDs 2, 3) and c (4, 5) and the dp LED (14) lit red; WS2812
    # bytes are G R B: red is the 2nd byte of each LED.
    for led in range(per):
        lit = led in (2, 3, 4, 5, 14)
        assert tuple(buf[3 * led:3 * led + 3]) == ((0, 255, 0) if lit else (0, 0, 0)), led
    # Digit 1 '2': a b d e g = LEDs 0..3, 6..9, 12, 13 of its own run, blue (3rd byte).
    for led in range(per):
        lit = led in (0, 1, 2, 3, 6, 7, 8, 9, 12, 13)
        o = 3 * (per + led)
        assert tuple(buf[o:o + 3]) == ((0, 0, 255) if lit else (0, 0, 0)), led
    assert chip.digits() == segs('1.2')
    assert chip.colours() == ['red', 'blue'] and chip.level == 7
    drv.brightness(0)
    assert max(chip.buf) == 8 and chip.level == 0
    drv.power(False)
    assert max(chip.buf) == 0 and not chip.on


def test_ws2812_segment_order_along_strip():
    machine.reset_all()
    order = b'\x06\x05\x00\x01\x02\x03\x04'       # glued as g, f, a, b, c, d, e
    chip = vws.WS2812DigitsChip(21, digits=1, leds=1, seg_order=order)
    drv = WS2812Digits(Pin(21), digits=1, leds=1, seg_order=order, colours='blue')
    load(drv, '7')
    drv.show()
    # '7' = a b c: strip LEDs 2, 3, 4
    lit = [i for i in range(7) if max(chip.buf[3 * i:3 * i + 3]) > 0]
    assert lit == [2, 3, 4], lit
    assert chip.digits() == segs('7') and chip.colour == 'blue'
    chips = vws.chips_for(drv)
    assert len(chips) == 1
    drv.show()
    assert chips[0].digits() == segs('7')


# ---- no allocation in the refresh path (MicroPython) ---------------------------------------

def _alloc(fn, arg, n=5):
    import gc
    call = fn if arg is None else (lambda: fn(arg))
    call()
    gc.collect()
    before = gc.mem_alloc()
    for _ in range(n):
        call()
    return gc.mem_alloc() - before


def test_show_allocates_nothing():
    if not MICROPYTHON:
        return
    machine.reset_all()        # no chips listening: only the drivers' own work is measured
    drivers = [TM1637(Pin(2), Pin(3)), TM1637(Pin(4), Pin(5), digits=6, order=ORDER_6),
               MAX7219Digits(SPI(0), Pin(17), n_devices=2),
               SR595(Pin(10), Pin(11), Pin(12), digits=6, oe=Pin(13)),
               SR595(None, None, Pin(14), spi=SPI(1), digits=4),
               WS2812Digits(Pin(20), digits=4, leds=3, dp_leds=1)]
    # The host neopixel stand-in builds a bus key tuple in write(); the real one does not.
    drivers[-1].np.write = lambda: None
    for d in drivers:
        load(d, '8.' * d.width)
        for name, fn, arg in (('show', d.show, None), ('brightness', d.brightness, 3),
                              ('power', d.power, True)):
            n = _alloc(fn, arg)
            assert n == 0, '%s.%s allocated %d bytes' % (type(d).__name__, name, n)


def test_virtual_chips_decode_under_heap_lock():
    # The app refreshes with the heap locked; the chips decode inside that refresh.
    if not MICROPYTHON:
        return
    from micropython import heap_lock, heap_unlock
    machine.reset_all()
    chips = []
    drivers = [TM1637(Pin(2), Pin(3)), MAX7219Digits(SPI(0), Pin(17)),
               SR595(Pin(10), Pin(11), Pin(12), digits=4, oe=Pin(13)),
               SR595(None, None, Pin(14), spi=SPI(1), digits=4),
               WS2812Digits(Pin(20), digits=4, leds=2, dp_leds=1)]
    for d in drivers:
        for mod in (vtm, vmax, vsr, vws):
            chips += mod.chips_for(d)
    assert len(chips) == len(drivers)
    for d in drivers:
        load(d, '1.234' + ' ' * (d.width - 4))
    heap_lock()
    try:
        for d in drivers:
            d.show()
    finally:
        heap_unlock()
    for c in chips:
        assert c.digits()[:4] == segs('1.234'), type(c).__name__
