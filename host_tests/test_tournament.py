# The tournament engine (tools/venue/tournament.py): the draw, the rounds, the bracket with its
# byes, doubles by blind draw, withdrawals, corrections and the standings, on plain data.
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from venue.tournament import Tournament, TournamentError, circle, pair_name, seed_order

SIX = ['Ann', 'Ben', 'Cat', 'Dev', 'Eve', 'Fin']


def make(players, **kw):
    t = Tournament(kw.pop('tid', 1), **kw)
    for p in players:
        t.add_player(p)
    t.start()
    return t


def play_all(t, pick=lambda m: 'red', tables=('1', '2', '3')):
    """Play every ready match on the tables until none is left; the order results came in."""
    done = []
    for _ in range(200):
        free = [x for x in tables if x not in [m['table'] for m in t.playing()]]
        for m, table in zip(t.ready(), free):
            t.assign(m['id'], table)
        if not t.playing():
            break
        m = t.playing()[0]
        w = pick(m)
        t.result(m['id'], w, 5 if w == 'red' else 2, 5 if w == 'blue' else 2, table=m['table'])
        done.append(m['id'])
    return done


@pytest.mark.parametrize('n', range(2, 13))
def test_round_robin_meets_every_pair_once_and_once_a_round(n):
    rounds = circle(n)
    pairs = [frozenset(p) for r in rounds for p in r]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    assert set(pairs) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for r in rounds:
        seen = [x for p in r for x in p]
        assert len(seen) == len(set(seen))      # nobody twice in a round


def test_a_six_player_round_robin_to_the_end():
    t = make(SIX)
    assert t.rounds == 5 and len(t.matches) == 15
    # the first three matches can go out at once: six players, three tables
    assert len(t.ready()) == 3
    done = play_all(t)
    assert len(done) == 15 and len(set(done)) == 15
    assert t.state == 'done'
    st_ = t.standings()
    assert sum(r['won'] for r in st_) == 15
    assert all(r['played'] == 5 for r in st_)
    assert [r['place'] for r in st_] == [1, 2, 3, 4, 5, 6]
    wins = [r['won'] for r in st_]
    assert wins == sorted(wins, reverse=True)
    assert t.champion() == st_[0]['name']


def test_nobody_is_on_two_tables_at_once():
    t = make(SIX[:5])
    for m, table in zip(t.ready(), '123'):
        t.assign(m['id'], table)
    busy = [x for m in t.playing() for x in (m['red'], m['blue'])]
    assert len(busy) == len(set(busy))
    assert len(t.playing()) == 2                 # five players: two matches at most


def test_seed_order_puts_one_and_two_in_opposite_halves():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(2) == [1, 2]


def test_five_player_single_elimination_gives_byes_to_the_top_seeds():
    t = make(['Ann', 'Ben', 'Cat', 'Dev', 'Eve'], fmt='single')
    assert t.rounds == 3
    r1 = [t.match_view(m) for m in t.matches if m['round'] == 1]
    byes = [m for m in r1 if m['bye']]
    assert len(byes) == 3
    assert sorted(m['winner_name'] for m in byes) == ['Ann', 'Ben', 'Cat']   # seeds 1-3
    real = [m for m in r1 if not m['bye']]
    assert [(m['red'], m['blue']) for m in real] == [('Dev', 'Eve')]     # seeds 4 and 5
    # round 2 already knows the byes' winners: Ann waits for Dev or Eve, Ben v Cat is ready
    r2 = [t.match_view(m) for m in t.matches if m['round'] == 2]
    assert [(m['red'], m['blue']) for m in r2] == [('Ann', None), ('Ben', 'Cat')]
    assert sorted(t.match_view(m)['red'] for m in t.ready()) == ['Ben', 'Dev']
    done = play_all(t, pick=lambda m: 'blue')
    assert len(done) == 4 and t.state == 'done'
    final = t.match_view(t._at(3, 1))
    assert final['winner_name'] == t.champion()


