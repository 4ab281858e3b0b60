"""ESP32 + six big WS2812 strip digits, red and blue. Build: boards/esp32_ws2812_digits.md"""
MCU = 'esp32'
# Wi-Fi (built into the ESP32): for the phone remote and the venue link once the network part
# lands; until then this board plays exactly as pico_ws2812_digits.
NETWORK = 'wlan'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 25, 'BLUE': 26, 'OK': 27, 'RED_MINUS': 32, 'BLUE_MINUS': 33}
WATCHDOG_MS = 8000

# The strip as it is glued, as on pico_ws2812_digits: six digits in one chain (red's three on
# the left), LEDS_PER_SEGMENT LEDs a piece, the pieces in SEGMENT_ORDER (0 = a .. 6 = g:
# f, a, b, g, e, d, c, one unbroken path), then DP_LEDS for the hammer marker.
DIGITS = 6
LEDS_PER_SEGMENT = 3
SEGMENT_ORDER = b'\x05\x00\x01\x06\x04\x03\x02'
DP_LEDS = 3
DATA_PIN = 13


def displays():
    from machine import Pin
    from scoreboard.drivers.ws2812_digits import WS2812Digits
    from scoreboard.render.single import SingleLayout
    # Data on GPIO13 through a 74AHCT125 powered from 5 V and a 330 ohm resistor at the strip.
    digits = WS2812Digits(Pin(DATA_PIN, Pin.OUT), digits=DIGITS, leds=LEDS_PER_SEGMENT,
                          seg_order=SEGMENT_ORDER, dp_leds=DP_LEDS,
                          colours=('red',) * (DIGITS // 2) + ('blue',) * (DIGITS // 2))
    return [SingleLayout(digits)]


def wiring():
    # As glued, for the virtual board (tools/virtual): one chain of DIGITS digits on DATA_PIN,
    # LEDS_PER_SEGMENT LEDs a piece in SEGMENT_ORDER, then DP_LEDS for the marker.
    return [[{'chip': 'ws2812-digits', 'pin': DATA_PIN, 'digits': DIGITS,
              'leds': LEDS_PER_SEGMENT, 'seg_order': SEGMENT_ORDER, 'dp_leds': DP_LEDS}]]
