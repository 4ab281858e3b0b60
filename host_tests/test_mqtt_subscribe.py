# The board's MQTT SUBSCRIBE path (net/mqtt.py) and its tournament matches (net/matches.py):
# SUBSCRIBE with its SUBACK, each incoming QoS 1 PUBLISH acknowledged, the bounds (payload and
# topic size, QoS 2, malformed packets), and the match applied at setup only, kept over a power
# cut, its id on the banked record. Hostile packets and payloads are fuzzed (hypothesis: a short
# seeded run here, a long one under `make fuzz`).
import asyncio
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mqtt_probe import GOOD, TOPIC, BytesReader, SinkWriter, TinyBroker, serve, until
from scoreboard.core import new_game
from scoreboard.net import mqtt
from scoreboard.net.matches import MatchLink, check
from scoreboard.net.mqtt import MQTTClient, publish_packet
from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import Venue, settings as venue_settings
from scoreboard.ui.controller import Controller
from scoreboard.ui.gestures import TAP
from scoreboard.ui.input import PRESS
from scoreboard.ui.keys import OK

LONG = os.environ.get('HYPOTHESIS_PROFILE') == 'fuzz'    # `make fuzz`: long and random


# --- the client against a broker that sends what the test says ------------------------------

class ScriptBroker(TinyBroker):
    """CONNACK, SUBACK (return code `grant`), then `after_sub` raw bytes; records what the
    client sends (its PUBACKs)."""

    def __init__(self, after_sub=b'', grant=1):
        self.after_sub = after_sub
        self.grant = grant
        self.pubacks = []
        self.subscribed = []
        self.published = []
        self.closed = asyncio.Event()

    def packet(self, kind, head, body, w):
        if kind == 0x80:
            tlen = body[2] << 8 | body[3]
            self.subscribed.append((body[4:4 + tlen].decode(), body[4 + tlen]))
            w.write(b'\x90\x03' + body[:2] + bytes((self.grant,)))
            w.write(self.after_sub)
        elif kind == 0x40:
            self.pubacks.append(body[0] << 8 | body[1])
        elif kind == 0x30:
            tlen = body[0] << 8 | body[1]
            self.published.append(body[2:2 + tlen].decode())
            if head & 0x06:
                w.write(b'\x40\x02' + body[2 + tlen:4 + tlen])

    def hung_up(self):
        self.closed.set()


def run_client(after_sub, grant=1, max_payload=512, wait=0.3):
    got = []

    async def main():
        broker = ScriptBroker(after_sub, grant)
        server, port = await serve(broker.client)
        c = MQTTClient('t', '127.0.0.1', port, timeout=3)
        c.on_message = lambda t, p: got.append((t, bytes(p)))
        c.max_payload = max_payload
        await c.connect()
        err = None
        try:
            granted = await c.subscribe(TOPIC, 1)
        except OSError as e:
            granted, err = None, e
        await asyncio.sleep(wait)
        alive = c.connected
        c.close()
        server.close()
        return broker, c, granted, err, alive

    broker, c, granted, err, alive = asyncio.run(main())
    return got, broker, c, granted, err, alive


def test_subscribe_and_a_retained_qos1_match_is_acknowledged():
    pkt = publish_packet(TOPIC, json.dumps(GOOD), retain=True, qos=1, pid=77)
    got, broker, c, granted, err, alive = run_client(pkt)
    assert broker.subscribed == [(TOPIC, 1)] and granted == 1 and err is None
    assert got == [(TOPIC, json.dumps(GOOD).encode())]
    assert broker.pubacks == [77] and alive and c.received == 1


def test_a_refused_subscription_raises():
    got, broker, c, granted, err, alive = run_client(b'', grant=0x80)
    assert granted is None and 'refused' in str(err)


def test_oversized_long_topic_and_qos2_are_read_past_and_the_link_goes_on():
    big = publish_packet(TOPIC, b'x' * 100000, retain=True, qos=1, pid=5)
    long_topic = publish_packet('a/' * 200, b'{}', qos=1, pid=6)
    qos2 = publish_packet(TOPIC, json.dumps(GOOD), qos=2, pid=7)
    good = publish_packet(TOPIC, json.dumps(GOOD), qos=0)
    got, broker, c, granted, err, alive = run_client(big + long_topic + qos2 + good)
    assert got == [(TOPIC, json.dumps(GOOD).encode())]
    assert c.refused == 3 and broker.pubacks == [5, 6] and alive


def test_malformed_packets_end_the_link():
    for raw in (b'\x32\x03\x00\x09a',              # topic longer than the packet
                b'\x36\x05\x00\x01a\x00\x01',      # QoS 3
                b'\x90\xff\x7f' + b'\x00' * 100,   # a SUBACK far too large
                b'\x30\xff\xff\xff\xff\x01'):      # a length of more than four bytes
        got, broker, c, granted, err, alive = run_client(raw, wait=0.3)
        assert not alive and got == [], raw


