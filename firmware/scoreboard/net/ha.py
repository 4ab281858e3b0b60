"""Home Assistant MQTT discovery for one table (DESIGN section 10), as Home Assistant documents
it today: one retained config per entity at `homeassistant/<component>/<node>/<object>/config`,
each with `unique_id`, `default_entity_id` (`<domain>.<id>`; the retired `object_id` is not
sent), `origin`, and the device with `sw_version`, `serial_number` and `configuration_url` (the
board's phone page). Every entity reads the table's retained `state` (the event reads `game`),
is available while `status` says online (`online, not sent 3` is online too), and carries the
rest of the view as attributes (`json_attributes_topic`).

Entities: the two scores (sensors), the game (an `enum` sensor whose options are the game
kinds), the winner (an `enum` sensor: red, blue, none), game over (a `binary_sensor`), and a
`banked` event fired by each banked game's record (so an automation can flash the bar's lights).
A config with an empty payload removes its entity: `removal()` gives those of a table that was
renamed.
"""

import json

PREFIX = 'homeassistant'
ORIGIN = {'name': 'shuffleboard scoreboard'}
KINDS = ('knockoff', 'tapdraw', 'horsecollar', 'fourframe', 'practice', 'shovehapenny')

# (component, object id, name, extra keys): one fact, used for the configs and their removal
_ENTITIES = (
    ('sensor', 'red', 'Red score', {'value_template': '{{ value_json.red }}',
                                    'state_class': 'measurement'}),
    ('sensor', 'blue', 'Blue score', {'value_template': '{{ value_json.blue }}',
                                      'state_class': 'measurement'}),
    ('sensor', 'game', 'Game', {'value_template': '{{ value_json.game }}',
                                'device_class': 'enum', 'options': list(KINDS)}),
    ('sensor', 'winner', 'Winner', {'value_template': "{{ value_json.winner or 'none' }}",
                                    'device_class': 'enum',
                                    'options': ['red', 'blue', 'none']}),
    ('binary_sensor', 'over', 'Game over', {
        'value_template': "{{ 'ON' if value_json.screen == 'over' else 'OFF' }}",
        'payload_on': 'ON', 'payload_off': 'OFF'}),
    ('event', 'banked', 'Game banked', {
        'event_types': ['banked'],
        'value_template': '{{ {"event_type": "banked", "winner": value_json.winner, '
                          '"red": value_json.red, "blue": value_json.blue, '
                          '"game": value_json.game} | to_json }}'}),
)


def slug(s):
    """An entity id's part: lower case letters, digits and '_' (a venue name may hold '-')."""
    out = ''
    for c in s.lower():
        out += c if ('a' <= c <= 'z' or '0' <= c <= '9') else '_'
    return out


def node(venue, table):
    return 'shuffleboard_%s_%s' % (venue, table)


def topics(venue, table):
    """The config topics of one table, as (component, topic)."""
    n = node(venue, table)
    return [(c, '%s/%s/%s/%s/config' % (PREFIX, c, n, o)) for c, o, _, _ in _ENTITIES]


def discovery(base, venue, table, serial=None, url=None, sw_version=None):
    """[(topic, payload)] of every config of the table whose topics start with `base`."""
    n = node(venue, table)
    device = {'identifiers': [n], 'name': 'Shuffleboard %s %s' % (venue, table),
              'manufacturer': 'shuffleboard scoreboard', 'model': 'scoreboard'}
    if sw_version:
        device['sw_version'] = sw_version
    if serial:
        device['serial_number'] = serial
    if url:
        device['configuration_url'] = url
    origin = dict(ORIGIN)
    if sw_version:
        origin['sw_version'] = sw_version
    avail = [{'topic': base + 'status', 'payload_available': 'online',
              'payload_not_available': 'offline',
              'value_template': "{{ value.split(',')[0] }}"}]
    out = []
    for component, obj, name, extra in _ENTITIES:
        uid = '%s_%s' % (n, obj)
        cfg = {'name': name, 'unique_id': uid,
               'default_entity_id': '%s.%s' % (component, slug(uid)),
               'state_topic': base + ('game' if component == 'event' else 'state'),
               'availability': avail, 'device': device, 'origin': origin}
        if component != 'event':
            cfg['json_attributes_topic'] = base + 'state'
        for k in extra:
            cfg[k] = extra[k]
        out.append(('%s/%s/%s/%s/config' % (PREFIX, component, n, obj), json.dumps(cfg)))
    return out


def removal(venue, table):
    """[(topic, '')]: the empty retained configs that remove a table's entities."""
    return [(t, '') for _, t in topics(venue, table)]