def test_a_random_draw_is_seeded_and_repeatable():
    a = make(SIX + ['Gus'], fmt='single', draw='random', seed=7)
    b = make(SIX + ['Gus'], fmt='single', draw='random', seed=7)
    c = make(SIX + ['Gus'], fmt='single', draw='random', seed=8)
    assert [e['name'] for e in a.entries] == [e['name'] for e in b.entries]
    assert [e['name'] for e in a.entries] != [e['name'] for e in c.entries]
    assert sorted(e['name'] for e in a.entries) == sorted(SIX + ['Gus'])
    assert sum(m['bye'] for m in a.matches) == 1


def test_doubles_by_blind_draw():
    t = make(SIX + ['Gus', 'Hal'], fmt='roundrobin', doubles=True, seed=3)
    assert len(t.entries) == 4
    players = [p for e in t.entries for p in e['players']]
    assert sorted(players) == sorted(SIX + ['Gus', 'Hal'])
    for e in t.entries:
        assert e['name'] == '/'.join(e['players']) and len(e['name']) <= 12
    again = make(SIX + ['Gus', 'Hal'], fmt='doubles', seed=3)
    assert [e['players'] for e in again.entries] == [e['players'] for e in t.entries]
    assert again.format == 'roundrobin' and again.doubles
    with pytest.raises(TournamentError, match='even'):
        make(SIX[:5], doubles=True)
    assert len(play_all(make(SIX + ['Gus', 'Hal'], fmt='single', doubles=True))) == 3


def test_pair_names_fit_a_board():
    assert pair_name('Ann', 'Bob') == 'Ann/Bob'
    n = pair_name('Alexandrina', 'Bartholomew')
    assert len(n) == 12 and n.startswith('Alexa') and '/Bart' in n
    assert len(pair_name('Al', 'Bartholomew1')) == 12


def test_names_are_checked_as_the_board_checks_them():
    t = Tournament(1)
    for bad in ('', '   ', 'x' * 13, 'a\u200bb', 'a\x07', 5):
        with pytest.raises(TournamentError):
            t.add_player(bad)
    t.add_player('Ann')
    with pytest.raises(TournamentError, match='already'):
        t.add_player('ann')
    with pytest.raises(TournamentError, match='at least 2'):
        t.start()


def test_withdrawing_in_a_round_robin_forfeits_their_open_matches():
    t = make(SIX)
    m = t.ready()[0]
    t.assign(m['id'], '1')
    ann_matches = [x for x in t.matches if 0 in (x['red'], x['blue'])]
    t.result(ann_matches[0]['id'], 'red', 5, 1) if ann_matches[0]['state'] != 'done' else None
    t.withdraw('Ann')
    for x in ann_matches[1:]:
        assert x['state'] == 'done' and x['forfeit'] and x['score'] == {'red': 0, 'blue': 0}
        assert x[x['winner']] != 0                 # the opponent wins
    assert 0 not in t.busy()
    with pytest.raises(TournamentError, match='already'):
        t.withdraw('Ann')
    play_all(t)
    assert t.state == 'done'
    ann = [r for r in t.standings() if r['name'] == 'Ann'][0]
    assert ann['withdrawn'] and ann['played'] == 5


def test_withdrawing_in_a_bracket_gives_the_next_opponent_a_walkover():
    t = make(['Ann', 'Ben', 'Cat', 'Dev', 'Eve'], fmt='single')
    t.withdraw('Ann')                       # Ann had a bye; her round-2 opponent is not known
    dev_eve = [m for m in t.matches if m['round'] == 1 and not m['bye']][0]
    t.assign(dev_eve['id'], '1')
    t.result(dev_eve['id'], 'red', 5, 3)
    nxt = t._at(2, 1)
    assert nxt['state'] == 'done' and nxt['forfeit'] and t.name_of(nxt[nxt['winner']]) == 'Dev'


def test_a_correction_in_a_round_robin_recomputes_the_standings():
    t = make(SIX[:4])
    m = t.ready()[0]
    t.assign(m['id'], '1')
    t.result(m['id'], 'red', 5, 2, table='1')
    red = t.name_of(m['red'])
    assert [r for r in t.standings() if r['name'] == red][0]['won'] == 1
    t.result(m['id'], 'blue', 2, 5)         # the host corrects it
    assert [r for r in t.standings() if r['name'] == red][0]['won'] == 0
    assert sum(r['won'] for r in t.standings()) == 1


