# runs-on: micropython
# The board's tournament matches (net/matches.py) and the MQTT client's incoming PUBLISH path
# (net/mqtt.py) under both interpreters (the MicroPython unix port runs this file too): hostile
# payloads and packets refused, a match applied at setup only, kept over a power cut, its id on
# the banked game. test_mqtt_subscribe.py fuzzes the same paths with hypothesis on CPython.
import asyncio
import json
import os

from mqtt_probe import GOOD, TOPIC, BytesReader, SinkWriter
from scoreboard.core import new_game
from scoreboard.net.matches import MatchLink, check
from scoreboard.net.mqtt import MQTTClient, publish_packet
from scoreboard.ui.controller import Controller
from scoreboard.ui.gestures import TAP
from scoreboard.ui.input import PRESS
from scoreboard.ui.keys import OK

_n = [0]


def fresh_dir():
    _n[0] += 1
    base = '/tmp/sb-matches-test-%d-%d' % (os.getpid() if hasattr(os, 'getpid') else 0, _n[0])
    try:
        os.mkdir(base)
    except OSError:
        pass
    for n in ('match.json', 'match.json.tmp'):
        try:
            os.remove(base + '/' + n)
        except OSError:
            pass
    return base


def good(**kw):
    d = json.loads(json.dumps(GOOD))
    for k in kw:
        d[k] = kw[k]
    return json.dumps(d).encode()


HOSTILE = [b'', b'x', b'\xff\xfe\xfd', b'[' * 3000, b'{"a":' * 2000, b'null', b'[]', b'"s"',
           b'{}', b'1e999999', b'{"id": "t1r1m2"}',
           good(id=''), good(id='a b'), good(id='x' * 41), good(id=7), good(round=0),
           good(round=True), good(round=1.5), good(game='chess'), good(options=[]),
           good(options={'target': [1]}), good(options={'k%d' % i: 1 for i in range(9)}),
           good(names={'red': 'A' * 13, 'blue': 'B'}), good(names={'red': 'A\x00', 'blue': 'B'}),
           good(names={'green': 'A'}), good(names=None), good(tournament=None),
           b'x' * 600]


def test_hostile_payloads_are_refused_and_change_nothing():
    ctl = Controller(0)
    link = MatchLink(fresh_dir(), TOPIC)
    for p in HOSTILE:
        taken = link.offer(TOPIC, p)
        if p == b'':
            assert taken and link.pending is None     # an empty match: a clear, not a match
            continue
        assert not taken, p[:40]
        assert link.pending is None
        assert not link.poll(ctl, 0)
    assert ctl.view['names'] == {'red': None, 'blue': None}
    assert link.refused == len(HOSTILE) - 1
    assert not link.offer('shuffleboard/bar/2/match', good())
    assert not link.offer('shuffleboard/bar/1/matc', good())
    assert link.why == 'foreign topic'


def test_a_match_waits_for_setup_and_keeps_over_a_power_cut():
    root = fresh_dir()
    ctl = Controller(0)
    link = MatchLink(root, TOPIC)
    ctl.event(PRESS, OK, 0)
    ctl.event(TAP, OK, 0)               # a game in play
    assert link.offer(TOPIC, good())
    assert not link.poll(ctl, 10) and ctl.view['names'] == {'red': None, 'blue': None}
    ctl.act({'do': 'frame', 'red': 15, 'blue': 0}, 20)
    ctl.act({'do': 'bank'}, 30)
    assert link.poll(ctl, 40)
    assert ctl.view['names'] == {'red': 'Ann', 'blue': 'Bob'} and ctl.view['target'] == 5
    assert ctl.view['message'] == 'Ann v Bob'
    again = MatchLink(root, TOPIC)      # the power is cut and comes back
    assert again.current == check(GOOD)
    assert again.offer(TOPIC, good()) and again.pending is None   # not applied twice
    g = new_game('knockoff', target=5)
    g.enter_frame(red=5, blue=0)
    assert again.banked(g, {'red': 'Ann', 'blue': 'Bob'}) == 't1r1m2'
    assert MatchLink(root, TOPIC).done == ['t1r1m2']


def test_incoming_publishes_are_bounded_and_acknowledged():
    stream = (publish_packet(TOPIC, b'y' * 5000, True, 1, 3) +
              publish_packet('t/' * 100, b'{}', False, 1, 4) +
              publish_packet(TOPIC, good(), True, 2, 5) +
              publish_packet(TOPIC, good(), True, 1, 6))
    c = MQTTClient('p', '127.0.0.1')
    c._r, c._w = BytesReader(stream), SinkWriter()    # the test stands in for the socket
    c.connected = True
    got = []
    c.on_message = lambda t, p: got.append((t, bytes(p)))
    asyncio.run(c._read_loop())
    assert got == [(TOPIC, good())]
    assert c.refused == 3
    assert not c.connected                          # the stream ended: the link is closed
    acks = []
    c2 = MQTTClient('p', '127.0.0.1')
    w = SinkWriter()
    c2._r, c2._w = BytesReader(stream), w
    c2.connected = True
    c2.on_message = lambda t, p: None
    asyncio.run(c2._read_loop())
    out = bytes(w.out)
    for i in range(0, len(out), 4):
        acks.append(out[i + 2] << 8 | out[i + 3])
    assert acks == [3, 4, 6]                       # QoS 1 acknowledged, kept or not
