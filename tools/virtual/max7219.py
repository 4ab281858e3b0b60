# Virtual MAX7219 / MAX7221 chain: decodes the 16-bit SPI words exactly as the chips receive them.
#
# Datasheet (MAX7219/MAX7221, Maxim 19-4452):
#   - Serial data at DIN is shifted into a 16-bit shift register on CLK's rising edge, MSB first
#     (D15 first). D15..D12 are "don't care", D11..D8 the register address, D7..D0 the data.
#   - DOUT presents D15 half a clock later, so in a chain the bits pass on to the next device:
#     the first word written ends in the LAST device once every device has received its word.
#   - LOAD (CS) rising edge latches the last 16 bits of every device's shift register.
#   - Registers: 0x00 no-op, 0x01..0x08 digit 0..7, 0x09 decode mode, 0x0A intensity (low
#     nibble, 1/32..31/32 duty), 0x0B scan limit (low 3 bits: digits 0..N), 0x0C shutdown
#     (D0 = 0: shutdown mode, 1: normal operation), 0x0F display test (D0 = 1: all LEDs on).
#   - At power-up every control register is reset: display blanked, shutdown mode, decode off,
#     intensity minimum, scan limit one digit.
# The firmware refreshes with the heap locked and the chain decodes inside that refresh, so the
# wire path allocates nothing; the per-device register log (for tests) is opt-in (log=True).
# This model shifts only while CS is low (the MAX7221 behaviour; on a dedicated bus the MAX7219
# ends in the same registers) so chains sharing one virtual SPI bus do not hear each other.
import machine

REG_NOOP = 0x00
REG_DIGIT0 = 0x01
REG_DECODE = 0x09
REG_INTENSITY = 0x0A
REG_SCAN_LIMIT = 0x0B
REG_SHUTDOWN = 0x0C
REG_TEST = 0x0F

LOG_MAX = 512


class MAX7219Device:
    """One chip: its register file as latched on the last CS rising edge."""

    def __init__(self, index, log=False):
        self.index = index          # 0 = nearest the MCU (DIN), n-1 = end of the chain
        self.regs = bytearray(16)   # power-up: all zero (shutdown, decode off, scan limit 0)
        self.log = [] if log else None   # (address, data) of every latched non-no-op word
        self.latches = 0

    def write(self, addr, data):
        self.latches += 1
        if addr == REG_NOOP:
            return
        self.regs[addr] = data
        log = self.log
        if log is not None:
            try:
                log.append((addr, data))
                if len(log) > LOG_MAX:
                    del log[0]
            except MemoryError:     # a test that logs under heap_lock: drop the entry
                pass

    @property
    def decode_mode(self):
        return self.regs[REG_DECODE]

    @property
    def intensity(self):
        return self.regs[REG_INTENSITY] & 0x0F

    @property
    def scan_limit(self):
        return self.regs[REG_SCAN_LIMIT] & 0x07

    @property
    def shutdown(self):
        """True while the chip is in shutdown mode (register 0x0C, D0 = 0)."""
        return not (self.regs[REG_SHUTDOWN] & 1)

    @property
    def test(self):
        return bool(self.regs[REG_TEST] & 1)

    def digit(self, i):
        """Raw data register of digit/row i (0..7)."""
        return self.regs[REG_DIGIT0 + i]


class MAX7219Chain:
    def __init__(self, n_devices, log=False):
        self.n = n_devices
        self.devices = [MAX7219Device(i, log) for i in range(n_devices)]
        # The chain's shift registers as a byte stream: sr[2k] = device k's D7..D0,
        # sr[2k+1] = device k's D15..D8. A new byte enters device 0's low byte.
        self.sr = bytearray(2 * n_devices)
        self.selected = False
        self.bytes_in = 0
        self.frames = 0             # CS rising edges seen

    def __getitem__(self, i):
        return self.devices[i]

    def __len__(self):
        return self.n

    def shift_byte(self, b):
        sr = self.sr
        for i in range(len(sr) - 1, 0, -1):
            sr[i] = sr[i - 1]
        sr[0] = b & 0xFF
        self.bytes_in += 1

    def feed(self, buf):
        """Bytes arriving on DIN (ignored while CS is high)."""
        if not self.selected:
            return
        for b in buf:
            self.shift_byte(b)

    def cs(self, level):
        if level == 0:
            self.selected = True
            return
        if self.selected:
            self.selected = False
            self.latch()

    def latch(self):
        self.frames += 1
        sr = self.sr
        for k in range(self.n):
            self.devices[k].write(sr[2 * k + 1] & 0x0F, sr[2 * k])


