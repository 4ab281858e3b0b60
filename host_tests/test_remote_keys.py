# Remote keys as the board's buttons: the edge ring an IRQ fills, and the adapter from decoded
# codes to the key bitmap, run through the same debounce and gestures as the buttons. Timed
# tables: a remote's pulse train played on a virtual pin against a 5 ms loop.
# runs-on: micropython
from scoreboard.remote.adapter import RemoteKeys
from scoreboard.remote.ev1527 import EV1527
from scoreboard.remote.nec import NEC
from scoreboard.remote.ring import EdgeRing
from scoreboard.ui import keys
from scoreboard.ui.debounce import Debouncer
from scoreboard.ui.gestures import NAMES, Gestures
from scoreboard.ui.ticks import MASK, PERIOD, add, diff
from virtual import pulses as P
from virtual.irqpin import Clock, IrqPin

RED = keys.BIT(keys.RED)
BLUE = keys.BIT(keys.BLUE)
OK = keys.BIT(keys.OK)

IR_CODES = {0x10EF: 'RED', 0x20DF: 'BLUE', 0x30CF: 'OK', 0x40BF: 'red-minus'}
RF_CODES = {0xABCDE1: 'RED', 0xABCDE2: 'BLUE', 0xABCDE4: 'OK', 0xABCDE8: 'BLUE_MINUS'}


class Rig:
    """A receiver pin, its ring and the adapter, with the loop's debounce and gestures."""

    def __init__(self, decoder, codes, idle, start_ms=0, ring_size=128):
        self.clock = Clock()
        self.pin = IrqPin(idle)
        self.ring = EdgeRing(ring_size, self.clock)
        self.pin.irq(self.ring.irq)
        self.keys = RemoteKeys(self.ring, decoder, codes)
        self.deb = Debouncer()
        self.events = []
        self.ges = Gestures(self._event)
        self.edges = []
        self.now = start_ms
        self.t0 = start_ms  # the us clock starts where the ms clock does (times in tests: ms)
        self.changes = []  # (ms since start, bits) each time the remote's bitmap changes
        self._last = 0

    def _event(self, kind, key, now=None):
        self.events.append((diff(self.now, self.t0), NAMES[kind], keys.NAMES[key]))

    def send(self, train):
        """Queue a train whose times are us since the rig's start."""
        self.edges.extend(train)
        self.edges.sort()

    def run(self, ms, step=5):
        end = add(self.now, ms)
        while diff(end, self.now) > 0:
            self.now = add(self.now, step)
            us = diff(self.now, self.t0) * 1000
            n = self.pin_play(us)
            del self.edges[:n]
            b = self.keys.bits(self.now)
            if b != self._last:
                self.changes.append((diff(self.now, self.t0), b))
                self._last = b
            self.ges.update(self.deb.update(b, self.now), self.now)

    def pin_play(self, upto_us):
        # the us clock wraps like the device's: start it near the wrap when the ms clock is
        n = 0
        for t, v in self.edges:
            if t >= upto_us:
                break
            self.clock.us = (self.t0 * 1000 + t) & MASK
            if v != self.pin.v:
                self.pin.v = v
                self.ring.irq(self.pin)
            n += 1
        return n

    def kinds(self):
        return [(k, n) for _, k, n in self.events]


def ir():
    return Rig(NEC, IR_CODES, P.NEC_IDLE)


def rf():
    return Rig(EV1527, RF_CODES, P.RF_IDLE)


# --- the ring ---------------------------------------------------------------------------------

class Sink:
    def __init__(self):
        self.n = 0
        self.last = -1
        self.resets = 0

    def edge(self, t, level):
        self.n += 1
        self.last = t << 1 | level

    def reset(self):
        self.resets += 1


def test_ring_keeps_edges_in_order_with_their_levels():
    clock = Clock(1000)
    pin = IrqPin(1)
    ring = EdgeRing(8, clock)
    got = []

    class Rec:
        def edge(self, t, v):
            got.append((t, v))

        def reset(self):
            got.append('reset')

    for i in range(20):  # several laps of the ring
        clock.us = 1000 + 37 * i
        pin.v = i & 1
        ring.irq(pin)
        if i % 3 == 2:
            ring.drain(Rec())
    ring.drain(Rec())
    assert got == [(1000 + 37 * i, i & 1) for i in range(20)]
    assert len(ring) == 0 and ring.get() == -1


def test_ring_masks_the_tick_to_2_29():
    clock = Clock(PERIOD * 3 + 5)
    ring = EdgeRing(4, clock)
    ring.irq(IrqPin(1))
    assert ring.get() == (5 << 1) | 1


