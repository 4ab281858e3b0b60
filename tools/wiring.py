#!/usr/bin/env python3
"""Wiring pictures and pin tables, drawn from the board files themselves.

  tools/wiring.py --board pico_tm1637 [--out DIR]   one board: DIR/<board>-wiring.png
  tools/wiring.py --pictures docs/pictures          every board's picture
  tools/wiring.py --pages                           rewrite the pin table in every build page
  tools/wiring.py --board NAME --text               the pin table, as markdown

Nothing here knows a board's pins. The board is built on the virtual machine stand-in
(tools/virtual/machine.py) exactly as the simulator builds it: the board file makes its displays
and the app makes its buttons, and the picture is drawn from the Pin and SPI objects the
drivers and the buttons ended up holding. So the picture and the table cannot disagree with the
board file: change a pin there and both change (`make pictures` redraws them, and a test checks
that the committed ones are current).
"""
import argparse
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
import paths  # noqa: E402
import sim_engine  # noqa: E402

# What each driver is as a part, and the names of the part's own pins for the driver's
# attributes ('spi.sck' is the clock pin the SPI bus was built with). Part facts, not pins.
#   class name: (part, ((attribute, part pin, note), ...), power)
PARTS = {
    'TM1637': ('TM1637 4-digit module',
               (('clk', 'CLK', ''), ('dio', 'DIO', 'open drain')),
               'VCC to 3V3(OUT), GND to GND'),
    'MAX7219Digits': ('MAX7219 8-digit module',
                      (('spi.mosi', 'DIN', 'via 74AHCT125'), ('cs', 'CS (LOAD)', 'via 74AHCT125'),
                       ('spi.sck', 'CLK', 'via 74AHCT125')),
                      'VCC to 5 V, GND to GND'),
    'MAX7219Matrix': ('MAX7219 8x8 chain',
                      (('spi.mosi', 'DIN', 'via 74AHCT125'), ('cs', 'CS (LOAD)', 'via 74AHCT125'),
                       ('spi.sck', 'CLK', 'via 74AHCT125')),
                      'VCC to the 5 V supply, GND to GND'),
    'SR595': ('TPIC6B595 chain, one a digit',
              (('spi.mosi', 'SER IN', 'via 74AHCT125'), ('data', 'SER IN', 'via 74AHCT125'),
               ('spi.sck', 'SRCK', 'via 74AHCT125'), ('clock', 'SRCK', 'via 74AHCT125'),
               ('latch', 'RCK', 'via 74AHCT125'), ('oe', '/G', 'via 74AHCT125, PWM')),
              'VCC to 5 V; digits\' anodes to 12 V'),
    'WS2812Digits': ('WS2812B strip digits',
                     (('pin', 'DIN', 'via 74AHCT125 + 330 ohm'),),
                     '+5V and GND to the 5 V supply'),
    'WS2812Panel': ('WS2812B LED panel',
                    (('pin', 'DIN', 'via 74AHCT125 + 330 ohm'),),
                    '+5V and GND to the 5 V supply'),
}

# The optional parts of DESIGN section 11, found on the built app (its receivers, buzzer and
# light sensor): (part, detail, part pin, note, power).
OPTIONAL = {
    'ir': ('VS1838B infrared receiver', 'NEC remote, 38 kHz', 'OUT', 'active low',
           'VCC to 3V3(OUT) via 100 ohm, 4.7 uF to GND'),
    'rf': ('433 MHz receiver (RXB6)', 'superheterodyne, EV1527 keyfobs', 'DATA', '',
           'VCC to 3V3(OUT), GND; 17.3 cm wire antenna'),
    'buzzer': ('passive piezo buzzer', 'switched by an S8050 or 2N2222 NPN transistor',
               'BASE', 'via 1 kohm, PWM',
               'piezo from VSYS to the collector, emitter to GND'),
    'light': ('light sensor: LDR divider', 'GL5528 LDR to 3V3, 10 kohm to GND',
              'MIDPOINT', 'ADC, 100 nF to GND', 'LDR to 3V3(OUT), 10 kohm to AGND'),
}

# Raspberry Pi Pico / Pico W / Pico 2: GPn -> the pin number on the board's edge.
PICO_PINS = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
             12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
             22: 29, 26: 31, 27: 32, 28: 34}
POWER_PINS = {'rp2': 'VSYS pin 39, 3V3(OUT) pin 36, GND pin 38',
              'esp32': '5V (VIN), 3V3, GND'}
BUTTON_LABEL = {'RED': 'RED', 'BLUE': 'BLUE', 'OK': 'OK', 'RED_MINUS': 'RED- (optional)',
                'BLUE_MINUS': 'BLUE- (optional)'}


def mcu_name(board):
    mcu = getattr(board, 'MCU', None)
    wifi = getattr(board, 'NETWORK', None)
    if mcu == 'rp2':
        return 'Raspberry Pi Pico W' if wifi else 'Raspberry Pi Pico'
    if mcu == 'esp32':
        return 'ESP32 DevKitC'
    return str(mcu or 'MCU')


def pin_label(board, pin_id):
    if getattr(board, 'MCU', None) == 'rp2':
        phys = PICO_PINS.get(pin_id)
        return 'GP%d (pin %s)' % (pin_id, phys if phys is not None else '?')
    if getattr(board, 'MCU', None) == 'esp32':
        return 'GPIO%d' % pin_id
    return 'pin %s' % (pin_id,)


# -- reading the board off the virtual machine ----------------------------------------------

class _Null:
    def write(self, s):
        pass


