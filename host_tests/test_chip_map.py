# runs-on: micropython
# The drivers' bench tests look a display driver's chip model up in one table
# (tools/virtual/chip_map.py) and import only that model (a board's chips come from its wiring
# instead: test_virtual_board.py). Every display driver of the firmware must be in it, a
# subclass of a driver finds its parent's model, and anything else gets no chips.
import os
import virtual_first  # tools/virtual first on the path

import chip_map  # noqa: E402
from machine import Pin  # noqa: E402
from scoreboard.drivers.tm1637 import TM1637  # noqa: E402

DRIVERS = virtual_first.ROOT + '/firmware/scoreboard/drivers'


def _driver_classes():
    found = []
    for name in sorted(os.listdir(DRIVERS)):
        if not name.endswith('.py') or name in ('__init__.py', 'buttons.py'):
            continue
        with open(DRIVERS + '/' + name) as f:
            for line in f:
                if line.startswith('class '):
                    found.append((name[:-3], line[6:].split('(')[0].split(':')[0].strip()))
    return found


def test_every_display_driver_has_a_chip_model():
    classes = _driver_classes()
    assert len(classes) == 6, classes
    for module, cls in classes:
        name = chip_map.CHIPS.get(cls)
        assert name is not None, (module, cls)
        mod = __import__(name)          # the model exists and knows this driver
        assert hasattr(mod, 'chips_for'), name


def test_a_subclass_finds_its_parents_model_and_chips():
    class EndTM1637(TM1637):
        pass
    assert chip_map.module_for(EndTM1637) == 'tm1637'
    drv = EndTM1637(Pin(2), Pin(3))
    chips = chip_map.chips_for(drv)
    assert len(chips) == 1 and chips[0].kind != 'pixels'
    drv.buf[0] = 0x3F
    drv.show()
    assert chips[0].digits()[0] == 0x3F


def test_anything_else_gets_no_chips():
    class Other:
        pass
    assert chip_map.module_for(Other) is None
    assert chip_map.chips_for(Other()) == []
    assert chip_map.chips_for(object()) == []
