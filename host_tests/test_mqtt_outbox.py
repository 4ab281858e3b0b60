# runs-on: micropython
# The board's side of the venue without a broker: the MQTT packets it writes, the outbox on
# flash (order, bound, ids across reboots, a power cut mid-write), the settings and the record.
import json
import os

from scoreboard.core import new_game
from scoreboard.net import mqtt
from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import discovery, public_view, record, settings

_n = [0]


def fresh_dir():
    _n[0] += 1
    base = '/tmp/sb-outbox-test-%d-%d' % (os.getpid() if hasattr(os, 'getpid') else 0, _n[0])
    try:
        for n in os.listdir(base + '/outbox'):
            os.remove(base + '/outbox/' + n)
        os.rmdir(base + '/outbox')
    except OSError:
        pass
    try:
        os.mkdir(base)
    except OSError:
        pass
    return base


def _sent_ids(box):
    """Every record's id, oldest first, each removed as the link does once it is sent."""
    ids = []
    while True:
        item = box.peek()
        if item is None:
            break
        ids.append(json.loads(item[1])['id'])
        box.remove(item[0])
    return ids


def test_connect_packet_bytes():
    # MQTT 3.1.1 section 3.1: the protocol name, level 4, the flags, keepalive, then the payload.
    p = mqtt.connect_packet('b1', 30, 'u', 'pw', ('s/t', 'offline', True, 1))
    body = (b'\x00\x04MQTT\x04' + bytes((0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02,)) + b'\x00\x1e'
            + b'\x00\x02b1' + b'\x00\x03s/t' + b'\x00\x07offline' + b'\x00\x01u' + b'\x00\x02pw')
    assert p == bytes((0x10, len(body))) + body
    assert mqtt.connect_packet('x', 60)[9] == 0x02   # clean session only


def test_publish_packet_lengths():
    assert mqtt.publish_packet('a', b'hi') == b'\x30\x05\x00\x01ahi'
    assert mqtt.publish_packet('a', 'hi', retain=True, qos=1, pid=258) == \
        b'\x33\x07\x00\x01a\x01\x02hi'
    big = mqtt.publish_packet('t', b'x' * 200)   # remaining length 203: two bytes, 0xcb 0x01
    assert big[:3] == b'\x30\xcb\x01' and len(big) == 3 + 203
    huge = mqtt.publish_packet('t', b'x' * 20000)   # 20003 = 0xa3 0x9c 0x01
    assert huge[:4] == b'\x30\xa3\x9c\x01'


def test_outbox_keeps_order_and_bound():
    root = fresh_dir()
    box = Outbox(root, limit=3)
    for i in range(5):
        kept = box.add({'id': 'r%d' % i})
        assert kept == (i < 3)
    assert len(box) == 3 and box.dropped == 2   # full: the new ones are not kept
    assert _sent_ids(box) == ['r0', 'r1', 'r2']
    assert box.add({'id': 'r5'})   # room again once sent


def test_outbox_survives_a_reboot_and_a_torn_write():
    root = fresh_dir()
    box = Outbox(root)
    ids = [box.next_id() for _ in range(3)]
    box.add({'id': ids[0]})
    box.add({'id': ids[1]})
    with open(root + '/outbox/00000003.json.tmp', 'w') as f:   # a power cut mid-write
        f.write('{"id": "tor')
    again = Outbox(root)
    assert len(again) == 2
    assert json.loads(again.peek()[1])['id'] == ids[0]
    assert '00000003.json.tmp' not in os.listdir(root + '/outbox')
    later = again.next_id()
    assert later not in ids and later.split('-')[0] == ids[0].split('-')[0]
    assert int(later.split('-')[1]) == 4


def test_a_wiped_outbox_gets_a_new_tag():
    a = Outbox(fresh_dir()).next_id()
    b = Outbox(fresh_dir()).next_id()
    assert a.split('-')[1] == b.split('-')[1] == '1'
    assert a != b   # random tags: a board whose flash was wiped does not reuse an id


def refused(net):
    try:
        settings(net)
    except ValueError as e:
        return str(e)
    return None


def test_settings_are_checked():
    good = {'mqtt': {'host': '10.0.0.2', 'venue': 'kings-arms', 'table': '3'}}
    s = settings(good)
    assert s['port'] == 1883 and s['user'] is None and s['table'] == '3'
    assert settings({}) is None and settings({'ssid': 'bar'}) is None
    # venue and table default as `make deploy` writes them
    s = settings({'mqtt': {'host': 'h'}})
    assert (s['venue'], s['table'], s['port']) == ('bar', '1', 1883)
    names = 'mqtt venue and table are 1..32 letters, digits, _ or -'
    assert refused({'mqtt': {'host': 'h', 'venue': 'a/b', 'table': '1'}}) == names
    assert refused({'mqtt': {'host': 'h', 'venue': 'v', 'table': '#'}}) == names
    assert refused({'mqtt': {'host': 'h', 'table': ''}}) == names
    assert refused({'mqtt': {'host': 'h', 'table': '1', 'port': '1883'}}) == \
        'mqtt port is 1..65535'
    assert refused({'mqtt': {'host': '', 'table': '1'}}) == 'mqtt needs a host'
    assert refused({'mqtt': 'broker.local'}) == 'mqtt is an object'


