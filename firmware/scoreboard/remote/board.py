"""The remote parts a board file names, built (DESIGN section 11).

    IR = {'pin': 15, 'codes': {0x10EF: 'RED', ...}}     NEC infrared receiver (VS1838B)
    RF = {'pin': 14, 'codes': {0xABCDE1: 'RED', ...}}   433 MHz receiver, EV1527 fobs

`receivers(board, Pin)` returns a list of RemoteKeys, one per receiver the board has, each with
its pin's IRQ on both edges filling its own ring; `saved` ({'ir': {code: name}, 'rf': ...}, from
learning) replaces the board file's codes. `clock` is the microsecond tick the IRQ reads
(time.ticks_us on a board; the virtual receiver's clock in the simulator).
"""


def receivers(board, Pin, clock=None, saved=None):
    from .adapter import RemoteKeys
    from .ring import EdgeRing

    out = []
    for attr, kind in (('IR', 'ir'), ('RF', 'rf')):
        part = getattr(board, attr, None)
        if not part:
            continue
        # only the decoder of a receiver the board has is loaded
        if kind == 'ir':
            from .nec import NEC as decoder
        else:
            from .ev1527 import EV1527 as decoder
        codes = part.get('codes') or {}
        if saved and saved.get(kind) is not None:
            codes = saved[kind]
        ring = EdgeRing(256, clock)
        pin = Pin(part['pin'], Pin.IN)
        keys = RemoteKeys(ring, decoder, codes)
        keys.kind = kind
        keys.pin = pin
        # hard: a soft IRQ is run later (after a collection, say), and its tick would be late
        pin.irq(handler=ring.irq, trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
        out.append(keys)
    return out
