"""ESP32 + WS2812B 32x8 colour LED panel. Wiring: boards/esp32_ws2812.md"""
MCU = 'esp32'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 25, 'BLUE': 26, 'OK': 27, 'RED_MINUS': 32, 'BLUE_MINUS': 33}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin
    from scoreboard.drivers.ws2812_panel import WS2812Panel
    from scoreboard.render.matrix import MatrixLayout
    # Data on GPIO 13 through a 74AHCT125 level shifter and a 330 ohm resistor. The flexible
    # 8x32 panels chain in columns of 8, zig-zag, LED 0 at the top left seen from the front.
    panel = WS2812Panel(Pin(13, Pin.OUT), width=32, height=8, vertical=True, serpentine=True,
                        start='top-left')
    return [MatrixLayout(panel, colour=True)]


def wiring():
    # As built, for the virtual board (tools/virtual): the 8x32 panel on GPIO 13, in columns
    # of 8, zig-zag, LED 0 at the top left seen from the front.
    return [[{'chip': 'ws2812-panel', 'pin': 13, 'width': 32, 'height': 8, 'vertical': True,
              'serpentine': True, 'start': 'top-left'}]]
