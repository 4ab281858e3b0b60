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
                                  'power': PARTS[kind][2], 'pins': pins})
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
                    'pins': [(label, pid, note)] if pid is not None else []})
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


def page_text(text, w):
    """The build page's text with its pin table block replaced by the current one."""
    block = BEGIN + '\n' + table(w) + END
    pat = re.compile(re.escape(BEGIN) + '.*?' + re.escape(END), re.S)
    if not pat.search(text):
        raise ValueError('no wiring block (%s ... %s) in the page' % (BEGIN, END))
    return pat.sub(lambda m: block, text)


# -- the picture --------------------------------------------------------------------------------

BG = (250, 250, 246)
INK = (30, 30, 30)
GREY = (120, 120, 120)
BOX = (255, 255, 255)
MCU_FILL = (222, 240, 222)
WIRE = {'CLK': (200, 150, 0), 'SRCK': (200, 150, 0), 'DIO': (20, 140, 60),
        'DIN': (20, 140, 60), 'SER IN': (20, 140, 60), 'CS (LOAD)': (130, 60, 170),
        'RCK': (130, 60, 170), '/G': (90, 90, 90), 'OUT': (200, 90, 20), 'DATA': (200, 90, 20),
        'BASE': (150, 40, 110), 'MIDPOINT': (40, 130, 160)}
BUTTON_INK = {'RED': (210, 30, 30), 'BLUE': (30, 70, 210), 'OK': (60, 60, 60),
              'RED_MINUS': (230, 120, 120), 'BLUE_MINUS': (120, 150, 230)}
ROW = 22
PAD = 14


def _font(size):
    from PIL import ImageFont
    return ImageFont.load_default(size)   # Pillow's own font: the same picture everywhere


def picture(w):
    """A PIL image of the board's wiring: the MCU on the left with the pins in use, each part
    to the right with its pins, one straight wire a connection, the buttons below."""
    from PIL import Image, ImageDraw
    f, fb, fs = _font(14), _font(16), _font(12)
    b = w['board']
    # Rows: the part blocks, then the buttons. Each pin of a part is one row; a pin id used
    # twice (an SPI bus to two parts) is drawn at its first row and branched.
    y = 70
    blocks = []
    for p in w['parts']:
        top = y
        y += ROW * 2 + 6                         # title and detail lines
        pins = []
        for label, pid, note in p['pins']:
            pins.append((y, label, pid, note))
            y += ROW
        y += ROW                                 # the power line
        blocks.append((top, y, p, pins))
        y += PAD
    y += PAD
    btn_rows = []
    for name, pid in w['buttons']:
        btn_rows.append((y, name, pid))
        y += ROW + 4
    height = y + 60
    width = 1040
    img = Image.new('RGB', (width, height), BG)
    d = ImageDraw.Draw(img)
    d.text((PAD, 12), '%s: wiring' % w['name'], font=fb, fill=INK)
    d.text((PAD, 36), 'drawn by tools/wiring.py from boards/%s.py as built on the virtual board'
           % w['name'], font=fs, fill=GREY)
    mx0, mx1 = PAD, 300
    d.rounded_rectangle([mx0, 62, mx1, height - 50], radius=10, fill=MCU_FILL, outline=INK,
                        width=2)
    d.text((mx0 + 10, 70), w['mcu'], font=fb, fill=INK)
    d.text((mx0 + 10, 94), POWER_PINS.get(getattr(b, 'MCU', None), ''), font=fs, fill=GREY)
    px0, px1 = 600, width - PAD
    first_y = {}
    for top, bottom, p, pins in blocks:
        d.rectangle([px0, top, px1, bottom - 2], fill=BOX, outline=INK, width=2)
        where = ('display %d: ' % p['display']) if w['displays'] > 1 and p['display'] else ''
        d.text((px0 + 10, top + 4), where + p['title'], font=fb, fill=INK)
        d.text((px0 + 10, top + 4 + ROW), p['detail'], font=fs, fill=GREY)
        for py, label, pid, note in pins:
            colour = WIRE.get(label, INK)
            d.text((px0 + 14, py - 8), label, font=f, fill=INK)
            if note:
                d.text((px0 + 110, py - 7), note, font=fs, fill=GREY)
            d.ellipse([px0 - 4, py - 4, px0 + 4, py + 4], fill=colour)
            if pid in first_y:
                # A bus shared with a part above: branch off its wire.
                fy, fx = first_y[pid]
                x = fx
                d.line([x, fy, x, py], fill=colour, width=3)
                d.line([x, py, px0, py], fill=colour, width=3)
                d.ellipse([x - 4, fy - 4, x + 4, fy + 4], fill=colour)
                continue
            lane = 540 - 12 * (len(first_y) % 6)
            first_y[pid] = (py, lane)
            d.text((mx1 - 128, py - 8), pin_label(b, pid), font=f, fill=INK)
            d.ellipse([mx1 - 4, py - 4, mx1 + 4, py + 4], fill=colour)
            d.line([mx1, py, px0, py], fill=colour, width=3)
        d.text((px0 + 10, bottom - ROW), 'power: ' + p['power'], font=fs, fill=GREY)
    for by, name, pid in btn_rows:
        colour = BUTTON_INK.get(name, INK)
        label = pin_label(b, pid)
        d.text((mx1 - 128, by - 8), label, font=f, fill=INK)
        d.ellipse([mx1 - 4, by - 4, mx1 + 4, by + 4], fill=colour)
        bx = 470
        d.line([mx1, by, bx - 14, by], fill=colour, width=3)
        # a push button: two contacts and the plunger above them
        d.ellipse([bx - 16, by - 3, bx - 10, by + 3], outline=colour, width=2)
        d.ellipse([bx + 10, by - 3, bx + 16, by + 3], outline=colour, width=2)
        d.line([bx - 16, by - 9, bx + 16, by - 9], fill=colour, width=3)
        d.line([bx, by - 9, bx, by - 14], fill=colour, width=3)
        d.line([bx + 16, by, bx + 60, by], fill=INK, width=2)
        d.text((bx + 66, by - 8), 'GND', font=f, fill=INK)
        d.text((bx + 110, by - 8), 'button %s' % BUTTON_LABEL[name], font=f, fill=colour)
    d.text((mx0 + 10, height - 44), 'GND: one common ground for the MCU, every part, every '
           'supply and every button', font=fs, fill=INK)
    d.text((mx0 + 10, height - 26), 'Supply, current and fuse: see the build page, '
           'boards/%s.md' % w['name'], font=fs, fill=GREY)
    return img


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
