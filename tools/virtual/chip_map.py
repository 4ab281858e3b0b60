# Which virtual chip model a board's wiring names (WIRED: what virtual_board.py builds the
# board from), and which one listens to a firmware display driver on a bench (CHIPS: the
# drivers' own tests attach a chip to one driver). Only the module a board needs is imported,
# so a run carries one chip model, not all six.
WIRED = {
    'tm1637': 'tm1637',
    'max7219-digits': 'max7219',
    'max7219-matrix': 'max7219_matrix',
    '595': 'sr595',
    'ws2812-digits': 'ws2812_digits',
    'ws2812-panel': 'ws2812_panel',
}
CHIPS = {
    'TM1637': 'tm1637',
    'MAX7219Digits': 'max7219',
    'MAX7219Matrix': 'max7219_matrix',
    'SR595': 'sr595',
    'WS2812Digits': 'ws2812_digits',
    'WS2812Panel': 'ws2812_panel',
}


def module_for(cls):
    """The chip module's name for a driver class (or a board's subclass of one), else None."""
    name = CHIPS.get(cls.__name__)
    if name is not None:
        return name
    for base in getattr(cls, '__bases__', ()):
        name = module_for(base)
        if name is not None:
            return name
    return None


def chips_for(drv, prefix=''):
    """The virtual chips wired to driver drv ([] for a driver no chip model knows).
    prefix: 'virtual.' where tools/virtual is a package on the path, '' where it is the path."""
    name = module_for(type(drv))
    if name is None:
        return []
    return __import__(prefix + name, None, None, ['chips_for']).chips_for(drv)


def from_wiring(w):
    """The chip views of one entry of a board file's wiring() (a dict naming its 'chip')."""
    name = WIRED.get(w.get('chip'))
    if name is None:
        raise ValueError('no virtual chip %r (known: %s)' % (
            w.get('chip'), ', '.join(sorted(WIRED))))
    return __import__(name, None, None, ['from_wiring']).from_wiring(w)
