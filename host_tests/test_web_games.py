# runs-on: micropython
# Direct entry from the phone in the games that are not frame games: the points of a horse-
# collar turn or a practice shot (`points`), a shove ha'penny coin (`bed`, or 'end' for the end
# of the turn), each refused with its reason where the rules say no, nothing changed then.
import net_harness as nh

R, B = 'red', 'blue'


async def new(h, t, game, options=None):
    r = await h.post('/api/action', {'do': 'new', 'game': game, 'options': options or {}}, t)
    assert r.status == 200, r
    r = await h.post('/api/press', {'button': 'OK', 'gesture': 'tap'}, t)     # start
    assert r.status == 200 and r.json()['screen'] == 'play', r
    return r.json()


async def refused(h, t, body):
    before = h.ctl.state()
    r = await h.post('/api/action', body, t)
    assert r.status == 400 and r.json()['error'], (body, r)
    assert h.ctl.state() == before, body


def test_horse_collar_turns_by_points():
    async def check(h):
        t = await h.pair()
        v = await new(h, t, 'horsecollar', {'first': 'red'})
        assert v['turn'] == R
        r = await h.post('/api/action', {'do': 'frame', 'points': 7}, t)
        v = r.json()
        assert r.status == 200 and v[R] == 7 and v['turn'] == B
        await refused(h, t, {'do': 'frame', 'points': 2})       # no weight of 3 or more
        await refused(h, t, {'do': 'frame', 'red': 3})          # a turn game takes points
        r = await h.post('/api/action', {'do': 'frame', 'points': 0}, t)
        v = r.json()
        assert r.status == 200 and v[B] == 0 and v['collars'][B] == 1
    nh.run(check, tag='collar')


def test_practice_shots_by_points():
    async def check(h):
        t = await h.pair()
        v = await new(h, t, 'practice', {'first': 'blue'})
        assert v['turn'] == B
        v = (await h.post('/api/action', {'do': 'frame', 'points': 4}, t)).json()
        assert v[B] == 4 and v['turn'] == R
        await refused(h, t, {'do': 'frame', 'points': 5})       # a shot is 0..4
    nh.run(check, tag='practice')


def test_shove_halfpenny_coins_by_bed():
    async def check(h):
        t = await h.pair()
        v = await new(h, t, 'shovehapenny', {'first': 'red', 'beds': 5})
        assert v['turn'] == R and len(v['beds'][R]) == 5
        v = (await h.post('/api/action', {'do': 'frame', 'bed': 4}, t)).json()
        assert v['beds'][R] == [0, 0, 0, 1, 0] and v['turn'] == R
        await refused(h, t, {'do': 'frame', 'bed': 6})          # five beds
        await refused(h, t, {'do': 'frame', 'points': 1})
        v = (await h.post('/api/action', {'do': 'frame', 'bed': 'end'}, t)).json()
        assert v['turn'] == B
    nh.run(check, tag='shove')