def test_a_full_ring_drops_its_contents_and_resets_the_decoder():
    clock = Clock(0)
    pin = IrqPin(1)
    ring = EdgeRing(8, clock)
    for i in range(12):  # the loop stalled: 7 fit, the rest are lost
        clock.us = i * 100
        pin.v ^= 1
        ring.irq(pin)
    assert ring.lost and len(ring) == 7
    s = Sink()
    assert ring.drain(s) == 0 and s.resets == 1 and s.n == 0
    assert not ring.lost
    clock.us = 5000
    ring.irq(pin)
    assert ring.drain(s) == 1 and s.resets == 1


def test_a_frame_over_a_full_ring_is_lost_not_mangled():
    clock = Clock(0)
    pin = IrqPin(P.NEC_IDLE)
    ring = EdgeRing(40, clock)  # smaller than a frame's 68 edges, and never drained
    out = []
    dec = NEC(lambda c, t: out.append(c))
    pin.irq(ring.irq)
    pin.play(P.nec(0x10EF, t0=100), clock)
    ring.drain(dec)
    pin.play(P.nec(0x20DF, t0=200000), clock)  # while it is drained in time
    ring.drain(dec)
    assert out == [] or out == [0x20DF]  # what it can decode, never the first frame's tail


def test_the_irq_and_the_decoders_allocate_nothing():
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return  # CPython: the unix port checks it
    rig = ir()
    ir_train = P.nec(0x10EF, t0=1000, repeats=3)
    rf_train = P.ev1527(0xABCDE3, t0=1000, frames=5)
    ring = EdgeRing(256, rig.clock)
    rig.pin.irq(ring.irq)
    for t, v in ir_train:  # warm up: every path once
        rig.clock.us = t
        rig.pin.v = v
        ring.irq(rig.pin)
    keys_ir = RemoteKeys(ring, NEC, IR_CODES)
    keys_ir.bits(500)
    keys_ir.bits(800)  # released
    ring_rf = EdgeRing(256, rig.clock)
    keys_rf = RemoteKeys(ring_rf, EV1527, RF_CODES)
    pin = rig.pin
    irq = ring.irq
    clock = rig.clock
    heap_lock()
    try:
        for t, v in ir_train:
            clock.us = t + 1000000
            pin.v = v
            irq(pin)
        b1 = keys_ir.bits(1600)
        for t, v in rf_train:
            clock.us = t
            pin.v = v
            ring_rf.irq(pin)
        b2 = keys_rf.bits(1600)
        b3 = keys_ir.bits(3000)
    finally:
        heap_unlock()
    assert (b1, b2, b3) == (RED, RED | BLUE, 0), (b1, b2, b3)


# --- NEC keys ---------------------------------------------------------------------------------

def test_ir_tap():
    r = ir()
    r.send(P.nec(0x10EF, t0=100000))
    r.run(1000)
    # down when the frame ends (168 ms), up RELEASE_MS after
    assert r.changes == [(170, RED), (420, 0)], r.changes
    assert r.kinds() == [('TAP', 'RED')]
    assert r.keys.last_code == 0x10EF and r.keys.presses == 1


def test_ir_held_red_auto_repeats():
    r = ir()
    r.send(P.nec(0x10EF, t0=0, repeats=18))  # about 2 s held
    r.run(3000)
    assert len(r.changes) == 2  # down once, up once: the repeats hold it
    down, up = r.changes[0][0], r.changes[1][0]
    assert r.changes[1][1] == 0 and 2000 < up - down < 2300
    reps = [e for e in r.events if e[1] == 'REPEAT']
    assert len(reps) == 1 + (up - down - 600) // 150, r.events
    assert r.kinds() == [('REPEAT', 'RED')] * len(reps)


def test_ir_ok_long_and_hold():
    r = ir()
    r.send(P.nec(0x30CF, t0=0, repeats=8))  # about 1 s
    r.run(2000)
    assert r.kinds() == [('LONG', 'OK')]
    r = ir()
    r.send(P.nec(0x30CF, t0=0, repeats=32))  # about 3.5 s
    r.run(5000)
    assert r.kinds() == [('HOLD', 'OK')]
    assert r.events[0][0] - r.changes[0][0] == 3000


def test_ir_two_quick_taps_are_two_taps():
    r = ir()
    r.send(P.nec(0x10EF, t0=0))
    r.send(P.nec(0x10EF, t0=200000))  # a fresh frame before the first press released
    r.run(1200)
    assert r.kinds() == [('TAP', 'RED'), ('TAP', 'RED')]
    assert r.keys.presses == 2


def test_ir_another_key_while_one_is_held():
    r = ir()
    r.send(P.nec(0x10EF, t0=0))
    r.send(P.nec(0x20DF, t0=150000))
    r.run(1000)
    assert r.kinds() == [('TAP', 'RED'), ('TAP', 'BLUE')]


