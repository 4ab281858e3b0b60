"""Pico + six big WS2812 strip digits, red and blue. Build: boards/pico_ws2812_digits.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000

# Optional parts (DESIGN section 11; delete a line for a board built without it).
# A 433 MHz superheterodyne receiver (RXB6) with an EV1527 keyfob, DATA on GP17: every fob has
# its own 20-bit ID, so these codes are an example; the menu's `learn` item binds your fob
# (A, B, C for RED, BLUE, OK; A and B together are the RED+BLUE chord) and keeps its codes.
RF = {'pin': 17, 'codes': {0x5A5A58: 'RED', 0x5A5A54: 'BLUE', 0x5A5A52: 'OK'}}
# A light-dependent resistor divider on GP26 (ADC0): brightness `auto` follows the room.
LIGHT = 26

# The strip as it is glued: six digits in one chain (red's three on the left, blue's three on
# the right), every digit the same path. LEDS_PER_SEGMENT LEDs a piece (3 on a 60 LED/m strip
# give a 5 cm segment, a 10 cm digit); the pieces follow SEGMENT_ORDER (0 = a .. 6 = g): up the
# left upper side (f), along the top (a), down the right upper side (b), back along the middle
# (g), down the left lower side (e), along the bottom (d), up the right lower side (c); then
# DP_LEDS for the hammer marker at the bottom right, as large as a segment.
DIGITS = 6
LEDS_PER_SEGMENT = 3
SEGMENT_ORDER = b'\x05\x00\x01\x06\x04\x03\x02'
DP_LEDS = 3
DATA_PIN = 22


def displays():
    from machine import Pin
    from scoreboard.drivers.ws2812_digits import WS2812Digits
    from scoreboard.render.single import SingleLayout
    from scoreboard.ws2812_pio import PioNeoPixel
    # Data on GP22 through a 74AHCT125 powered from 5 V and a 330 ohm resistor at the strip.
    # Written by a PIO state machine (state machine 0), not `neopixel`: neopixel turns
    # interrupts off for the whole strip (4.3 ms), and the RF receiver's IRQ would miss the fob.
    pin = Pin(DATA_PIN, Pin.OUT)
    np = PioNeoPixel(pin, DIGITS * (7 * LEDS_PER_SEGMENT + DP_LEDS))
    digits = WS2812Digits(pin, digits=DIGITS, leds=LEDS_PER_SEGMENT,
                          seg_order=SEGMENT_ORDER, dp_leds=DP_LEDS, np=np,
                          colours=('red',) * (DIGITS // 2) + ('blue',) * (DIGITS // 2))
    return [SingleLayout(digits)]


def wiring():
    # As glued, for the virtual board (tools/virtual): one chain of DIGITS digits on DATA_PIN,
    # LEDS_PER_SEGMENT LEDs a piece in SEGMENT_ORDER, then DP_LEDS for the marker.
    return [[{'chip': 'ws2812-digits', 'pin': DATA_PIN, 'digits': DIGITS,
              'leds': LEDS_PER_SEGMENT, 'seg_order': SEGMENT_ORDER, 'dp_leds': DP_LEDS}]]