def _recording_spi(machine):
    """SPI and SoftSPI classes that remember the pins they were built with (the stand-in
    machine's buses keep only their id)."""
    base, soft = machine.SPI, machine.SoftSPI

    class SPI(base):
        def __init__(self, id=0, *args, sck=None, mosi=None, miso=None, **kw):
            super().__init__(id, *args, sck=sck, mosi=mosi, miso=miso, **kw)
            self.sck, self.mosi = sck, mosi

    class SoftSPI(soft):
        def __init__(self, *args, sck=None, mosi=None, miso=None, **kw):
            super().__init__(*args, sck=sck, mosi=mosi, miso=miso, **kw)
            self.sck, self.mosi = sck, mosi

    return base, soft, SPI, SoftSPI


def _part_kind(cls):
    if cls.__name__ in PARTS:
        return cls.__name__
    for b in cls.__bases__:
        k = _part_kind(b)
        if k:
            return k
    return None


def _get(obj, path):
    for name in path.split('.'):
        obj = getattr(obj, name, None)
        if obj is None:
            return None
    return obj


def _describe(kind, drv):
    """The part's title from what the driver holds (colour, digits, LEDs, size)."""
    title = PARTS[kind][0]
    bits = []
    colour = getattr(drv, 'colour', None)
    if kind == 'WS2812Digits':
        cols = ['red' if c[0] > c[2] else 'blue' for c in drv.colours]
        bits.append('%d LEDs: %d digits (%d red, %d blue), %d a segment, %d the marker' % (
            drv.width * drv.per_digit, drv.width, cols.count('red'), cols.count('blue'),
            drv.leds, drv.dp_leds))
    elif kind == 'WS2812Panel':
        bits.append('%dx%d, %d LEDs' % (drv.width, drv.height, drv.width * drv.height))
    elif kind == 'MAX7219Matrix':
        bits.append('%dx%d, %d chips' % (drv.width, drv.height, drv.n))
    elif kind in ('SR595', 'TM1637', 'MAX7219Digits'):
        bits.append('%d digits' % drv.width)
    if isinstance(colour, str):
        bits.insert(0, colour)
    return title, ', '.join(bits)


def read_board(name, folder=None):
    """The board built on the virtual machine: {'name', 'mcu', 'parts': [...], 'buttons': [...]}.

    parts: one dict a driver, in display order: display (1-based), title, detail, power and
    pins [(part pin, pin id, note)]. buttons: [(name, pin id)] in key order.
    name may be a path to a board file outside boards/ (its folder goes on the path)."""
    paths.virtual()
    if folder is None and (os.sep in name or name.endswith('.py')):
        folder, name = os.path.split(os.path.abspath(name))
        name = name[:-3] if name.endswith('.py') else name
    if folder:
        paths.add(folder)
    import machine
    base, soft, spi, softspi = _recording_spi(machine)
    machine.SPI, machine.SoftSPI = spi, softspi
    try:
        with tempfile.TemporaryDirectory() as flash:
            sim = sim_engine.Sim(name, flash, _Null())
            board = sim.board
            parts = []
            for n, disp in enumerate(sim.app.displays, 1):
                for drv in getattr(disp, 'drivers', ()):
                    kind = _part_kind(type(drv))
                    if kind is None:
                        parts.append({'display': n, 'title': type(drv).__name__,
                                      'detail': '', 'power': '', 'pins': []})
                        continue
                    title, detail = _describe(kind, drv)
                    pins = []
                    for attr, label, note in PARTS[kind][1]:
                        pid = _pin_id(_get(drv, attr))
                        if pid is not None and not any(x[0] == label for x in pins):
                            pins.append((label, pid, note))
                    parts.append({'display': n, 'title': title, 'detail': detail,
                                  'power': PARTS[kind][2], 'pins': pins, 'kind': kind,
                                  'rows': getattr(drv, 'height', 8) // 8,
                                  'digits': getattr(drv, 'width', 0)})
            parts += _optional_parts(sim.app)
            from scoreboard.ui.keys import NAMES
            buttons = []
            bt = sim.app.buttons
            for pin, bit in zip(bt._pins, bt._bits):
                k = 0
                while (1 << k) != bit:
                    k += 1
                buttons.append((NAMES[k], pin.id))
            buttons.sort(key=lambda b: NAMES.index(b[0]))
            return {'name': name, 'board': board, 'mcu': mcu_name(board),
                    'displays': len(sim.app.displays), 'parts': parts, 'buttons': buttons}
    finally:
        machine.SPI, machine.SoftSPI = base, soft


def _pin_id(p):
    # A Pin (its id), a wire's end, or a PWM on a pin (a dimmed /OE, a buzzer).
    if p is None:
        return None
    for path in ('id', '_line.id', 'pin.id', 'pin._line.id'):
        pid = _get(p, path)
        if pid is not None:
            return pid
    return None


def _optional_parts(app):
    """The remotes' receivers, the buzzer and the light sensor the app built."""
    found = []
    for r in getattr(app, 'remotes', ()):
        found.append((r.kind, r.pin))
    if getattr(app, 'sound', None) is not None:
        found.append(('buzzer', getattr(app.sound._pwm, 'pin', None)))
    if getattr(app, 'light', None) is not None:
        found.append(('light', getattr(app.light._adc, 'pin', None)))
    out = []
    for kind, pin in found:
        title, detail, label, note, power = OPTIONAL[kind]
        pid = _pin_id(pin)
        out.append({'display': None, 'title': title, 'detail': detail, 'power': power,
                    'pins': [(label, pid, note)] if pid is not None else [], 'kind': kind})
    return out


# -- the pin table (markdown) -----------------------------------------------------------------