def test_ir_unbound_code_is_no_key_but_is_seen():
    r = ir()
    r.send(P.nec(0x7788, t0=0, repeats=3))
    r.run(1000)
    assert r.changes == [] and r.events == []
    assert r.keys.last_code == 0x7788 and r.keys.presses == 1


def test_ir_a_lost_repeat_does_not_release():
    r = ir()
    train = P.nec(0x30CF, t0=0, repeats=1) + P.nec_repeats(3 * P.NEC_PERIOD, 10)
    r.send(train)
    r.run(2500)
    assert len(r.changes) == 2 and r.kinds() == [('LONG', 'OK')]


def test_ir_across_the_ms_wrap():
    r = Rig(NEC, IR_CODES, P.NEC_IDLE, start_ms=PERIOD - 400)
    r.send(P.nec(0x10EF, t0=100000, repeats=10))
    r.run(2500)
    assert len(r.changes) == 2
    assert r.kinds()[0] == ('REPEAT', 'RED')


# --- EV1527 keys ------------------------------------------------------------------------------

def test_rf_tap():
    r = rf()
    r.send(P.ev1527(0xABCDE1, t0=50000, frames=4))
    r.run(1000)
    assert [b for _, b in r.changes] == [RED, 0]
    assert r.kinds() == [('TAP', 'RED')]
    assert r.keys.presses == 1


def test_rf_held_is_one_press():
    r = rf()
    r.send(P.ev1527(0xABCDE4, t0=0, frames=80))  # about 3.6 s of frames
    r.run(5000)
    assert len(r.changes) == 2 and r.kinds() == [('HOLD', 'OK')] and r.keys.presses == 1


def test_rf_two_keys_at_once_are_the_chord():
    r = rf()
    r.send(P.ev1527(0xABCDE3, t0=0, frames=30))  # data bits 1|2: RED and BLUE, 1.3 s
    r.run(2000)
    assert r.changes[0][1] == RED | BLUE
    assert r.kinds() == [('CHORD', 'RED')]


def test_rf_data_bits_not_all_bound_are_nothing():
    r = rf()
    r.send(P.ev1527(0xABCDF3, t0=0, frames=6))  # another fob's ID, data bits 1|2
    r.send(P.ev1527(0xABCDE5 | 0x2, t0=400000, frames=6))  # 1|2|4 of ours: RED, BLUE, OK
    r.send(P.ev1527(0xABCDE0 | 0x9, t0=900000, frames=6))  # 1|8: RED, BLUE_MINUS
    r.run(1500)
    assert [b for _, b in r.changes] == [RED | BLUE | OK, 0, RED | keys.BIT(keys.BLUE_MINUS), 0]
    r.keys.bind(0xABCDE8, None)
    r.send(P.ev1527(0xABCDE9, t0=1600000, frames=6))  # 1|8 with 8 unbound: nothing
    r.run(800)
    assert len(r.changes) == 4 and r.keys.last_code == 0xABCDE9


def test_rf_two_presses():
    r = rf()
    r.send(P.ev1527(0xABCDE2, t0=0, frames=4))
    r.send(P.ev1527(0xABCDE2, t0=500000, frames=4))
    r.run(1500)
    assert r.kinds() == [('TAP', 'BLUE'), ('TAP', 'BLUE')]


# --- learn and test ---------------------------------------------------------------------------

def test_learn_takes_the_next_press_and_mutes_it():
    r = ir()
    r.keys.learn()
    assert r.keys.learning and r.keys.learned is None
    r.send(P.nec(0x5AA5, t0=0, repeats=10))  # held through learning
    r.run(1500)
    assert r.keys.learned == 0x5AA5 and not r.keys.learning
    assert r.changes == [] and r.events == []
    r.keys.bind(r.keys.learned, 'OK')
    assert r.keys.codes[0x5AA5] == 'OK'
    r.send(P.nec(0x5AA5, t0=2000000))
    r.run(1500)
    assert r.kinds() == [('TAP', 'OK')]


def test_learn_of_a_press_while_a_key_is_held():
    r = ir()
    r.send(P.nec(0x10EF, t0=0, repeats=5))
    r.run(300)
    r.keys.learn()
    r.run(400)  # RED's repeats go on: they are no fresh press
    assert r.keys.learning
    r.send(P.nec(0x20DF, t0=1000000))
    r.run(800)
    assert r.keys.learned == 0x20DF
    assert ('TAP', 'BLUE') not in r.kinds()


def test_bind_and_unbind():
    r = ir()
    r.keys.bind(0x1111, 'blue-minus')
    assert r.keys.codes[0x1111] == 'BLUE_MINUS'
    r.keys.bind(0x10EF, None)
    assert 0x10EF not in r.keys.codes
    try:
        r.keys.bind(0x2222, 'GREEN')
    except ValueError:
        pass
    else:
        raise AssertionError('unknown button bound')
    r.send(P.nec(0x10EF, t0=0))
    r.run(600)
    assert r.events == [] and r.keys.last_code == 0x10EF