def test_a_bracket_correction_that_would_change_a_played_match_is_refused():
    t = make(['Ann', 'Ben', 'Cat', 'Dev'], fmt='single')
    a, b = t._at(1, 1), t._at(1, 2)
    t.assign(a['id'], '1')
    t.assign(b['id'], '2')
    t.result(a['id'], 'red', 5, 0)
    final = t._at(2, 1)
    t.result(a['id'], 'blue', 0, 5)         # the final waits: its red side is replaced
    assert t.name_of(final['red']) == t.name_of(a['blue'])
    t.result(a['id'], 'blue', 1, 5)         # the score alone: always taken
    assert a['score'] == {'red': 1, 'blue': 5}
    t.result(b['id'], 'red', 5, 0)
    t.assign(final['id'], '1')
    with pytest.raises(TournamentError, match='on a table'):
        t.result(a['id'], 'red', 5, 0)
    t.result(final['id'], 'red', 5, 4)
    with pytest.raises(TournamentError, match='played'):
        t.result(b['id'], 'blue', 0, 5)
    assert t.state == 'done' and t.champion() == t.name_of(a['blue'])


def test_a_record_from_a_table_the_match_left_is_refused():
    t = make(SIX[:2])
    m = t.matches[0]
    t.assign(m['id'], '1')
    t.assign(m['id'], '2')                  # moved
    assert m['moved_from'] == ['1']
    with pytest.raises(TournamentError, match='not on table 1'):
        t.result(m['id'], 'red', 5, 0, table='1')
    t.result(m['id'], 'red', 5, 0, table='2')
    assert t.state == 'done'


def test_byes_and_forfeits_are_not_corrected_and_bad_results_refused():
    t = make(['Ann', 'Ben', 'Cat'], fmt='single')
    bye = [m for m in t.matches if m['bye']][0]
    with pytest.raises(TournamentError, match='bye'):
        t.result(bye['id'], 'blue')
    real = [m for m in t.matches if not m['bye'] and m['round'] == 1][0]
    for bad in (('green', 1, 0), ('red', -1, 0), ('red', True, 0), ('red', 1.5, 0)):
        with pytest.raises(TournamentError):
            t.result(real['id'], *bad)
    with pytest.raises(TournamentError, match='waits'):
        t.result(t._at(2, 1)['id'], 'red')


def test_the_saved_form_comes_back_the_same():
    t = make(SIX, fmt='single', draw='random', seed=4)
    m = t.ready()[0]
    t.assign(m['id'], '2')
    t2 = Tournament.from_dict(t.to_dict())
    assert t2.view() == t.view()
    t2.result(m['id'], 'red', 5, 1)
    assert t.match(m['id'])['state'] == 'playing'     # a copy, not shared


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), fmt=st.sampled_from(['roundrobin', 'single']),
       seed=st.integers(0, 1000), picks=st.lists(st.booleans(), min_size=70, max_size=70),
       withdraw=st.one_of(st.none(), st.integers(0, 11)))
def test_any_night_ends_with_every_match_decided_once(n, fmt, seed, picks, withdraw):
    names = ['P%d' % i for i in range(n)]
    t = make(names, fmt=fmt, draw='random', seed=seed)
    it = iter(picks)
    done = play_all(t, pick=lambda m: 'red' if next(it, True) else 'blue')
    if withdraw is not None and withdraw < n and t.state != 'done':
        t.withdraw(names[withdraw])
        done += play_all(t)
    assert t.state == 'done'
    assert len(done) == len(set(done))
    if fmt == 'roundrobin':
        assert len(t.matches) == n * (n - 1) // 2
        assert sum(r['won'] for r in t.standings()) == len(t.matches)
    else:
        assert sum(1 for m in t.matches if not m['bye']) == n - 1
        assert t.champion() in names