def test_unusable_mqtt_settings_are_said_and_the_board_plays_without_them():
    from scoreboard.net.venue import from_net
    said = []
    assert from_net({'mqtt': {'port': 1883}}, fresh_dir(), 'ab12', log=said.append) is None
    assert said == ['venue: net.json: mqtt needs a host; the board plays without the broker']


def test_record_of_a_banked_game():
    g = new_game('knockoff', target=5)
    g.enter_frame(red=3, blue=0)
    g.enter_frame(red=0, blue=2)
    g.enter_frame(red=2, blue=0)
    r = record(g, {'red': 'Ann', 'blue': None}, 'b-1', '3', 42)
    assert r['v'] == 1
    assert r['id'] == 'b-1' and r['table'] == '3' and r['game'] == 'knockoff'
    assert r['red'] == 5 and r['blue'] == 2 and r['winner'] == 'red' and r['ended'] == 42
    assert r['names'] == {'red': 'Ann', 'blue': None}
    assert len(r['frames']) == 3 and r['options']['target'] == 5
    assert json.loads(json.dumps(r)) == r


def test_discovery_configs():
    # (Every payload against Home Assistant's documented schema: test_ha_discovery.py.)
    cfgs = discovery('shuffleboard/v/3/', 'v', '3', 'e6614103e7', 'http://t3.local/', '0.1.0')
    assert len(cfgs) == 6
    ids = set()
    for topic, payload in cfgs:
        assert topic.startswith('homeassistant/') and topic.endswith('/config')
        assert topic.split('/')[2] == 'shuffleboard_v_3'
        c = json.loads(payload)
        assert c['availability'][0]['topic'] == 'shuffleboard/v/3/status'
        assert 'object_id' not in c and c['default_entity_id'].endswith(c['unique_id'])
        assert c['device']['serial_number'] == 'e6614103e7'
        ids.add(c['unique_id'])
    assert len(ids) == 6


def test_the_outbox_holds_256_games_and_says_a_drop():
    from scoreboard.net.outbox import LIMIT
    assert LIMIT >= 256
    root = fresh_dir()
    box = Outbox(root)
    rec = {'id': 'x', 'frames': [['f', 1, 0]] * 12, 'names': {'red': 'Ann', 'blue': 'Ben'}}
    for i in range(LIMIT):
        assert box.add(dict(rec, id='r%d' % i))
    assert not box.add(dict(rec, id='one too many')) and box.dropped == 1
    again = Outbox(root)                      # the count of drops survives a reboot
    assert len(again) == LIMIT and again.dropped == 1
    assert json.loads(again.peek()[1])['id'] == 'r0'
    for n in os.listdir(root + '/outbox'):
        os.remove(root + '/outbox/' + n)


def test_a_fuller_flash_keeps_fewer_records_and_says_so():
    root = fresh_dir()
    box = Outbox(root, reserve=1 << 60)        # as if the flash had no room beside the game
    assert not box.add({'id': 'a'}) and box.dropped == 1 and len(box) == 0


def test_the_drop_is_said_on_the_display_status_and_console():
    from scoreboard.net.venue import Venue, status_text
    from venue.vtable import Table
    root = fresh_dir()
    said = []
    link = Venue(None, {'host': 'h', 'port': 1, 'venue': 'v', 'table': '2', 'user': None,
                        'password': None}, Outbox(root, limit=1), 'ab12', log=said.append)
    t = Table()
    link.hook(t)
    answers = []
    for _ in range(3):
        t.new('knockoff', {'target': 5})
        t.frame(5, 0)
        answers.append(link.bank(t.game, t.names))
    assert answers == [None, 'not sent 1', 'not sent 2']
    assert len(said) == 2 and 'not sent 2' in said[1]
    assert status_text(0) == 'online' and status_text(2) == 'online, not sent 2'