def table(w):
    b = w['board']
    rows = ['| part | part pin | %s pin | notes |' % w['mcu'], '|---|---|---|---|']
    for p in w['parts']:
        where = ('display %d: ' % p['display']) if w['displays'] > 1 and p['display'] else ''
        for label, pid, note in p['pins']:
            rows.append('| %s%s | %s | %s | %s |' % (where, _md_title(p), label,
                                                      pin_label(b, pid), note))
    for name, pid in w['buttons']:
        rows.append('| button %s | one contact | %s | other contact to GND; internal pull-up |'
                    % (BUTTON_LABEL[name], pin_label(b, pid)))
    return '\n'.join(rows) + '\n'


def _md_title(p):
    return p['title'] + (' (%s)' % p['detail'] if p['detail'] else '')


BEGIN = '<!-- wiring: begin (tools/wiring.py --pages writes this table from the board file) -->'
END = '<!-- wiring: end -->'


SH_BEGIN = ('<!-- shifter: begin (tools/wiring.py --pages writes this table from the board '
            'file) -->')
SH_END = '<!-- shifter: end -->'


def shifter_table(w):
    """The 74AHCT125's every pin, as the picture draws it: which gate carries which signal, the
    enables, the unused gates, the supply and its capacitor."""
    sh = circuit(w)['shifter']
    b = w['board']
    rows = ['| 74AHCT125 gate | input nA | output nY | enable n/OE | from | to |',
            '|---|---|---|---|---|---|']
    via = {}
    for p in circuit(w)['parts']:
        for _, pid, _, v in p['signals']:
            via[pid] = [x[1] for x in v if x[0] == 'R']
    for g, pid, title, label in sh['gates']:
        a, y, oe = GATES[g]
        to = '%s %s' % (title.split(' (')[0], label)
        if via.get(pid):
            to += ' (through the %s resistor)' % via[pid][0]
        rows.append('| %d | pin %d | pin %d | pin %d to GND | %s | %s |' % (
            g, a, y, oe, pin_label(b, pid), to))
    for g in sh['unused']:
        a, y, oe = GATES[g]
        rows.append('| %d (unused) | pin %d to GND | pin %d open | pin %d to GND | – | – |' % (
            g, a, y, oe))
    rows.append('| supply | pin 14 VCC to 5 V | pin 7 GND to GND | 100 nF across pins 14 and 7, '
                'at the chip | | |')
    return '\n'.join(rows) + '\n'


def page_text(text, w):
    """The build page's text with its pin table block (and its level-shifter table, where the
    board has one) replaced by the current one."""
    block = BEGIN + '\n' + table(w) + END
    pat = re.compile(re.escape(BEGIN) + '.*?' + re.escape(END), re.S)
    if not pat.search(text):
        raise ValueError('no wiring block (%s ... %s) in the page' % (BEGIN, END))
    text = pat.sub(lambda m: block, text)
    sh = re.compile(re.escape(SH_BEGIN) + '.*?' + re.escape(SH_END), re.S)
    if circuit(w)['shifter'] is not None:
        if not sh.search(text):
            raise ValueError('no level-shifter block (%s ... %s) in the page' % (SH_BEGIN,
                                                                                 SH_END))
        block = SH_BEGIN + '\n' + shifter_table(w) + SH_END
        text = sh.sub(lambda m: block, text)
    return text


# -- the circuit: what goes between the pins -------------------------------------------------
# Part facts, not pins: what a kind of part needs between the MCU and itself (a level shifter's
# gate, a series resistor), which supply rail each of its power pins takes, the capacitors at it
# and its notes. Which supply the board has follows from its parts: LED strips, panels and
# matrices need a 5 V supply of their own, the 595 digits 12 V; TM1637 modules and one MAX7219
# module run from USB. circuit() returns everything the picture draws, and `drawn`, the name of
# every component in it, which a test holds against each build page's parts list.

SHIFTED = ('MAX7219Digits', 'MAX7219Matrix', 'SR595', 'WS2812Digits', 'WS2812Panel')
# 74AHCT125 (DIP-14) gates: (input nA, output nY, enable n/OE) pin numbers.
GATES = {1: (2, 3, 1), 2: (5, 6, 4), 3: (9, 8, 10), 4: (12, 11, 13)}
SERIES = {'WS2812Digits': {'DIN': '330 ohm'}, 'WS2812Panel': {'DIN': '330 ohm'}}
RAIL_INK = {'3V3': (230, 120, 0), '3V3 far': (200, 150, 30), '+5V': (210, 20, 20),
            'VSYS': (160, 0, 90), '+12V': (140, 40, 170), 'GND': (20, 20, 20)}


def _supply(w):
    kinds = {p.get('kind') for p in w['parts']}
    esp = getattr(w['board'], 'MCU', None) == 'esp32'
    tm = [p for p in w['parts'] if p.get('kind') == 'TM1637']
    far = len({p['display'] for p in tm}) > 1
    s = {'sources': [], 'mcu': [], 'rails': []}
    vsys = 'VSYS pin 39' if not esp else '5V pin'
    if 'SR595' in kinds:
        s['sources'] = [('12 V supply', 'fuse', '+12V', None),
                        ('buck converter, set to 5.0 V', None, '+5V', '+12V')]
        s['mcu'] = [(vsys, '+5V', '1N5819')]
    elif kinds & {'WS2812Digits', 'WS2812Panel', 'MAX7219Matrix'}:
        s['sources'] = [('5 V supply', 'fuse', '+5V', None)]
        s['mcu'] = [(vsys, '+5V', '1N5819')]
    else:
        s['usb'] = True
        if 'MAX7219Digits' in kinds or far:
            s['mcu'] = [('VBUS pin 40' if not esp else '5V pin', '+5V', None)]
        if far:
            s['sources'] = [('AMS1117-3.3 module (far end)', None, '3V3 far', '+5V')]
    s['mcu'].insert(0, ('3V3(OUT) pin 36' if not esp else '3V3 pin', '3V3', None))
    s['mcu'].append(('GND pin 38' if not esp else 'GND pin', 'GND', None))
    if w['buttons'] and any(p.get('kind') == 'buzzer' for p in w['parts']) and not esp:
        s['mcu'].insert(1, ('VSYS pin 39', 'VSYS', None))
    s['far'] = far
    return s


