"""Pico + two TM1637 4-digit modules, one a side. Wiring: boards/pico_tm1637.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000

# Optional parts (DESIGN section 11; delete a line for a board built without it).
# A VS1838B infrared receiver's OUT on GP17: the keys of the common 21-key NEC remote ("Car
# MP3", address 0x00): |<< RED, >>| BLUE, >|| OK, - RED_MINUS, + BLUE_MINUS. The menu's
# `learn` item binds any other NEC remote and keeps its codes on flash instead of these.
IR = {'pin': 17, 'codes': {0x44: 'RED', 0x40: 'BLUE', 0x43: 'OK', 0x07: 'RED_MINUS',
                           0x15: 'BLUE_MINUS'}}
# A passive piezo on GP18 through an NPN transistor: click, chime, win tune, refusal buzz.
BUZZER = 18


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