def test_published_payloads_are_valid_utf8_and_carry_a_version():
    from scoreboard.net.utf8 import repair, valid
    from scoreboard.net.venue import payload, state_payload
    # What MicroPython's json makes of a phone's "\ud83c\udfaf": the two halves apart.
    halves = json.loads('"\\ud83c\\udfaf"')
    view = {'screen': 'play', 'names': {'red': halves, 'blue': 'Zo\u00eb'}, 'pin': '1234'}
    b = state_payload(view)
    assert valid(b)
    d = json.loads(b)
    assert d['v'] == 1 and 'pin' not in d and d['names']['blue'] == 'Zo\u00eb'
    assert len(d['names']['red']) in (1, 2)   # one character (two halves on CPython's json)
    assert repair(b'\xed\xa0\xbc\xed\xbe\xaf') == b'\xf0\x9f\x8e\xaf'
    assert repair(b'a\xed\xa0\xbcb') == b'a\xef\xbf\xbdb'    # a lone half: U+FFFD
    assert repair(b'\xc0\xaf\xff') == b'\xef\xbf\xbd' * 3      # overlong, not UTF-8
    assert valid(payload({'n': 'caf\u00e9 \u2603'}))


def test_from_net_hooks_the_controller_and_banks_to_flash():
    from scoreboard.net.venue import from_net
    from venue.vtable import Table
    root = fresh_dir()
    assert from_net({'ssid': 'bar'}, root) is None   # no mqtt settings: no venue link
    link = from_net({'mqtt': {'host': '127.0.0.1', 'venue': 'v', 'table': '2'}}, root, 'ab12')
    t = Table()
    link.hook(t)
    t.new('knockoff', {'target': 5}, {'red': 'Ann', 'blue': None})
    t.frame(5, 0)
    t.bank()
    assert len(link.outbox) == 1
    r = json.loads(link.outbox.peek()[1])
    assert r['id'].startswith('ab12-') and r['table'] == '2' and r['winner'] == 'red'
    assert r['names'] == {'red': 'Ann', 'blue': None}


def test_the_pairing_pin_is_not_published():
    view = {'screen': 'play', 'red': 3, 'pin': '4821'}
    out = public_view(view)
    assert 'pin' not in out and out['red'] == 3
    assert view['pin'] == '4821'   # the board's own view is untouched
    plain = {'screen': 'play'}
    assert public_view(plain) is plain


def test_records_sent_are_remembered_across_a_reboot():
    root = fresh_dir()
    box = Outbox(root)
    for i in range(40):                       # three files: 16, 16 and 8
        assert box.add({'id': 'r%d' % i})
    for _ in range(20):                       # the first file and 4 of the second sent
        name, data = box.peek()
        box.remove(name)
    again = Outbox(root)                      # a reboot
    assert len(again) == 20
    assert json.loads(again.peek()[1])['id'] == 'r20'
    assert again.add({'id': 'r40'})
    assert _sent_ids(again) == ['r%d' % i for i in range(20, 41)]
    assert [n for n in os.listdir(root + '/outbox') if n.endswith('.jsonl')] == []


def test_records_of_the_first_firmware_go_first_and_a_torn_line_is_not_a_record():
    root = fresh_dir()
    os.mkdir(root + '/outbox')
    with open(root + '/outbox/00000001.json', 'w') as f:   # one record a file, as before
        f.write(json.dumps({'id': 'old-1'}))
    with open(root + '/outbox/seq', 'w') as f:
        f.write('a1b2c3d4 2')
    with open(root + '/outbox/1.jsonl', 'w') as f:         # a power cut mid-append (FAT)
        f.write(json.dumps({'id': 'new-1'}) + '\n' + '{"id": "ne')
    box = Outbox(root)
    assert len(box) == 2 and box.next_id() == 'a1b2c3d4-2'
    assert box.add({'id': 'new-2'})          # not glued to the torn line: a new file
    assert _sent_ids(box) == ['old-1', 'new-1', 'new-2']


def test_a_pico_w_sized_littlefs_holds_256_games():
    # The firmware's own filesystem under the unix port: 848 KB of littlefs in 4 KB blocks, as
    # a Pico W's. (On CPython, plain files: the count alone.)
    root = fresh_dir()
    if hasattr(os, 'VfsLfs2'):
        from virtual import flash
        flash.umount('/pw')
        dev = flash.lfs_device(212)
        flash.format_fs(dev, 'lfs')
        flash.mount(dev, 'lfs', '/pw')
        root = '/pw'
    g = new_game('knockoff', target=21)
    for r, b in ((2, 0), (0, 3), (1, 0), (0, 2), (4, 0), (0, 1), (3, 0), (0, 4), (2, 0),
                 (0, 2), (3, 0), (0, 3), (4, 0), (2, 0)):
        if not g.over:
            g.enter_frame(red=r, blue=b)
    rec = record(g, {'red': 'Annabel', 'blue': 'Bartholomew'}, 'e6614103e7-1a2b3c4d-100',
                 '12', 12345)
    box = Outbox(root)
    kept = 0
    while box.add(rec) and kept < 300:
        kept += 1
    assert kept == 256 and box.dropped == 1
    if hasattr(os, 'VfsLfs2'):
        st = os.statvfs(root)
        assert st[0] * st[4] > 500 * 1024     # most of the flash still free
        from virtual import flash
        flash.umount('/pw')
