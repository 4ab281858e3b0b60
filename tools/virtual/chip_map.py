# Which virtual chip model listens to a firmware display driver on a bench: the drivers' own
# tests attach a chip to one driver. (A board's chips come from its wiring instead:
# virtual_board.py.) Only the module a driver needs is imported.
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

