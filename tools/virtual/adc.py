"""An ADC input with a settable level (host only): the virtual board's light sensor.

`machine.ADC`'s `read_u16()`; the harness sets `value` (0..65535) or `set_percent(pct)`, and
may add noise: `noise` counts either side, drawn from `rng` (anything with `between(a, b)`,
such as virtual.pulses.Rng)."""


class ADC:
    instances = []     # the sensors the firmware built (the simulator finds them; a power cut
                       # empties it)

    def __init__(self, pin=None, value=32768, noise=0, rng=None, atten=None):
        self.pin = pin
        self.value = value
        self.noise = noise
        self.rng = rng
        self.reads = 0
        ADC.instances.append(self)

    def set_percent(self, pct):
        self.value = max(0, min(100, pct)) * 65535 // 100

    def read_u16(self):
        self.reads += 1
        v = self.value
        if self.noise and self.rng is not None:
            v += self.rng.between(-self.noise, self.noise)
        return max(0, min(65535, v))


NAMES = ('ADC',)   # joined into the stand-in machine (tools/virtual/machine.py, PARTS)


def reset():
    ADC.instances.clear()
