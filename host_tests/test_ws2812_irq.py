# runs-on: micropython
# A WS2812 refresh and the 433 MHz receiver on one rp2 board (pico_ws2812_digits). MicroPython's
# neopixel keeps interrupts off for the whole write, 30 us a LED (the virtual neopixel models it,
# tools/virtual/irqoff.py): a fob's edges in that time are late or lost. The PIO driver
# (scoreboard/ws2812_pio.py) leaves interrupts on; the virtual rp2.StateMachine runs its
# program and hands the chip model what the strip would show. Both measured, same presses.

import virtual_first  # noqa: F401  (tools/virtual first on the path)

import paths  # noqa: E402

paths.add(paths.BOARDS)

import irqoff  # noqa: E402
import machine  # noqa: E402  (tools/virtual/machine.py)
import neopixel  # noqa: E402  (tools/virtual/neopixel.py)
import pico_ws2812_digits as board  # noqa: E402
import rp2  # noqa: E402  (tools/virtual/rp2.py)
from receiver import Receiver  # noqa: E402
from scoreboard.drivers.ws2812_digits import WS2812Digits  # noqa: E402
from scoreboard.ws2812_pio import PioNeoPixel  # noqa: E402
from scoreboard.remote.board import receivers  # noqa: E402
from ws2812_digits import WS2812DigitsChip  # noqa: E402

LEDS = board.DIGITS * (7 * board.LEDS_PER_SEGMENT + board.DP_LEDS)
CODES = sorted(board.RF['codes'])
FONT = b'\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f'


def rig(pio):
    machine.reset_all()
    irqoff.reset()
    rf = Receiver(board.RF['pin'], 'rf')
    rf.idle_line()
    keys = receivers(board, machine.Pin, clock=rf.clock)[0]
    chip = WS2812DigitsChip(board.DATA_PIN, digits=board.DIGITS, leds=board.LEDS_PER_SEGMENT,
                            seg_order=board.SEGMENT_ORDER, dp_leds=board.DP_LEDS)
    pin = machine.Pin(board.DATA_PIN, machine.Pin.OUT)
    np = PioNeoPixel(pin, LEDS) if pio else neopixel.NeoPixel(pin, LEDS)
    disp = WS2812Digits(pin, digits=board.DIGITS, leds=board.LEDS_PER_SEGMENT,
                        seg_order=board.SEGMENT_ORDER, dp_leds=board.DP_LEDS, np=np)
    return rf, keys, chip, disp


def presses(pio, refresh_ms, n=9):
    """n fob presses 400 ms apart; the display refreshed every refresh_ms (a 5 ms pass). The
    codes decoded, the digits the strip showed last, and what the model counted."""
    rf, keys, chip, disp = rig(pio)
    irqoff.reset()
    irqoff.clock = rf.clock
    now = 0
    decoded = []
    last = 0
    for i in range(n):
        rf.press(CODES[i % len(CODES)], now + 10)
        end = now + 400
        while now < end:
            now += 5
            rf.play(now)
            keys.bits(now)
            if keys.presses != last:
                last = keys.presses
                decoded.append(keys.last_code)
            if now % refresh_ms == 0:
                d = (now // refresh_ms) % 10
                for k in range(board.DIGITS):
                    disp.buf[k] = FONT[(d + k) % 10]
                disp.show()
                shown = [FONT[(d + k) % 10] for k in range(board.DIGITS)]
    return decoded, chip.digits(), shown, (irqoff.total_us, irqoff.late, irqoff.lost)


def test_the_pio_program_makes_a_ws2812_waveform():
    sm = rp2.StateMachine(0, PioNeoPixel.__init__.__globals__['ws2812'], freq=8000000,
                          sideset_base=machine.Pin(board.DATA_PIN))
    assert sm.error is None, sm.error
    # The same program clocked at 4 MHz is too slow for the strip: the model says so.
    slow = rp2.StateMachine(1, PioNeoPixel.__init__.__globals__['ws2812'], freq=4000000,
                            sideset_base=machine.Pin(board.DATA_PIN))
    assert slow.error is not None


def test_fob_codes_are_decoded_during_refreshes_with_pio_and_lost_with_neopixel():
    want = [CODES[i % len(CODES)] for i in range(9)]
    report = []
    for refresh in (5, 50):
        got, digits, shown, stats = presses(True, refresh)
        report.append('pio, a refresh every %d ms: %d of 9 decoded; irq-off %d us' %
                      (refresh, len(got), stats[0]))
        assert got == want, (refresh, got)
        assert digits == shown and stats == (0, 0, 0), (digits, shown, stats)
        got_np, digits_np, shown_np, st = presses(False, refresh)
        report.append('neopixel, a refresh every %d ms: %d of 9 decoded; irq-off %d us in %d '
                      'refreshes, %d edges late, %d lost' %
                      (refresh, len(got_np), st[0], st[0] // (LEDS * 30), st[1], st[2]))
        assert digits_np == shown_np                # the strip itself shows the same
        assert st[0] // (LEDS * 30) > 0 and st[1] + st[2] > 0
        if refresh == 5:
            assert len(got_np) <= 2, got_np         # 4.3 ms of each 5 ms deaf: lost
        assert len(got_np) < len(got), (got_np, got)
    print('\n'.join(report))


def test_the_pio_refresh_allocates_nothing():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return      # CPython: the MicroPython run checks it
    rf, keys, chip, disp = rig(True)
    for k in range(board.DIGITS):
        disp.buf[k] = FONT[k]
    writes = chip.writes
    heap_lock()
    try:
        disp.show()
    finally:
        heap_unlock()
    assert chip.writes == writes + 1 and chip.digits() == [FONT[k] for k in range(6)]
    # The virtual neopixel's interrupt-off record too, under a refresh locked twice (app.step
    # and App._show each lock it).
    rf, keys, chip, disp = rig(False)
    before = irqoff.total_us
    heap_lock()
    heap_lock()
    try:
        disp.show()
    finally:
        heap_unlock()
        heap_unlock()
    assert irqoff.n == 1 and irqoff.total_us - before == LEDS * 30, irqoff.total_us


def test_the_board_file_writes_its_strip_with_interrupts_on():
    # pico_ws2812_digits' own displays(): its refreshes reach the strip and turn no
    # interrupts off (the same board with neopixel would: 4.3 ms a refresh).
    machine.reset_all()
    irqoff.reset()
    Receiver(board.RF['pin'], 'rf').idle_line()
    chip = WS2812DigitsChip(board.DATA_PIN, digits=board.DIGITS, leds=board.LEDS_PER_SEGMENT,
                            seg_order=board.SEGMENT_ORDER, dp_leds=board.DP_LEDS)
    layouts = board.displays()
    assert chip.writes >= 1 and irqoff.count == 0, (chip.writes, irqoff.count)
    assert len(layouts) == 1