def test_noise_on_the_pin_is_no_key():
    r = rf()
    rng = P.Rng(31)
    r.send(P.noise(0, 3000000, rng, P.RF_IDLE, 30, 900))
    r.run(3200)
    assert r.changes == [] and r.keys.presses == 0


# --- through the controller -------------------------------------------------------------------

def score_from(decoder, codes, idle, press):
    """Setup -> start, RED x3, OK (commit), BLUE held 1.3 s (auto-repeat), OK: from a remote."""
    from scoreboard.ui.controller import Controller

    r = Rig(decoder, codes, idle)
    ctl = Controller(0)
    r.ges = Gestures(lambda kind, key: ctl.event(kind, key, r.now))
    t = 100
    for name, hold in (('OK', 0), ('RED', 0), ('RED', 0), ('RED', 0), ('OK', 0), ('BLUE', 1300),
                       ('OK', 0)):
        r.send(press(name, t, hold))
        t += hold + 700
    r.run(t + 500)
    return ctl.view


def test_a_frame_scored_from_an_ir_remote():
    code = {'RED': 0x10EF, 'BLUE': 0x20DF, 'OK': 0x30CF}

    def press(name, t, hold):
        return P.nec(code[name], t0=t * 1000, repeats=hold // 108)

    v = score_from(NEC, IR_CODES, P.NEC_IDLE, press)
    # 1.3 s of BLUE held: +1 at 600 ms, then every 150 ms until released
    assert v['screen'] == 'play' and v['red'] == 3 and 5 <= v['blue'] <= 7, v


def test_a_frame_scored_from_an_rf_keyfob():
    code = {'RED': 0xABCDE1, 'BLUE': 0xABCDE2, 'OK': 0xABCDE4}

    def press(name, t, hold):
        return P.ev1527(code[name], t0=t * 1000, frames=4 + hold * 1000 // (128 * 350))

    v = score_from(EV1527, RF_CODES, P.RF_IDLE, press)
    assert v['screen'] == 'play' and v['red'] == 3 and 5 <= v['blue'] <= 7, v


# --- the learn round --------------------------------------------------------------------------

def learn_rig():
    from scoreboard.remote.learn import Learn

    a = ir()
    b = rf()
    a.keys.kind = 'ir'
    b.keys.kind = 'rf'
    return a, b, Learn([a.keys, b.keys], ('RED', 'BLUE', 'OK'))


def both(a, b, ms, lr):
    got = []
    end = a.now + ms
    while a.now < end:
        a.run(5)
        b.run(5)
        name = lr.poll()
        if name:
            got.append(name)
    return got


def test_learn_round_asks_each_button_and_binds_the_codes():
    a, b, lr = learn_rig()
    lr.start()
    assert lr.button == 'RED' and not lr.done
    a.send(P.nec(0x1111, t0=100000))
    assert both(a, b, 800, lr) == ['RED'] and lr.button == 'BLUE'
    a.send(P.nec(0x1111, t0=900000))  # the same key again: refused, still BLUE
    assert both(a, b, 800, lr) == [] and lr.refused == 1 and lr.button == 'BLUE'
    a.send(P.nec(0x2222, t0=1700000, repeats=4))  # held: one code, not several buttons
    assert both(a, b, 1000, lr) == ['BLUE'] and lr.button == 'OK'
    a.send(P.nec(0x3333, t0=2800000))
    assert both(a, b, 800, lr) == ['OK'] and lr.done and lr.button is None
    saved = lr.result()
    assert saved['ir'] == {0x1111: 'RED', 0x2222: 'BLUE', 0x3333: 'OK'}
    assert saved['rf'] == RF_CODES_NAMES  # untouched
    assert 0x10EF not in a.keys.codes
    assert a.events == [] and b.events == []  # nothing learned acted as a key
    a.send(P.nec(0x3333, t0=a.now * 1000 + 100000))
    a.run(800)
    assert a.kinds() == [('TAP', 'OK')]


def test_learn_from_either_receiver():
    a, b, lr = learn_rig()
    lr.start()
    b.send(P.ev1527(0x5A5A51, t0=100000, frames=4))
    assert both(a, b, 600, lr) == ['RED']
    a.send(P.nec(0x2222, t0=800000))
    assert both(a, b, 500, lr) == ['BLUE']
    lr.cancel()
    assert not a.keys.learning and not b.keys.learning and lr.button is None


RF_CODES_NAMES = {0xABCDE1: 'RED', 0xABCDE2: 'BLUE', 0xABCDE4: 'OK', 0xABCDE8: 'BLUE_MINUS'}
