"""Pico + MAX7219 32x8 LED matrix (4x 8x8, FC-16). Wiring: boards/pico_max7219_matrix.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin, SPI
    from scoreboard.drivers.max7219_matrix import MAX7219Matrix
    from scoreboard.render.matrix import MatrixLayout
    # SPI0: SCK GP18, MOSI GP19; LOAD/CS GP17. MAX7219: SPI mode 0, at most 10 MHz.
    spi = SPI(0, baudrate=5000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
    panel = MAX7219Matrix(spi, Pin(17, Pin.OUT, value=1), width=32, height=8,
                          first='top-right')
    return [MatrixLayout(panel)]


def wiring():
    # As built, for the virtual board (tools/virtual): an FC-16 4-in-1 bar on SPI0, LOAD GP17,
    # DIN at the right end.
    return [[{'chip': 'max7219-matrix', 'spi': 0, 'cs': 17, 'width': 32, 'height': 8,
              'first': 'top-right', 'serpentine': False}]]
