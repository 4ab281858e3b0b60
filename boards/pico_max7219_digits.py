"""Pico + one MAX7219 8-digit module. Wiring: boards/pico_max7219_digits.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin, SPI
    from scoreboard.drivers.max7219_digits import MAX7219Digits
    from scoreboard.render.single import SingleLayout
    spi = SPI(0, baudrate=5000000, polarity=0, phase=0, sck=Pin(18), mosi=Pin(19))
    return [SingleLayout(MAX7219Digits(spi, Pin(17, Pin.OUT, value=1), colour='red'))]


def wiring():
    # As built, for the virtual board (tools/virtual): one 8-digit module (digit 7 leftmost, a
    # point on every digit) on SPI0, LOAD GP17.
    return [[{'chip': 'max7219-digits', 'spi': 0, 'cs': 17, 'modules': 1, 'colour': 'red'}]]