def attach(chain, spi_key, cs_pin_id):
    """Listen to SPI bus `spi_key` (('spi', id) or ('soft', sck_id)) and the CS/LOAD pin."""
    ln = machine.line(cs_pin_id)
    chain.selected = ln.level() == 0

    def on_cs(line):
        chain.cs(line.level())

    ln.listeners.append(on_cs)
    machine.bus(spi_key).append(chain.feed)
    return chain


# Code B font (datasheet table 5): 0..9, '-', E, H, L, P, blank; DP is D7 independently.
# Canonical segment bytes (bit0 = a ... bit6 = g).
CODE_B = b'\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f\x40\x79\x76\x38\x73\x00'


def raw_to_canonical(v):
    """No-decode data: D7 = DP, D6 = A, D5 = B, D4 = C, D3 = D, D2 = E, D1 = F, D0 = G."""
    out = 0
    if v & 0x80:
        out |= 0x80
    for seg in range(7):          # a..g
        if v & (0x40 >> seg):
            out |= 1 << seg
    return out


class DigitView:
    """An 8-digit seven-segment module on one device of a chain (digit 7 leftmost, 0 rightmost,
    as the common 8-digit modules are wired)."""

    kind = 'segments'

    def __init__(self, chain, index=0, colour=None, width=8):
        self.chain = chain
        self.index = index
        self.colour = colour
        self.width = width

    @property
    def device(self):
        return self.chain.devices[self.index]

    @property
    def on(self):
        d = self.device
        return d.test or not d.shutdown

    @property
    def level(self):
        d = self.device
        if d.test:
            return 7
        return d.intensity >> 1

    def digits(self):
        d = self.device
        out = []
        for pos in range(self.width):
            i = self.width - 1 - pos          # left to right: digit 7 .. digit 0
            if d.test:
                out.append(0xFF)
                continue
            if d.shutdown or i > d.scan_limit:
                out.append(0)
                continue
            v = d.regs[REG_DIGIT0 + i]
            if d.decode_mode & (1 << i):
                seg = CODE_B[v & 0x0F] | (v & 0x80)
            else:
                seg = raw_to_canonical(v)
            out.append(seg)
        return out


def _spi_key(spi):
    return getattr(spi, '_key', None)


def chips_for(driver):
    """Digit views for a scoreboard MAX7219 digit driver; [] for any other driver."""
    try:
        from scoreboard.drivers.max7219_digits import MAX7219Digits
    except ImportError:
        return []
    if not isinstance(driver, MAX7219Digits):
        return []
    chain = MAX7219Chain(driver.n_devices)
    attach(chain, _spi_key(driver.spi), driver.cs.id)
    colour = getattr(driver, 'colour', None)
    return [DigitView(chain, k, colour) for k in range(driver.n_devices)]


def bus_key(w):
    """The virtual bus of a wiring entry: hardware SPI by id ('spi': 0), or a SoftSPI by its
    clock pin ('sck': 18), as tools/virtual/machine.py keys them."""
    if 'sck' in w:
        return ('soft', w['sck'])
    return ('spi', w.get('spi', 0))


def from_wiring(w):
    """The modules of a wiring entry: {'chip': 'max7219-digits', 'spi': 0, 'cs': 17,
    'modules': 1, 'colour': 'red', 'dp': (...)}: one 8-digit module a chip, digit 7 leftmost."""
    n = w.get('modules', 1)
    chain = MAX7219Chain(n)
    attach(chain, bus_key(w), w['cs'])
    views = [DigitView(chain, k, w.get('colour')) for k in range(n)]
    for v in views:
        v.dp = w.get('dp')          # positions with a decimal point (None: all)
    return views
