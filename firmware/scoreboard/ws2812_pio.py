# WS2812 strips on an RP2040 through a PIO state machine, with interrupts left on.
#
# MicroPython's `neopixel` writes with machine.bitstream, which turns interrupts off for the
# whole strip: 30 us a LED, 4.3 ms for the 144 LEDs of pico_ws2812_digits. A receiver's pin IRQ
# cannot run meanwhile, so the 433 MHz receiver's edges in that time are lost or stamped late,
# and a fob press that falls on refreshes is not decoded. Here a PIO state machine makes the
# waveform; the CPU only feeds its TX FIFO with `sm.put(buf, 24)` (each byte of the prepared
# GRB buffer one word, shifted to the top 8 bits; the program pulls 8 bits at a time), which
# waits on a full FIFO with interrupts on, so the receiver's hard IRQ runs at its edge.
# No allocation per refresh: put() reads the driver's own buffer.
#
# A drop-in for neopixel.NeoPixel where the drivers use it (buf, bpp, ORDER, write): the board
# file builds it and hands it to WS2812Digits(np=...); only boards/ knows the part. (Not in
# drivers/: it is the strip's writer, as neopixel is, not a display driver of its own.)
# The program is the one of MicroPython's rp2 examples: at 8 MHz, 10 cycles a bit (1.25 us),
# a 1 high 0.875 us, a 0 high 0.25 us, as the WS2812 datasheet's 800 kHz timing wants.
# (The esp32 stubs have no rp2: the type check of that port skips the import.)
import rp2  # type: ignore[import-not-found]

FREQ = 8000000


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=8, fifo_join=rp2.PIO.JOIN_TX)
def ws2812():
    wrap_target()                              # noqa: F821
    label('bitloop')                           # noqa: F821
    out(x, 1).side(0)[2]                       # noqa: F821
    jmp(not_x, 'do_zero').side(1)[1]           # noqa: F821
    jmp('bitloop').side(1)[4]                  # noqa: F821
    label('do_zero')                           # noqa: F821
    nop().side(0)[4]                           # noqa: F821
    wrap()                                     # noqa: F821


class PioNeoPixel:
    ORDER = (1, 0, 2, 3)     # R, G, B, W -> buffer offset, as neopixel's

    def __init__(self, pin, n, bpp=3, sm=0):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.sm = rp2.StateMachine(sm, ws2812, freq=FREQ, sideset_base=pin)
        self.sm.active(1)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        off = i * self.bpp
        for j in range(self.bpp):
            self.buf[off + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        off = i * self.bpp
        return tuple(self.buf[off + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        self.sm.put(self.buf, 24)
