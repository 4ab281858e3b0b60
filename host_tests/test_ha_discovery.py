# Home Assistant discovery as Home Assistant documents it today (MQTT integration, "Discovery
# messages": the topic form, the entity options of sensor, binary_sensor and event, the
# abbreviations, device and origin), every payload the board publishes checked against it; and on
# a real mosquitto, the configs of a renamed table removed with empty retained configs.
import asyncio
import json
import re
import time

import pytest
from scoreboard.net import ha
from scoreboard.net.outbox import Outbox
from scoreboard.net.venue import Venue, settings, state_payload
from venue_support import Broker, Collector, wait_until

TOPIC = re.compile(r'^homeassistant/(?P<component>[a-z_]+)/(?P<node>[a-zA-Z0-9_-]+)/'
                   r'(?P<object>[a-zA-Z0-9_-]+)/config$')

# Options every MQTT entity takes, and those of each platform (Home Assistant's docs).
COMMON = {'availability', 'availability_mode', 'availability_template', 'availability_topic',
          'default_entity_id', 'device', 'enabled_by_default', 'encoding', 'entity_category',
          'entity_picture', 'icon', 'json_attributes_template', 'json_attributes_topic',
          'name', 'origin', 'payload_available', 'payload_not_available', 'platform', 'qos',
          'unique_id', 'value_template', 'state_topic', 'device_class'}
PLATFORM = {
    'sensor': {'expire_after', 'force_update', 'last_reset_value_template', 'options',
               'suggested_display_precision', 'state_class', 'unit_of_measurement'},
    'binary_sensor': {'expire_after', 'force_update', 'off_delay', 'payload_off',
                      'payload_on'},
    'event': {'event_types'},
}
REQUIRED = {'sensor': {'state_topic'}, 'binary_sensor': {'state_topic'},
            'event': {'state_topic', 'event_types'}}
# The documented abbreviations of the options above (a config may use either spelling).
ABBREVIATIONS = {
    'avty': 'availability', 'avty_mode': 'availability_mode',
    'avty_tpl': 'availability_template', 'avty_t': 'availability_topic',
    'def_ent_id': 'default_entity_id', 'dev': 'device', 'en': 'enabled_by_default',
    'e': 'encoding', 'ent_cat': 'entity_category', 'ent_pic': 'entity_picture', 'ic': 'icon',
    'json_attr_tpl': 'json_attributes_template', 'json_attr_t': 'json_attributes_topic',
    'o': 'origin', 'pl_avail': 'payload_available', 'pl_not_avail': 'payload_not_available',
    'p': 'platform', 'uniq_id': 'unique_id', 'val_tpl': 'value_template',
    'stat_t': 'state_topic', 'dev_cla': 'device_class', 'exp_aft': 'expire_after',
    'frc_upd': 'force_update', 'lrst_val_tpl': 'last_reset_value_template', 'ops': 'options',
    'sug_dsp_prc': 'suggested_display_precision', 'stat_cla': 'state_class',
    'unit_of_meas': 'unit_of_measurement', 'off_dly': 'off_delay', 'pl_off': 'payload_off',
    'pl_on': 'payload_on', 'evt_typ': 'event_types'}
DEVICE = {'configuration_url', 'connections', 'hw_version', 'identifiers', 'manufacturer',
          'model', 'model_id', 'name', 'serial_number', 'suggested_area', 'sw_version',
          'via_device'}
DEVICE_ABBR = {'cu': 'configuration_url', 'cns': 'connections', 'hw': 'hw_version',
               'ids': 'identifiers', 'mf': 'manufacturer', 'mdl': 'model', 'mdl_id': 'model_id',
               'sn': 'serial_number', 'sa': 'suggested_area', 'sw': 'sw_version',
               'via_device': 'via_device'}
ORIGIN = {'name', 'sw_version', 'support_url'}
ORIGIN_ABBR = {'sw': 'sw_version', 'url': 'support_url'}
AVAILABILITY = {'topic', 'payload_available', 'payload_not_available', 'value_template'}
STATE_CLASSES = {'measurement', 'measurement_angle', 'total', 'total_increasing'}


def full(d, names, abbr):
    out = {}
    for k, v in d.items():
        name = abbr.get(k, k)
        assert name in names, 'not a documented option: %r' % k
        assert name not in out, 'given twice: %r' % name
        out[name] = v
    return out


