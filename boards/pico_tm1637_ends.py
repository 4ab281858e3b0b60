"""Pico + a TM1637 pair at each end of the table. Wiring: boards/pico_tm1637_ends.md"""
MCU = 'rp2'
# Buttons from the GPIO to GND (internal pull-ups); RED_MINUS and BLUE_MINUS are optional.
BUTTONS = {'RED': 14, 'BLUE': 15, 'OK': 16, 'RED_MINUS': 12, 'BLUE_MINUS': 13}
WATCHDOG_MS = 8000


def displays():
    from machine import Pin
    from scoreboard.drivers.tm1637 import TM1637
    from scoreboard.render.segments import SidesLayout
    near = SidesLayout(TM1637(clk=Pin(2), dio=Pin(3), colour='red'),
                       TM1637(clk=Pin(4), dio=Pin(5), colour='blue'))
    # The far pair hangs at the end of a long cable: a slower bit clock keeps its edges clean.
    far = SidesLayout(TM1637(clk=Pin(6), dio=Pin(7), colour='red', delay_us=50),
                      TM1637(clk=Pin(8), dio=Pin(9), colour='blue', delay_us=50))
    return [near, far]


def wiring():
    # As built, for the virtual board (tools/virtual): a pair of 4-digit clock modules at each
    # end, grids left to right, no decimal points, the colon on digit 2's dp line.
    def clock(clk, colour):
        return {'chip': 'tm1637', 'clk': clk, 'dio': clk + 1, 'digits': 4,
                'grids': (0, 1, 2, 3), 'dp': (), 'colon': 1, 'colour': colour}
    return [[clock(2, 'red'), clock(4, 'blue')], [clock(6, 'red'), clock(8, 'blue')]]