def circuit(w):
    """What the picture draws: rails, sources, the MCU's power pins, each part's signal and
    power rows (with what sits in each wire), the level shifter, the buttons, and `drawn`."""
    sup = _supply(w)
    drawn = []
    rows_of = []
    gate = 0
    shifter = None
    for p in w['parts']:
        kind = p.get('kind')
        sig = []
        for label, pid, note in p['pins']:
            via = []
            if kind in SHIFTED:
                gate += 1
                if shifter is None:
                    shifter = {'gates': []}
                shifter['gates'].append((gate, pid, p['title'], label))
                via.append(('gate', gate))
            r = SERIES.get(kind, {}).get(label)
            if kind == 'buzzer':
                r = '1 kohm'
            if r:
                via.append(('R', r))
                drawn.append(r + ' resistor')
            sig.append((label, pid, note, via))
        pw, caps, notes = [], [], []
        if kind == 'TM1637':
            rail = '3V3 far' if sup['far'] and p['display'] > 1 else '3V3'
            pw = [('VCC', rail, []), ('GND', 'GND', [])]
            if sup['far'] and p['display'] > 1:
                notes.append('CLK, DIO, 3V3 far and GND over the Cat5 cable (RJ45 breakouts)')
                drawn += ['Cat5 cable', 'RJ45 breakout']
        elif kind == 'MAX7219Digits':
            pw = [('VCC', '+5V', []), ('GND', 'GND', [])]
            caps.append('100 uF')
        elif kind == 'MAX7219Matrix':
            pw = [('VCC', '+5V', []), ('GND', 'GND', [])]
            caps.append('470 uF' + (' at each of the %d rows' % p['rows'] if p['rows'] > 1
                                    else ''))
            notes.append('DOUT of each module to DIN of the next (the header chain)')
        elif kind == 'SR595':
            pw = [('VCC', '+5V', []), ('GND', 'GND', []), ('digit anodes', '+12V', [])]
            caps.append('100 nF at each register (%d)' % p['digits'])
            notes.append('DRAIN0-7 of each register: a 200 ohm resistor each, to its digit\'s '
                         'segment cathodes (%d resistors)' % (8 * p['digits']))
            notes.append('SER OUT to the next register\'s SER IN; SRCK, RCK, /G to every '
                         'register; SRCLR to 5 V')
            drawn += ['200 ohm resistor', 'common-anode 7-segment digit', 'TPIC6B595']
        elif kind in ('WS2812Digits', 'WS2812Panel'):
            pw = [('+5V', '+5V', []), ('GND', 'GND', [])]
            caps.append('1000 uF at the input')
            notes.append('the resistor close to the first LED\'s DIN')
        elif kind == 'ir':
            pw = [('VCC', '3V3', [('R', '100 ohm')]), ('GND', 'GND', [])]
            caps.append('4.7 uF at the receiver')
            drawn += ['100 ohm resistor', 'VS1838B']
        elif kind == 'rf':
            pw = [('VCC', '3V3', []), ('GND', 'GND', [])]
            notes.append('ANT: a 17.3 cm straight wire')
            drawn += ['RXB6']
        elif kind == 'buzzer':
            pw = [('piezo +, diode cathode', 'VSYS' if 'VSYS' in
                   [m[1] for m in sup['mcu']] else '+5V', []), ('emitter', 'GND', [])]
            drawn += ['S8050 NPN transistor', '1N4148 diode', 'passive piezo buzzer']
        elif kind == 'light':
            pw = [('LDR', '3V3', []), ('10 kohm, 100 nF', 'GND', [])]
            drawn += ['GL5528 LDR', '10 kohm resistor', '100 nF capacitor']
        for c in caps:
            drawn.append(c.split(' at ')[0] + ' capacitor')
        rows_of.append({'part': p, 'signals': sig, 'power': pw, 'caps': caps, 'notes': notes})
    if shifter is not None:
        used = [g for g, _, _, _ in shifter['gates']]
        shifter['unused'] = [g for g in GATES if g not in used]
        drawn += ['74AHCT125', '100 nF capacitor']
    uses = {rail for r in rows_of for _, rail, _ in r['power']}
    if '3V3' not in uses:
        sup['mcu'] = [m for m in sup['mcu'] if m[1] != '3V3']
    rails = []
    for _, _, rail, frm in sup['sources']:
        rails += [r for r in (frm, rail) if r]
    for _, rail, _ in sup['mcu']:
        rails.append(rail)
    for r in rows_of:
        rails += [rail for _, rail, _ in r['power']]
    if shifter is not None:
        rails += ['+5V', 'GND']
    order = ['3V3', '3V3 far', 'VSYS', '+5V', '+12V', 'GND']
    rails = [r for r in order if r in rails]
    for name, fuse, _, _ in sup['sources']:
        drawn.append(name)
        if fuse:
            drawn.append('fuse')
    for _, _, diode in sup['mcu']:
        if diode:
            drawn.append(diode + ' Schottky diode')
    if sup.get('usb'):
        drawn.append('USB charger')
    drawn += ['arcade push button', 'spade crimp terminal']
    return {'supply': sup, 'rails': rails, 'parts': rows_of, 'shifter': shifter,
            'drawn': sorted(set(drawn))}


# -- the picture --------------------------------------------------------------------------------

