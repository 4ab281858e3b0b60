"""Pico W + two TM1637 4-digit modules, one a side. Build: boards/pico_w_tm1637.md"""
MCU = 'rp2'
# Wi-Fi (the CYW43 on the Pico W): for the phone remote once the network part lands; until then
# this board plays exactly as pico_tm1637.
NETWORK = 'wlan'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin
    from scoreboard.drivers.tm1637 import TM1637
    from scoreboard.render.segments import SidesLayout
    red = TM1637(clk=Pin(2), dio=Pin(3), digits=4, colour='red')
    blue = TM1637(clk=Pin(4), dio=Pin(5), digits=4, colour='blue')
    # The common 4-digit "clock" modules have no decimal points, only the colon (digit 1's dp),
    # too small to read across the room: the hammer (blinking: the turn) is a digit cell of its
    # own, segment d lit (SidesLayout's default marker).
    return [SidesLayout(red, blue)]


def wiring():
    # As built, for the virtual board (tools/virtual): 4-digit clock modules, grids left to
    # right, no decimal points, the colon (between digits 2 and 3) on digit 2's dp line.
    return [[{'chip': 'tm1637', 'clk': 2, 'dio': 3, 'digits': 4, 'grids': (0, 1, 2, 3),
              'dp': (), 'colon': 1, 'colour': 'red'},
             {'chip': 'tm1637', 'clk': 4, 'dio': 5, 'digits': 4, 'grids': (0, 1, 2, 3),
              'dp': (), 'colon': 1, 'colour': 'blue'}]]
