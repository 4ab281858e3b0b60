"""Pico + six large digits on a TPIC6B595 chain. Wiring: boards/pico_595.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin, SPI
    try:
        from machine import PWM
    except ImportError:          # a port without PWM: /OE is a plain on/off pin
        PWM = None
    from scoreboard.drivers.sr595 import SR595
    from scoreboard.render.single import SingleLayout
    spi = SPI(0, baudrate=1000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
    oe = Pin(20, Pin.OUT, value=1)
    if PWM is not None:
        oe = PWM(oe, freq=1000, duty_u16=65535)
    # TPIC6B595: an output bit of 1 sinks its segment (common-anode digits): no inversion.
    return [SingleLayout(SR595(latch=Pin(17), spi=spi, oe=oe, digits=6, invert=False))]


def wiring():
    # As built, for the virtual board (tools/virtual): six TPIC6B595 on SPI0 (latch GP17, /OE
    # GP20), Q0..Q7 = a..g, dp, the register nearest the Pico driving the leftmost digit.
    return [[{'chip': '595', 'spi': 0, 'latch': 17, 'oe': 20, 'digits': 6,
              'segments': b'\x00\x01\x02\x03\x04\x05\x06\x07', 'invert': False,
              'lsb_first': False, 'near_left': True}]]