BG = (250, 250, 246)
INK = (30, 30, 30)
GREY = (120, 120, 120)
BOX = (255, 255, 255)
MCU_FILL = (222, 240, 222)
CHIP_FILL = (235, 235, 250)
WIRE = {'CLK': (200, 150, 0), 'SRCK': (200, 150, 0), 'DIO': (20, 140, 60),
        'DIN': (20, 140, 60), 'SER IN': (20, 140, 60), 'CS (LOAD)': (130, 60, 170),
        'RCK': (130, 60, 170), '/G': (90, 90, 90), 'OUT': (200, 90, 20), 'DATA': (200, 90, 20),
        'BASE': (150, 40, 110), 'MIDPOINT': (40, 130, 160)}
BUTTON_INK = {'RED': (210, 30, 30), 'BLUE': (30, 70, 210), 'OK': (60, 60, 60),
              'RED_MINUS': (230, 120, 120), 'BLUE_MINUS': (120, 150, 230)}
ROW = 22
PAD = 14
WIDTH = 1500
MCU_X1 = 290
RAIL_X0, RAIL_DX = 316, 30
GATE_X = 520
RES_X = 660
CAP_X = 800
PART_X0 = 850


def _font(size):
    from PIL import ImageFont
    return ImageFont.load_default(size)   # Pillow's own font: the same picture everywhere


def _ohm(s):
    # Pillow's own font has no Ω or µ: the picture writes ohm and uF, as the pin table does
    return s


def _resistor(d, x, y, label, colour, fs):
    """A resistor (IEC box) centred at x in a horizontal wire at y, its value above."""
    d.rectangle([x - 22, y - 7, x + 22, y + 7], fill=BOX, outline=colour, width=2)
    d.text((x - 22, y - 22), _ohm(label), font=fs, fill=INK)


def _buffer(d, x, y, n, colour, fs):
    """A 74AHCT125 gate in the wire: a triangle, its input and output pins named."""
    a, yo, oe = GATES[n]
    d.polygon([(x - 14, y - 12), (x - 14, y + 12), (x + 14, y)], fill=CHIP_FILL, outline=INK)
    d.text((x - 92, y - 22), '%dA pin %d' % (n, a), font=fs, fill=INK)
    d.text((x + 18, y - 22), '%dY pin %d' % (n, yo), font=fs, fill=INK)
    d.text((x - 20, y + 12), '74AHCT125 gate %d' % n, font=fs, fill=GREY)


def _cap(d, x, y0, y1, label, fs):
    """A capacitor standing between two horizontal wires (y0 above, y1 below) at x."""
    m = (y0 + y1) // 2
    d.line([x, y0, x, m - 4], fill=INK, width=2)
    d.line([x, m + 4, x, y1], fill=INK, width=2)
    d.line([x - 10, m - 4, x + 10, m - 4], fill=INK, width=3)
    d.line([x - 10, m + 4, x + 10, m + 4], fill=INK, width=3)
    for yy in (y0, y1):
        d.ellipse([x - 4, yy - 4, x + 4, yy + 4], fill=INK)
    d.text((x + 14, m - 7), _ohm(label), font=fs, fill=INK)


def _diode(d, x, y, label, fs, pointing=-1):
    """A diode in a horizontal wire, conducting towards `pointing` (-1: to the left)."""
    tip = x + 10 * pointing
    back = x - 10 * pointing
    d.polygon([(back, y - 8), (back, y + 8), (tip, y)], fill=INK)
    d.line([tip, y - 8, tip, y + 8], fill=INK, width=3)
    d.text((x - 30, y + 8), label, font=fs, fill=INK)


def _dot(d, x, y, colour):
    d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)