# --- the reader fuzzed without sockets ----------------------------------------------------------

def feed(data, max_payload=512):
    c = MQTTClient('f', '127.0.0.1')
    c._r, c._w = BytesReader(data), SinkWriter()   # the test stands in for the socket
    c.connected = True
    c.max_payload = max_payload
    got = []
    link = MatchLink('', TOPIC)
    link.path = '/dev/null'

    def on(topic, payload):
        got.append((topic, payload))
        link.offer(topic, payload)
    c.on_message = on
    asyncio.run(c._read_loop())
    return c, got, link


packets = st.one_of(
    st.binary(max_size=40),
    st.builds(lambda t, p, q, pid, r: publish_packet(t, p, r, q, pid),
              st.sampled_from([TOPIC, 'shuffleboard/bar/2/match', '', 'x' * 300,
                               'shuffleboard/bar/1/state']),
              st.one_of(st.binary(max_size=700),
                        st.builds(lambda d: json.dumps(d).encode(),
                                  st.dictionaries(st.sampled_from(list(GOOD) + ['x']),
                                                  st.one_of(st.integers(), st.text(max_size=20),
                                                            st.none(), st.booleans(),
                                                            st.just(GOOD['names'])),
                                                  max_size=7))),
              st.integers(0, 2), st.integers(1, 65535), st.booleans()))


@settings(max_examples=3000 if LONG else 150, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(packets, max_size=8))
def test_fuzz_hostile_packets_never_break_the_board(pkts):
    c, got, link = feed(b''.join(pkts))
    for topic, payload in got:
        assert len(topic.encode()) <= mqtt.MAX_TOPIC and len(payload) <= c.max_payload
    assert c.connected is False          # the stream ended: the link is closed, nothing raised
    if link.pending is not None:         # whatever was taken is a well-formed match
        assert check(link.pending) == link.pending


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=15)),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12)


def mutate(d, key, value):
    d = json.loads(json.dumps(d))
    d[key] = value
    return d


@settings(max_examples=5000 if LONG else 200, deadline=None, derandomize=not LONG)
@given(st.one_of(
    json_values.map(lambda v: json.dumps(v).encode()),
    st.builds(mutate, st.just(GOOD), st.sampled_from(list(GOOD)), json_values).map(
        lambda d: json.dumps(d).encode()),
    st.binary(max_size=80),
    st.just(b'[' * 5000), st.just(b'{"a":' * 3000)))
def test_fuzz_match_payloads_are_refused_or_well_formed(payload):
    ctl = Controller(0)
    link = MatchLink('', TOPIC)
    link.path = '/dev/null'
    before = ctl.view['names'].copy(), ctl.kind
    taken = link.offer(TOPIC, payload)
    applied = link.poll(ctl, 0)
    if not taken or not applied:
        assert (ctl.view['names'], ctl.kind) == before or link.pending is None
    if applied:
        m = link.current
        assert check(m) == m and ctl.view['names'] == m['names'] and ctl.kind == m['game']


# --- the match on the board ---------------------------------------------------------------

def start_game(ctl, now):
    ctl.event(PRESS, OK, now)
    ctl.event(TAP, OK, now)


def test_a_match_is_applied_at_setup_only_and_said(tmp_path):
    root = str(tmp_path)
    ctl = Controller(0)
    link = MatchLink(root, TOPIC)
    assert not link.offer('shuffleboard/bar/2/match', json.dumps(GOOD).encode())
    assert link.why == 'foreign topic'
    assert not link.offer(TOPIC, b'{"id": "t1r1m2"}') and link.pending is None
    assert not link.offer(TOPIC, b'x' * 600) and link.why == 'too large'
    bad = dict(GOOD, names={'red': 'A' * 13, 'blue': 'Bob'})
    assert not link.offer(TOPIC, json.dumps(bad).encode())
    # a game in play: the match waits
    start_game(ctl, 10)
    assert ctl.screen == 'play'
    assert link.offer(TOPIC, json.dumps(GOOD).encode())
    assert not link.poll(ctl, 20) and link.pending is not None and ctl.screen == 'play'
    ctl.act({'do': 'frame', 'red': 15, 'blue': 0}, 30)
    assert not link.poll(ctl, 40) and ctl.screen == 'over'     # over, not banked: waits
    ctl.act({'do': 'bank'}, 50)
    assert link.poll(ctl, 60)
    v = ctl.view
    assert v['screen'] == 'setup' and v['names'] == {'red': 'Ann', 'blue': 'Bob'}
    assert v['game'] == 'knockoff' and v['target'] == 5 and v['message'] == 'Ann v Bob'
    start_game(ctl, 3000)                                      # OK starts that game
    assert ctl.screen == 'play' and ctl.game.target == 5
    # a power cut: the match is on flash with the saved game; the broker's copy again is not
    # applied twice
    again = MatchLink(root, TOPIC)
    assert again.current == check(GOOD)
    assert again.offer(TOPIC, json.dumps(GOOD).encode()) and again.pending is None
    g = new_game('knockoff', target=5)
    g.enter_frame(red=5, blue=0)
    assert again.banked(g, {'red': 'Ann', 'blue': None}) is None    # not the match's game
    assert again.banked(g, {'red': 'Ann', 'blue': 'Bob'}) == 't1r1m2'
    assert again.current is None and MatchLink(root, TOPIC).done == ['t1r1m2']
    assert again.offer(TOPIC, json.dumps(GOOD).encode()) and again.pending is None