def check(topic, payload, base, view):
    m = TOPIC.match(topic)
    assert m, topic
    component = m.group('component')
    assert component in PLATFORM, component
    cfg = full(json.loads(payload), COMMON | PLATFORM[component], ABBREVIATIONS)
    assert 'object_id' not in json.loads(payload)          # retired in Home Assistant 2026.4
    assert REQUIRED[component] <= set(cfg), (topic, cfg)
    assert re.match(r'^%s\.[a-z0-9_]+$' % component, cfg['default_entity_id'])
    assert cfg['default_entity_id'] == '%s.%s' % (
        component, cfg['unique_id'].lower().replace('-', '_'))
    dev = full(cfg['device'], DEVICE, DEVICE_ABBR)
    assert dev['identifiers'] and dev['serial_number'] and dev['sw_version']
    assert re.match(r'^https?://', dev['configuration_url'])
    org = full(cfg['origin'], ORIGIN, ORIGIN_ABBR)
    assert org['name']
    for a in cfg['availability']:
        assert set(a) <= AVAILABILITY and a['topic'] == base + 'status'
    for key in ('state_topic', 'json_attributes_topic'):
        if key in cfg:
            assert cfg[key] in (base + 'state', base + 'game'), cfg[key]
    # The templates read only what the board's state (or game record) has.
    keys = set(view) | {'winner', 'red', 'blue', 'game'}
    for ref in re.findall(r'value_json\.(\w+)', cfg.get('value_template', '')):
        assert ref in keys, ref
    if component == 'sensor':
        if cfg.get('device_class') == 'enum':
            assert cfg['options'] and 'state_class' not in cfg and \
                'unit_of_measurement' not in cfg
        if 'state_class' in cfg:
            assert cfg['state_class'] in STATE_CLASSES
    if component == 'binary_sensor':
        assert cfg['payload_on'] in cfg['value_template']
        assert cfg['payload_off'] in cfg['value_template']
    if component == 'event':
        assert cfg['event_types'] and '"event_type"' in cfg['value_template']
        assert cfg['state_topic'] == base + 'game'
    return component, cfg


def test_every_config_follows_the_documented_schema():
    base = 'shuffleboard/kings-arms/3/'
    view = json.loads(state_payload({'screen': 'over', 'game': 'knockoff', 'red': 15,
                                     'blue': 9, 'winner': 'red', 'hammer': None}))
    cfgs = ha.discovery(base, 'kings-arms', '3', 'e6614103e7', 'http://t3.local/', '0.1.0')
    got = [check(t, p, base, view) for t, p in cfgs]
    kinds = sorted(c for c, _ in got)
    assert kinds == ['binary_sensor', 'event', 'sensor', 'sensor', 'sensor', 'sensor']
    by_name = {cfg['unique_id'].rsplit('_', 1)[1]: cfg for _, cfg in got}
    assert by_name['game']['device_class'] == 'enum'
    assert 'knockoff' in by_name['game']['options'] and view['game'] in \
        by_name['game']['options']
    assert by_name['banked']['event_types'] == ['banked']
    assert len({cfg['unique_id'] for _, cfg in got}) == 6
    assert all(not cfg.get('object_id') for _, cfg in got)


def test_removal_is_an_empty_config_for_each_entity():
    gone = ha.removal('bar', '5')
    assert len(gone) == 6 and all(p == '' for _, p in gone)
    assert {t for t, _ in gone} == {t for t, _ in ha.discovery('x/', 'bar', '5')}


@pytest.fixture
def broker(tmp_path):
    b = Broker(tmp_path).start()
    yield b
    b.stop()


def online_once(port, root, table):
    conf = settings({'mqtt': {'host': '127.0.0.1', 'port': port, 'venue': 'bar',
                              'table': table}})
    link = Venue(None, conf, Outbox(root), 'e661', url='http://t.local/')

    async def main():
        task = asyncio.create_task(link.run())
        for _ in range(250):
            if link.connects and link.published == -1:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)
        link.stop()
        await asyncio.sleep(0.1)
        task.cancel()
    asyncio.run(main())
    assert link.connects == 1, link.error


def test_a_renamed_table_leaves_no_config_behind(broker, tmp_path):
    root = str(tmp_path / 'flash')
    (tmp_path / 'flash').mkdir()
    online_once(broker.port, root, '5')
    seen = Collector(broker.port, ('homeassistant/#',))
    assert wait_until(lambda: len(seen.msgs) == 6, 10), seen.msgs
    seen.close()
    for topic, payload, _ in seen.msgs:
        check(topic, payload, 'shuffleboard/bar/5/', {'screen': 'setup'})
    online_once(broker.port, root, '6')    # net.json now says table 6
    late = Collector(broker.port, ('homeassistant/#',))
    assert wait_until(lambda: len(late.msgs) == 6, 10)
    time.sleep(0.3)                        # any retained config left would have come by now
    late.close()
    assert {t.split('/')[2] for t, _, _ in late.msgs} == {'shuffleboard_bar_6'}
