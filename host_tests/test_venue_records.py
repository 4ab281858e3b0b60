# What the venue service takes from a table's topics, without a broker: a record is venue, table
# and id together; a forged one never suppresses a real game; bad messages (invalid UTF-8, not
# JSON, wrong shapes) are each logged and the next good one is taken; formats carry `v` and the
# records before versions are still read; a database of the first service is carried over.
import json
import sqlite3

from venue.db import SqliteStore
from venue.service import Service

REC = {'v': 1, 'id': 'b1-ab12cd34-7', 'table': '1', 'game': 'knockoff',
       'options': {'target': 5}, 'names': {'red': 'Ann', 'blue': 'Ben'}, 'red': 5, 'blue': 2,
       'winner': 'red', 'frames': [['f', 3, 0], ['f', 0, 2], ['f', 2, 0]], 'ended': 12}


def svc_at(tmp_path, name='v.sqlite'):
    return Service(SqliteStore(str(tmp_path / name)), 'bar', clock=lambda: 1.8e9)


def send(svc, table, rec, raw=None):
    svc.handle('shuffleboard/bar/%s/game' % table, raw if raw is not None else
               json.dumps(rec).encode())


def test_a_forged_record_never_suppresses_a_real_game(tmp_path):
    svc = svc_at(tmp_path)
    # The attacker guesses table 1's next id and sends it first, on table 2's topic: it is
    # table 2's record (or refused, had it said table 1), never table 1's.
    send(svc, '2', dict(REC, table='2', red=0, blue=5, winner='blue'))
    send(svc, '2', dict(REC))                      # says table 1 on table 2's topic: refused
    assert svc.stats['rejected'] == 1 and 'table' in svc.rejects[-1][1]
    send(svc, '1', REC)                            # the real game
    games = {(g['table'], g['id']): g for g in svc.db.games()}
    assert set(games) == {('1', REC['id']), ('2', REC['id'])}
    assert games[('1', REC['id'])]['winner'] == 'red' and games[('1', REC['id'])]['red'] == 5
    # The same record from the same table again (a lost PUBACK) counts once.
    send(svc, '1', REC)
    assert svc.stats['duplicates'] == 1 and len(svc.db.games()) == 2


def test_one_bad_message_never_freezes_a_table(tmp_path, caplog):
    svc = svc_at(tmp_path)
    svc.handle('shuffleboard/bar/1/status', b'online')
    state = {'v': 1, 'screen': 'play', 'game': 'knockoff', 'red': 1, 'blue': 0,
             'names': {'red': 'Ann', 'blue': None}}
    bad = [b'\xff\xfe not utf-8', b'{"screen": "play", "red": 1', b'[1, 2]',
           b'{"screen": "play", "names": {"red": 7}}', b'{"v": "one", "screen": "play"}',
           '{"screen": "play", "names": {"red": "\udc80x"}}'.encode('utf-8', 'surrogatepass'),
           b'']
    for i, payload in enumerate(bad[:-1]):
        svc.handle('shuffleboard/bar/1/state', payload)
        # each is logged and dropped; the next good one is taken at once
        svc.handle('shuffleboard/bar/1/state', json.dumps(dict(state, red=i)).encode())
        assert svc.table_list()[0]['state']['red'] == i
    assert svc.stats['rejected'] == len(bad) - 1
    assert len([r for r in caplog.records if r.levelname == 'WARNING']) >= len(bad) - 1
    for payload in bad[:-1]:
        send(svc, '1', None, payload)
        send(svc, '1', dict(REC, id='g-%d' % len(svc.db.games())))
    assert len(svc.db.games()) == len(bad) - 1


def test_a_name_stored_as_two_utf16_halves_is_joined_again(tmp_path):
    # What a first MicroPython firmware kept for "\ud83c\udfaf" sent by a phone: each half
    # encoded alone. The game is not lost, and the name reads as the phone meant it.
    svc = svc_at(tmp_path)
    raw = json.dumps(dict(REC, names={'red': 'Ann', 'blue': 'XX'}), ensure_ascii=False)
    raw = raw.encode().replace(b'XX', '\ud83c\udfaf'.encode('utf-8', 'surrogatepass'))
    send(svc, '1', None, raw)
    assert svc.db.games()[0]['names']['blue'] == '\U0001F3AF'
    # Control and format characters are left out of a name, a name of spaces is no name.
    send(svc, '1', dict(REC, id='g2', names={'red': 'A\u202eli\u200bce\x07', 'blue': '   '}))
    g = [g for g in svc.db.games() if g['id'] == 'g2'][0]
    assert g['names'] == {'red': 'Alice', 'blue': None}


def test_versions_old_records_are_read(tmp_path):
    svc = svc_at(tmp_path)
    old = {k: v for k, v in REC.items() if k != 'v'}      # a board from before versions
    send(svc, '1', old)
    send(svc, '1', dict(REC, id='new', v=2, extra={'later': True}))  # a newer board: kept
    g = {g['id']: g for g in svc.db.games()}
    assert g[REC['id']]['v'] == 1 and g['new']['v'] == 2
    svc.handle('shuffleboard/bar/1/status', b'online')
    svc.handle('shuffleboard/bar/1/state', b'{"screen": "setup"}')   # a state without v
    assert svc.table_list()[0]['state']['v'] == 1


def test_a_database_of_the_first_service_is_carried_over(tmp_path):
    path = str(tmp_path / 'old.sqlite')
    db = sqlite3.connect(path)
    db.executescript("""
CREATE TABLE games (
    venue TEXT NOT NULL, id TEXT NOT NULL, tbl TEXT NOT NULL, kind TEXT NOT NULL,
    red INTEGER NOT NULL, blue INTEGER NOT NULL, winner TEXT,
    red_name TEXT, blue_name TEXT, at REAL NOT NULL, received REAL NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (venue, id));
CREATE INDEX games_at ON games (venue, at);""")
    old = {k: v for k, v in REC.items() if k != 'v'}
    db.execute('INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
               ('bar', old['id'], '1', 'knockoff', 5, 2, 'red', 'Ann', 'Ben', 1.7e9, 1.7e9,
                json.dumps(old)))
    db.commit()
    db.close()
    store = SqliteStore(path)
    assert [(g['id'], g['table'], g['v']) for g in store.games()] == [(old['id'], '1', 1)]
    # Keyed by table now: the same id on table 2 is another game.
    assert store.add_game('bar', dict(REC, table='2'), 1.8e9)
    assert not store.add_game('bar', dict(REC), 1.8e9)
    assert store.leaderboard() == [{'name': 'Ann', 'won': 2, 'played': 2}]
    store.close()


def test_the_client_id_is_made_once(tmp_path):
    a = svc_at(tmp_path).client_id
    b = svc_at(tmp_path).client_id
    c = svc_at(tmp_path, 'other.sqlite').client_id
    assert a == b != c and a.startswith('venue-') and len(a) > 12
