"""Pico + MAX7219 64x16 LED matrix (2 rows of 8x 8x8). Wiring: boards/pico_max7219_64x16.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin, SPI
    from scoreboard.drivers.max7219_matrix import MAX7219Matrix
    from scoreboard.render.matrix import MatrixLayout
    # SPI0: SCK GP18, MOSI GP19; LOAD/CS GP17. Sixteen chips in one chain: the top row from the
    # right end, then the bottom row back from the left, its 4-in-1 bars mounted upside down.
    spi = SPI(0, baudrate=5000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
    panel = MAX7219Matrix(spi, Pin(17, Pin.OUT, value=1), width=64, height=16,
                          first='top-right', serpentine=True)
    return [MatrixLayout(panel)]


def wiring():
    # As built, for the virtual board (tools/virtual): two rows of FC-16 bars in one chain on
    # SPI0, LOAD GP17, from the top right, the bottom row back from the left upside down.
    return [[{'chip': 'max7219-matrix', 'spi': 0, 'cs': 17, 'width': 64, 'height': 16,
              'first': 'top-right', 'serpentine': True}]]