def picture(w):
    """A PIL image of the board's wiring: the MCU on the left with the pins in use, the supply
    rails beside it (every power wire drawn to its rail), what sits in each wire (level-shifter
    gates, resistors) in the middle, each part to the right with its pins, the capacitors at
    it and the small circuits (buzzer driver, light sensor), then the level shifter's own pins
    and the buttons."""
    from PIL import Image, ImageDraw
    f, fb, fs = _font(14), _font(16), _font(12)
    b = w['board']
    c = circuit(w)
    rails = c['rails']
    rail_x = {r: RAIL_X0 + RAIL_DX * i for i, r in enumerate(rails)}
    # -- lay the rows out first ------------------------------------------------------------
    y = 126
    src_rows = []
    for src in c['supply']['sources']:
        src_rows.append((y, src))
        y += 44
    mcu_rows = []
    for m in c['supply']['mcu']:
        mcu_rows.append((y, m))
        y += ROW + (20 if m[2] else 8)
    y += PAD
    blocks = []
    for r in c['parts']:
        top = y
        y += ROW * 2 + 6
        sig = []
        for s in r['signals']:
            y += 10 if s[3] else 0
            sig.append((y, s))
            y += ROW + (18 if s[3] else 0)
        pw = []
        for pr in r['power']:
            pw.append((y, pr))
            y += ROW + 6
        notes_y = y
        y += ROW * len(r['notes']) + {'buzzer': 3 * ROW, 'light': ROW}.get(
            r['part'].get('kind'), 0)
        blocks.append((top, y + 4, r, sig, pw, notes_y))
        y += PAD + 8
    sh_rows = []
    if c['shifter'] is not None:
        sh_top = y
        y += ROW * 2 + 6
        for g, pid, title, label in c['shifter']['gates']:
            sh_rows.append((y, 'text', 'gate %d: %dA pin %d from %s, %dY pin %d to %s %s' % (
                g, g, GATES[g][0], pin_label(b, pid), g, GATES[g][1], title.split(' (')[0],
                label)))
            y += ROW
        sh_rows.append((y, '+5V', 'pin 14 VCC to 5 V'))
        y += ROW + 4
        oes = ', '.join('%d' % GATES[g][2] for g in sorted(GATES))
        sh_rows.append((y, 'GND', 'pin 7 GND; /OE pins %s to GND' % oes))
        y += ROW + 4
        for g in c['shifter']['unused']:
            sh_rows.append((y, 'GND', 'unused gate %d: %dA pin %d to GND (%dY pin %d open)' % (
                g, g, GATES[g][0], g, GATES[g][1])))
            y += ROW + 4
        sh_bottom = y + 4
        y += PAD + 8
    btn_top = y
    y += ROW + 6
    btn_rows = []
    for name, pid in w['buttons']:
        btn_rows.append((y, name, pid))
        y += ROW + 6
    gnd_join = y
    y += ROW
    height = y + 60
    img = Image.new('RGB', (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    d.text((PAD, 12), '%s: wiring' % w['name'], font=fb, fill=INK)
    d.text((PAD, 36), 'drawn by tools/wiring.py from boards/%s.py as built on the virtual board; '
           'every part of the build page\'s parts list, every wire (power too)' % w['name'],
           font=fs, fill=GREY)
    d.rounded_rectangle([PAD, 62, MCU_X1, height - 50], radius=10, fill=MCU_FILL, outline=INK,
                        width=2)
    d.text((PAD + 10, 70), w['mcu'], font=fb, fill=INK)
    if c['supply'].get('usb'):
        d.text((PAD + 10, 92), 'USB socket: a 5 V USB charger (1 A)', font=fs, fill=INK)
    # rails: labelled at the top, down to the last row that takes them
    last = {}
    first = {}
    for yy, (_, _, rail, frm) in src_rows:
        for r in (rail, frm):
            if r:
                first[r] = min(first.get(r, yy), yy)
                last[r] = max(last.get(r, yy), yy + (14 if r == rail and frm else 0))
    for yy, (_, rail, _) in mcu_rows:
        first[rail] = min(first.get(rail, yy), yy)
        last[rail] = max(last.get(rail, yy), yy)
    for _, _, _, _, pw, _ in blocks:
        for yy, (_, rail, _) in pw:
            last[rail] = max(last.get(rail, yy), yy)
            first[rail] = min(first.get(rail, yy), yy)
    for yy, kind, _ in sh_rows:
        if kind != 'text':
            last[kind] = max(last.get(kind, yy), yy)
    last['GND'] = max(last.get('GND', 0), gnd_join)
    for r in rails:
        x = rail_x[r]
        top = 104 if r != '3V3 far' else first.get(r, 104)
        d.line([x, top, x, last[r]], fill=RAIL_INK[r], width=3)
        d.text((x - 8, top - 16 - 14 * (rails.index(r) % 2)), r, font=fs, fill=RAIL_INK[r])
    # sources: a box, a fuse in its wire, a wire to its rail
    for yy, (name, fuse, rail, frm) in src_rows:
        bx0, bx1 = 620, 820
        d.rectangle([bx0, yy - 14, bx1, yy + 22], fill=BOX, outline=INK, width=2)
        d.text((bx0 + 8, yy - 10), name, font=fs, fill=INK)
        d.text((bx0 + 8, yy + 5), 'size: see Power', font=fs, fill=GREY)
        out_y = yy + (14 if frm else 0)
        if frm:
            d.line([rail_x[frm], yy, bx0, yy], fill=RAIL_INK[frm], width=2)
            _dot(d, rail_x[frm], yy, RAIL_INK[frm])
            d.text((bx0 - 26, yy - 14), 'IN', font=fs, fill=INK)
            d.text((bx0 - 30, out_y), 'OUT', font=fs, fill=INK)
        d.line([rail_x[rail], out_y, bx0, out_y], fill=RAIL_INK[rail], width=2)
        _dot(d, rail_x[rail], out_y, RAIL_INK[rail])
        if fuse:
            fx = GATE_X
            d.rectangle([fx - 24, out_y - 6, fx + 24, out_y + 6], fill=BOX, outline=INK,
                        width=2)
            d.line([fx - 24, out_y, fx + 24, out_y], fill=INK, width=1)
            d.text((fx - 24, out_y - 21), 'fuse (slow-blow)', font=fs, fill=INK)
    # the MCU's power pins to their rails
    for yy, (label, rail, via) in mcu_rows:
        d.text((MCU_X1 - 8 - d.textlength(label, font=f), yy - 8), label, font=f, fill=INK)
        _dot(d, MCU_X1, yy, RAIL_INK[rail])
        d.line([MCU_X1, yy, rail_x[rail], yy], fill=RAIL_INK[rail], width=2)
        _dot(d, rail_x[rail], yy, RAIL_INK[rail])
        if via:
            _diode(d, (MCU_X1 + rail_x[rail]) // 2 + 4, yy, via + ' Schottky', fs, pointing=-1)
    # the parts
    for top, bottom, r, sig, pw, notes_y in blocks:
        p = r['part']
        d.rectangle([PART_X0, top, WIDTH - PAD, bottom - 2], fill=BOX, outline=INK, width=2)
        where = ('display %d: ' % p['display']) if w['displays'] > 1 and p['display'] else ''
        d.text((PART_X0 + 10, top + 4), where + p['title'], font=fb, fill=INK)
        d.text((PART_X0 + 10, top + 4 + ROW), p['detail'], font=fs, fill=GREY)
        for py, (label, pid, note, via) in sig:
            colour = WIRE.get(label, INK)
            d.text((PART_X0 + 14, py - 8), label, font=f, fill=INK)
            if note:
                d.text((PART_X0 + 120, py - 7), note, font=fs, fill=GREY)
            lab = pin_label(b, pid)
            d.text((MCU_X1 - 8 - d.textlength(lab, font=f), py - 8), lab, font=f, fill=INK)
            _dot(d, MCU_X1, py, colour)
            _dot(d, PART_X0, py, colour)
            d.line([MCU_X1, py, PART_X0, py], fill=colour, width=3)
            for kind, val in via:
                if kind == 'gate':
                    _buffer(d, GATE_X, py, val, colour, fs)
                else:
                    _resistor(d, RES_X, py, val, colour, fs)
        for py, (label, rail, via) in pw:
            colour = RAIL_INK[rail]
            d.text((PART_X0 + 14, py - 8), label, font=f, fill=INK)
            d.line([rail_x[rail], py, PART_X0, py], fill=colour, width=2)
            _dot(d, rail_x[rail], py, colour)
            _dot(d, PART_X0, py, colour)
            for _, val in via:
                _resistor(d, RES_X, py, val, colour, fs)
        if r['caps'] and len(pw) >= 2:
            # across the part's supply and ground wires
            _cap(d, CAP_X, pw[0][0], pw[-1][0] if r['part'].get('kind') != 'SR595'
                 else pw[1][0], r['caps'][0], fs)
        ny = notes_y
        for note in r['notes']:
            d.text((PART_X0 + 14, ny - 4), note, font=fs, fill=GREY)
            ny += ROW
        kind = p.get('kind')
        if kind == 'buzzer':
            _buzzer_sketch(d, WIDTH - PAD - 340, top + 6, fs)
        elif kind == 'light':
            _ldr_sketch(d, WIDTH - PAD - 300, top + 8, fs)
        elif kind == 'rf':
            ax = WIDTH - PAD - 60
            d.line([ax, top + 16, ax, top + 60], fill=INK, width=2)
            d.line([ax - 12, top + 16, ax, top + 30, ax + 12, top + 16], fill=INK, width=2)
            d.text((ax - 90, top + 64), 'ANT: 17.3 cm wire', font=fs, fill=INK)
    # the level shifter's own pins
    if c['shifter'] is not None:
        d.rectangle([PART_X0, sh_top, WIDTH - PAD, sh_bottom], fill=CHIP_FILL, outline=INK,
                    width=2)
        d.text((PART_X0 + 10, sh_top + 4), '74AHCT125 quad buffer (DIP-14), the level shifter',
               font=fb, fill=INK)
        d.text((PART_X0 + 10, sh_top + 4 + ROW), '3.3 V in, 5 V out: each gate drawn in its '
               'wire above; notch up, pin 1 top left, pin 14 top right', font=fs, fill=GREY)
        vcc_y = gnd_y = None
        for yy, kind, text in sh_rows:
            d.text((PART_X0 + 14, yy - 8), text, font=f if kind != 'text' else fs, fill=INK)
            if kind == 'text':
                continue
            colour = RAIL_INK[kind]
            d.line([rail_x[kind], yy, PART_X0, yy], fill=colour, width=2)
            _dot(d, rail_x[kind], yy, colour)
            _dot(d, PART_X0, yy, colour)
            if kind == '+5V' and vcc_y is None:
                vcc_y = yy
            elif kind == 'GND' and gnd_y is None:
                gnd_y = yy
        _cap(d, CAP_X, vcc_y, gnd_y, '100 nF at pins 14-7', fs)
    # the buttons: from the pin through the switch to the ground bus
    d.text((PART_X0 - 300, btn_top - 4), 'arcade buttons: the microswitch\'s COM and NO on '
           '4.8 mm female spade crimps', font=fs, fill=INK)
    gx = PART_X0 + 160
    for by, name, pid in btn_rows:
        colour = BUTTON_INK.get(name, INK)
        label = pin_label(b, pid)
        d.text((MCU_X1 - 8 - d.textlength(label, font=f), by - 8), label, font=f, fill=INK)
        _dot(d, MCU_X1, by, colour)
        bx = PART_X0 + 60
        d.line([MCU_X1, by, bx - 14, by], fill=colour, width=3)
        d.ellipse([bx - 16, by - 3, bx - 10, by + 3], outline=colour, width=2)
        d.ellipse([bx + 10, by - 3, bx + 16, by + 3], outline=colour, width=2)
        d.line([bx - 16, by - 9, bx + 16, by - 9], fill=colour, width=3)
        d.line([bx, by - 9, bx, by - 14], fill=colour, width=3)
        d.text((bx - 44, by + 2), 'COM', font=fs, fill=GREY)
        d.text((bx + 18, by + 2), 'NO', font=fs, fill=GREY)
        d.line([bx + 16, by, gx, by], fill=INK, width=2)
        _dot(d, gx, by, INK)
        d.text((gx + 16, by - 8), 'button %s' % BUTTON_LABEL[name], font=f, fill=colour)
    if btn_rows:
        d.line([gx, btn_rows[0][0], gx, gnd_join], fill=INK, width=2)
        d.line([rail_x['GND'] if 'GND' in rail_x else MCU_X1, gnd_join, gx, gnd_join],
               fill=INK, width=2)
        _dot(d, rail_x.get('GND', MCU_X1), gnd_join, INK)
        d.text((gx + 16, gnd_join - 8), 'to GND', font=fs, fill=INK)
    d.text((PAD + 10, height - 44), 'GND: one common ground for the MCU, every part, every '
           'supply and every button. Sizes of supply, fuse and wire: the build page, '
           'boards/%s.md' % w['name'], font=fs, fill=INK)
    d.text((PAD + 10, height - 26), 'ohm, kohm, uF and nF as in the parts list; a dot is a '
           'connection, wires that cross without a dot are not joined', font=fs, fill=GREY)
    return img


def _buzzer_sketch(d, x, y, fs):
    """The buzzer's driver: 1 kohm into the NPN's base, the piezo from the supply to its
    collector with a 1N4148 across it (cathode to the supply), the emitter to GND."""
    px = x + 200                     # the collector's vertical line
    dx = px - 50                     # the diode's
    top, bot = y + 22, y + 62        # the piezo's two nodes
    d.text((px - 30, y), 'VSYS (5 V)', font=fs, fill=INK)
    d.line([px, y + 14, px, top], fill=INK, width=2)
    d.line([dx, top, px, top], fill=INK, width=2)
    d.line([dx, bot, px, bot], fill=INK, width=2)
    _dot(d, px, top, INK)
    _dot(d, px, bot, INK)
    d.rectangle([px - 8, top + 8, px + 8, bot - 8], fill=BOX, outline=INK, width=2)
    d.text((px + 14, top + 12), 'piezo', font=fs, fill=INK)
    d.line([dx, top, dx, bot], fill=INK, width=2)
    d.polygon([(dx - 8, bot - 12), (dx + 8, bot - 12), (dx, bot - 26)], fill=INK)
    d.line([dx - 8, bot - 27, dx + 8, bot - 27], fill=INK, width=3)
    d.text((dx - 62, top + 12), '1N4148', font=fs, fill=INK)
    cy = bot + 40
    d.line([px, bot, px, cy - 20], fill=INK, width=2)
    d.text((px + 6, bot + 4), 'C', font=fs, fill=INK)
    bx = px - 16
    d.ellipse([bx - 14, cy - 22, bx + 30, cy + 22], outline=INK, width=2)
    d.line([bx, cy - 12, bx, cy + 12], fill=INK, width=3)
    d.line([bx, cy - 5, px, cy - 20], fill=INK, width=2)
    d.line([bx, cy + 5, px, cy + 20], fill=INK, width=2)
    d.polygon([(px, cy + 20), (px - 10, cy + 19), (px - 4, cy + 11)], fill=INK)
    d.line([x + 20, cy, bx, cy], fill=INK, width=2)
    d.text((x + 20, cy - 16), 'B: from the pin via 1 kohm', font=fs, fill=INK)
    d.text((px + 34, cy - 8), 'S8050 / 2N2222', font=fs, fill=INK)
    d.line([px, cy + 20, px, cy + 34], fill=INK, width=2)
    d.text((px + 6, cy + 16), 'E', font=fs, fill=INK)
    d.line([px - 10, cy + 34, px + 10, cy + 34], fill=INK, width=3)
    d.text((px + 14, cy + 28), 'GND', font=fs, fill=INK)


def _ldr_sketch(d, x, y, fs):
    """The light sensor: the LDR from 3V3 to the ADC pin, 10 kΩ and 100 nF from it to GND."""
    mx, my = x + 120, y + 50
    d.text((mx - 20, y), '3V3', font=fs, fill=INK)
    d.line([mx, y + 14, mx, y + 22], fill=INK, width=2)
    d.rectangle([mx - 7, y + 22, mx + 7, y + 42], fill=BOX, outline=INK, width=2)
    d.line([mx - 20, y + 20, mx - 10, y + 28], fill=INK, width=2)
    d.line([mx - 22, y + 28, mx - 12, y + 36], fill=INK, width=2)
    d.text((mx + 12, y + 24), 'GL5528 LDR', font=fs, fill=INK)
    d.line([mx, y + 42, mx, my + 8], fill=INK, width=2)
    _dot(d, mx, my, INK)
    d.line([x, my, mx, my], fill=INK, width=2)
    d.text((x, my - 16), 'to the ADC pin', font=fs, fill=GREY)
    d.line([mx, my, mx + 60, my], fill=INK, width=2)
    d.rectangle([mx - 7, my + 8, mx + 7, my + 28], fill=BOX, outline=INK, width=2)
    d.text((mx - 60, my + 12), '10 kohm', font=fs, fill=INK)
    d.line([mx, my + 28, mx, my + 40], fill=INK, width=2)
    d.line([mx + 60, my, mx + 60, my + 14], fill=INK, width=2)
    d.line([mx + 50, my + 14, mx + 70, my + 14], fill=INK, width=3)
    d.line([mx + 50, my + 20, mx + 70, my + 20], fill=INK, width=3)
    d.line([mx + 60, my + 20, mx + 60, my + 40], fill=INK, width=2)
    d.text((mx + 74, my + 10), '100 nF', font=fs, fill=INK)
    d.line([mx - 10, my + 40, mx + 70, my + 40], fill=INK, width=2)
    d.text((mx + 74, my + 34), 'AGND', font=fs, fill=INK)


def picture_path(out_dir, name):
    return os.path.join(out_dir, name + '-wiring.png')


def boards():
    return sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, 'boards'))
                  if n.endswith('.py') and not n.startswith(('_', '.')))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--board', help='a name from boards/, or a path to a board file')
    p.add_argument('--out', default=os.path.join(ROOT, 'docs', 'pictures'))
    p.add_argument('--pictures', metavar='DIR', help="every board's picture into DIR")
    p.add_argument('--pages', action='store_true', help="rewrite every build page's pin table")
    p.add_argument('--text', action='store_true', help='print the pin table of --board')
    a = p.parse_args(argv)
    if a.pictures or a.pages:
        for name in boards():
            w = read_board(name)
            if a.pictures:
                os.makedirs(a.pictures, exist_ok=True)
                path = picture_path(a.pictures, name)
                picture(w).save(path)
                print(path)
            if a.pages:
                page = os.path.join(ROOT, 'boards', name + '.md')
                with open(page) as fh:
                    text = fh.read()
                new = page_text(text, w)
                if new != text:
                    with open(page, 'w') as fh:
                        fh.write(new)
                    print(page)
        return 0
    if not a.board:
        p.error('give --board NAME, --pictures DIR or --pages')
    w = read_board(a.board)
    if a.text:
        sys.stdout.write(table(w))
        return 0
    os.makedirs(a.out, exist_ok=True)
    path = picture_path(a.out, w['name'])
    picture(w).save(path)
    print(path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