def test_an_empty_retained_match_clears_it(tmp_path):
    ctl = Controller(0)
    link = MatchLink(str(tmp_path), TOPIC)
    link.offer(TOPIC, json.dumps(GOOD).encode())
    link.poll(ctl, 0)
    assert ctl.view['names']['red'] == 'Ann'
    assert link.offer(TOPIC, b'')
    assert link.poll(ctl, 10)
    assert link.current is None and ctl.view['names'] == {'red': None, 'blue': None}


def test_the_banked_record_carries_the_match(tmp_path):
    conf = venue_settings({'mqtt': {'host': '127.0.0.1', 'venue': 'bar', 'table': '1'}})
    v = Venue(None, conf, Outbox(str(tmp_path)), 'b1')
    v.take_matches(MatchLink(str(tmp_path), v.base + 'match'))
    ctl = Controller(0)
    v.hook(ctl)
    v.matches.offer(TOPIC, json.dumps(GOOD).encode())
    v.matches.poll(ctl, 0)
    start_game(ctl, 100)
    ctl.act({'do': 'frame', 'red': 5, 'blue': 0}, 200)
    ctl.act({'do': 'bank'}, 300)
    ctl.act({'do': 'new', 'names': {'red': 'Ann', 'blue': 'Bob'}}, 400)   # same names, no match
    start_game(ctl, 500)
    ctl.act({'do': 'frame', 'red': 15, 'blue': 0}, 600)
    ctl.act({'do': 'bank'}, 700)
    recs = []
    while v.outbox.peek():
        name, payload = v.outbox.peek()
        recs.append(json.loads(payload))
        v.outbox.remove(name)
    assert [r.get('match') for r in recs] == ['t1r1m2', None]
    assert recs[0]['names'] == {'red': 'Ann', 'blue': 'Bob'} and recs[0]['red'] == 5


def test_a_banked_match_leaves_the_setup_screen(tmp_path):
    ctl = Controller(0)
    link = MatchLink(str(tmp_path), TOPIC)
    link.offer(TOPIC, json.dumps(GOOD).encode())
    link.poll(ctl, 0)
    start_game(ctl, 3000)
    ctl.act({'do': 'frame', 'red': 5, 'blue': 0}, 3100)
    g = ctl.game
    ctl.act({'do': 'bank'}, 3200)
    assert link.banked(g, ctl.names) == 't1r1m2'
    assert ctl.view['names'] == {'red': 'Ann', 'blue': 'Bob'}
    link.poll(ctl, 3300)          # at setup: the played match's names go
    assert ctl.screen == 'setup' and ctl.view['names'] == {'red': None, 'blue': None}


def test_a_broker_that_refuses_the_subscription_still_gets_the_games(tmp_path):
    # A broker whose ACL does not let this table read its `match` topic: no matches, but the
    # board stays connected and its banked games still go out.
    async def main():
        broker = ScriptBroker(b'', grant=0x80)
        server, port = await serve(broker.client)
        conf = venue_settings({'mqtt': {'host': '127.0.0.1', 'port': port, 'venue': 'bar',
                                        'table': '1'}})
        v = Venue(None, conf, Outbox(str(tmp_path)), 'b1')
        v.take_matches(MatchLink(str(tmp_path), v.base + 'match'))
        ctl = Controller(0)
        v.hook(ctl)
        task = asyncio.create_task(v.run())
        await until(lambda: broker.subscribed)
        start_game(ctl, 100)
        ctl.act({'do': 'frame', 'red': 15, 'blue': 0}, 200)
        ctl.act({'do': 'bank'}, 300)
        await until(lambda: 'shuffleboard/bar/1/game' in broker.published)
        v.stop()
        await asyncio.sleep(0.1)
        task.cancel()
        server.close()
        return v

    v = asyncio.run(main())
    assert v.connects == 1 and v.sent == 1 and v.matches.why == 'subscribe refused'
