# runs-on: micropython
# Acceptance checks of the scoring core, written black-box from DESIGN section 2 and 3 and the
# seeds' worked examples (not from the code's output): the fixed names of section 3, the rules of
# section 2, refusals, undo/redo and the to_dict/load_game round trip. Runs under both
# interpreters (on MicroPython isinstance(True, int) is False, so the bool refusal matters there).
import json

from scoreboard.core import BLUE, RED, RuleError, load_game, new_game


def refused(fn, *args, **kw):
    """The RuleError fn raises (the test fails if it returns)."""
    try:
        fn(*args, **kw)
    except RuleError as e:
        return e
    raise AssertionError('accepted: %r %r' % (args, kw))


def snapshot(g, sides=(RED, BLUE)):
    return ([g.points(s) for s in sides], g.hammer, g.turn, g.frame, g.end, g.winner, g.over)


def roundtrip(g):
    return load_game(json.loads(json.dumps(g.to_dict())))


def test_names_and_defaults():
    assert RED == 'red' and BLUE == 'blue'
    assert issubclass(RuleError, ValueError)
    g = new_game('knockoff')
    # DESIGN 3: hammer BLUE by default (red opens frame 1); target 15
    assert (g.hammer, g.frame, g.winner, g.over, g.turn) == (BLUE, 1, None, False, None)
    assert g.points(RED) == 0 and g.points(BLUE) == 0
    assert new_game('horsecollar').turn == RED      # first RED by default
    assert new_game('practice').turn == RED
    assert new_game('shovehapenny').turn == RED


def test_seed_000_worked_game():
    # Alice red, Ben blue, to fifteen; Alice shoots first, so Ben has the hammer.
    g = new_game('knockoff', target=15, hammer=BLUE)
    g.enter_frame(red=0, blue=5)        # Ben 5: having scored he opens, Alice has the hammer
    assert (g.points(RED), g.points(BLUE), g.hammer, g.frame) == (0, 5, RED, 2)
    g.enter_frame(red=4)                # Alice 4 (a side left out scored 0)
    assert g.hammer == BLUE
    g.enter_frame(red=4)                # Alice 4: leads eight to five
    assert (g.points(RED), g.points(BLUE)) == (8, 5)
    g.enter_frame(blue=3)               # Ben 3 brings him level
    assert (g.points(RED), g.points(BLUE), g.hammer, g.frame, g.over) == (8, 8, RED, 5, False)
    # "a side on twelve that scores five has won": no exact landing
    g.enter_frame(red=4)
    g.enter_frame(red=4)
    assert (g.points(RED), g.over, g.winner) == (16, True, RED)
    e = refused(g.enter_frame, blue=1)  # entries after the game is over are refused
    assert isinstance(e, ValueError) and str(e)
    assert g.points(BLUE) == 8


def test_knockoff_refusals_leave_the_game_unchanged():
    g = new_game('knockoff')
    g.enter_frame(red=3)
    before = snapshot(g)
    for kw in ({'red': 1, 'blue': 1}, {'red': 17}, {'blue': 17}, {'red': -1},
               {'red': True}, {'blue': False}, {'red': 1.0}, {'red': 2.5}, {'red': '3'}):
        e = refused(g.enter_frame, **kw)
        assert isinstance(e, ValueError) and len(str(e)) > 0
        assert snapshot(g) == before, kw
    g.enter_frame(red=16)              # 4 x 4 is the most a frame can give
    assert g.points(RED) == 19


def test_blank_frame_switches_or_keeps_the_hammer():
    g = new_game('knockoff')
    g.enter_frame()                     # blank: the hammer switches (seed 001, 002)
    assert (g.hammer, g.frame) == (RED, 2)
    g = new_game('knockoff', blank='keep')
    g.enter_frame(red=0, blue=0)
    assert g.hammer == BLUE
    g = new_game('knockoff', hammer=RED)
    assert g.hammer == RED
    g.enter_frame(blue=2)              # blue scored: blue opens, red has the hammer
    assert g.hammer == RED


def test_seed_002_handicap():
    # handicap side: 1 short of the first line, zones 2, 3, 4, hanger 5: at most 20 a frame
    g = new_game('knockoff', handicap=RED, target=21)
    g.enter_frame(red=20)
    refused(g.enter_frame, red=21)
    refused(g.enter_frame, blue=17)     # the other side keeps 16
    g.enter_frame(blue=16)
    assert (g.points(RED), g.points(BLUE)) == (20, 16)


def test_doubles_end_alternates():
    g = new_game('knockoff', doubles=True)
    ends = []
    for _ in range(4):
        ends.append(g.end)
        g.enter_frame()
    assert ends == [1, 2, 1, 2]


def test_set_target_semantics():
    # a side already at or past the new line has won
    g = new_game('knockoff', target=21)
    g.enter_frame(red=16)
    g.set_target(15)
    assert (g.over, g.winner) == (True, RED)
    # raising the line above the winner's score puts the game back in play
    g.set_target(21)
    assert (g.over, g.winner) == (False, None)
    # moving the line is an entry: undo brings back the previous line
    assert g.undo() is True
    assert (g.over, g.winner) == (True, RED)
    assert g.redo() is True and g.over is False
    # both past the new line: the higher total wins
    g = new_game('knockoff', target=21)
    g.enter_frame(red=16)
    g.enter_frame(blue=16)
    g.enter_frame(blue=2)
    g.set_target(15)
    assert g.winner == BLUE
    # both past it and equal: play on
    g = new_game('knockoff', target=21)
    g.enter_frame(red=16)
    g.enter_frame(blue=16)
    g.set_target(15)
    assert (g.over, g.winner) == (False, None)
    g.enter_frame(red=1)
    assert g.winner == RED
    for bad in (0, 100, True, 15.0):
        g = new_game('knockoff')
        e = refused(g.set_target, bad)
        assert isinstance(e, ValueError)


def test_new_game_refuses_bad_options():
    for kind, kw in (('knockoff', {'target': True}), ('knockoff', {'target': 0}),
                     ('knockoff', {'target': 100}), ('knockoff', {'hammer': 'green'}),
                     ('nosuchgame', {}), ('shovehapenny', {'beds': 7}),
                     ('horsecollar', {'corner': 20})):
        e = refused(new_game, kind, **kw)
        assert isinstance(e, ValueError)


def test_undo_redo_and_redo_lost_after_a_new_entry():
    g = new_game('knockoff')
    assert g.undo() is False and g.redo() is False
    g.enter_frame(red=3)
    g.enter_frame(blue=2)
    # red scored 3 and opens frame 2, so blue has the hammer again once blue's 2 is undone
    assert g.undo() is True and g.points(BLUE) == 0 and (g.hammer, g.frame) == (BLUE, 2)
    assert g.undo() is True and g.points(RED) == 0 and (g.hammer, g.frame) == (BLUE, 1)
    assert g.undo() is False
    assert g.redo() is True and g.points(RED) == 3
    g.enter_frame()                      # a new entry: the redo of blue 2 is gone
    assert g.redo() is False
    assert (g.points(RED), g.points(BLUE), g.frame) == (3, 0, 3)


def test_to_dict_load_game_roundtrip_with_history():
    g = new_game('knockoff', target=21, hammer=RED, doubles=True)
    g.enter_frame(red=4)
    g.enter_frame(blue=3)
    g.set_target(15)
    g.enter_frame(red=2)
    g.undo()                             # one redo waiting
    g2 = roundtrip(g)
    assert snapshot(g2) == snapshot(g)
    assert g2.redo() is True and g2.points(RED) == 6
    g2 = roundtrip(g)
    for _ in range(3):
        assert g2.undo() is True
    assert (g2.points(RED), g2.points(BLUE), g2.hammer) == (0, 0, RED)
    assert g2.undo() is False
    # every game kind survives the trip mid-game
    games = [new_game('tapdraw'), new_game('horsecollar'), new_game('fourframe'),
             new_game('practice'), new_game('shovehapenny')]
    games[0].enter_frame(red=3, blue=2)
    games[1].enter_frame(red=10)
    games[2].enter_frame(blue=4)
    games[3].enter_shot(3)
    games[4].mark(4)
    for g in games:
        g2 = roundtrip(g)
        assert snapshot(g2) == snapshot(g)
        assert g2.undo() is True and g.undo() is True
        assert snapshot(g2) == snapshot(g)


def test_tapdraw_owner_scoring():
    g = new_game('tapdraw')
    g.enter_frame(red=3, blue=5)         # both score; blue scored more and opens next
    assert (g.points(RED), g.points(BLUE), g.hammer) == (3, 5, RED)
    g.enter_frame(red=2, blue=2)         # equal: the blank rule, switch
    assert g.hammer == BLUE
    g.enter_frame(red=10, blue=7)        # 15 - 14: past the target with the higher total
    assert (g.over, g.winner) == (True, RED)
    g = new_game('tapdraw')
    g.enter_frame(red=15, blue=15)       # equal at the target: play another frame
    assert (g.over, g.winner) == (False, None)
    g.enter_frame(blue=1)
    assert g.winner == BLUE
    g = new_game('tapdraw', scoring='leader')
    refused(g.enter_frame, red=1, blue=1)


def reachable(corner):
    """Turn totals eight horse-collar weights can make, computed here from the seed's values:
    each weight 0 (dead), 1, 2, 3, 13 or corner, at most two on the corners, at least one 3+."""
    out = set()
    vals = (0, 1, 2, 3, 13)
    # counts of each value: brute force over multisets of 8 with at most 2 corners
    def walk(i, left, total, big):
        if i == len(vals):
            for c in range(min(2, left) + 1):
                t = total + c * corner
                if big or c:
                    out.add(t)
            return
        for n in range(left + 1):
            walk(i + 1, left - n, total + n * vals[i], big or (n and vals[i] >= 3))
    walk(0, 8, 0, False)
    return out


def test_seed_004_horse_collar():
    g = new_game('horsecollar')
    assert g.turn == RED and g.hammer is None
    refused(g.enter_frame, blue=5)       # only the turn side enters
    refused(g.enter_frame, red=2)        # no weight worth 3: nothing can be counted
    refused(g.enter_frame, red=1)
    g.enter_frame(red=10)                # the seed's example: 3 + 2 + 2 + 1 + 1 + 1
    assert (g.points(RED), g.turn, g.frame) == (10, BLUE, 1)
    g.enter_frame(blue=0)                # a collar
    assert (g.collars(BLUE), g.collars(RED), g.turn, g.frame) == (1, 0, RED, 2)
    # first to 51 does not win until the round is complete; the highest final score wins
    g = new_game('horsecollar')
    g.enter_frame(red=51)
    assert (g.over, g.turn) == (False, BLUE)
    g.enter_frame(blue=52)
    assert (g.over, g.winner) == (True, BLUE)
    g = new_game('horsecollar')
    g.enter_frame(red=51)
    g.enter_frame(blue=51)               # equal: another full round
    assert g.over is False
    g.enter_frame(red=0)
    g.enter_frame(blue=3)
    assert (g.winner, g.collars(RED)) == (BLUE, 1)
    g = new_game('horsecollar', first=BLUE)
    assert g.turn == BLUE


def test_horse_collar_reachable_totals():
    for corner in (26, 13):
        ok = reachable(corner)
        top = 2 * corner + 6 * 13
        for t in range(top + 3):
            g = new_game('horsecollar', corner=corner)
            if t in ok or t == 0:
                g.enter_frame(red=t)
                assert g.points(RED) == t, (corner, t)
            else:
                refused(g.enter_frame, red=t)
                assert g.points(RED) == 0


def test_seed_001_four_frame():
    g = new_game('fourframe')
    assert g.hammer == BLUE
    for red, blue in ((3, 0), (0, 2), (1, 0), (0, 2)):
        g.enter_frame(red=red, blue=blue)
    assert (g.points(RED), g.points(BLUE), g.over, g.frame) == (4, 4, False, 5)
    g.enter_frame(red=1)                 # tied: two more frames, not one
    assert g.over is False
    g.enter_frame()
    assert (g.over, g.winner) == (True, RED)
    g = new_game('fourframe')
    for _ in range(3):
        g.enter_frame(red=16)
    assert g.over is False               # no target: only the frame count ends it
    g.enter_frame()
    assert (g.over, g.winner) == (True, RED)


def test_seed_001_practice():
    g = new_game('practice')
    order = []
    for _ in range(8):
        order.append(g.turn)
        g.enter_shot(2 if g.turn == RED else 1)
    assert order == [RED, BLUE] * 4
    assert (g.frame, g.turn) == (2, BLUE)    # the side shooting first changes every frame
    assert (g.points(RED), g.points(BLUE)) == (8, 4)
    for bad in (5, -1, True, 1.0):
        refused(g.enter_shot, bad)
    for _ in range(8):
        g.enter_shot(0)
    assert (g.over, g.winner) == (True, RED)
    g = new_game('practice')
    for _ in range(16):
        g.enter_shot(0)                      # tied after two frames: two more
    assert (g.over, g.frame) == (False, 3)


def test_seed_003_shove_hapenny():
    g = new_game('shovehapenny')
    assert len(g.beds(RED)) == 9 and g.beds(RED)[0] == 0
    assert [g.mark(4) for _ in range(5)] == [RED, RED, RED, BLUE, BLUE]  # full bed gifts
    assert g.beds(RED)[3] == 3 and g.beds(BLUE)[3] == 2
    assert (g.points(RED), g.points(BLUE)) == (3, 2)
    refused(g.mark, 1)                       # at most five coins a turn
    g.end_turn()
    assert g.turn == BLUE
    for bad in (0, 10, True, 1.0):
        refused(g.mark, bad)
    assert g.mark(4) == BLUE
    g.end_turn()
    assert g.mark(4) is None                 # both full: nobody
    g = new_game('shovehapenny', gift=False)
    for _ in range(3):
        g.mark(2)
    assert g.mark(2) is None and g.beds(BLUE)[1] == 0
    g = new_game('shovehapenny', beds=5)
    assert len(g.beds(RED)) == 5
    refused(g.mark, 6)


def fill(g, stop_before=None):
    """The side to shove fills beds 1..N three times, the other passing; stop_before=(bed, k)
    leaves a hole."""
    n = 0
    for b in range(1, len(g.beds(RED)) + 1):
        for k in range(3):
            if stop_before == (b, k):
                return
            if n and n % 5 == 0:
                g.end_turn()
                g.end_turn()
            g.mark(b)
            n += 1


def test_shove_hapenny_ends_the_moment_a_side_is_full():
    g = new_game('shovehapenny', beds=5)
    fill(g)
    assert (g.over, g.winner, g.points(RED)) == (True, RED, 15)
    refused(g.mark, 1)
    refused(g.end_turn)
    # the 27th mark ends the nine-bed game mid-turn
    g = new_game('shovehapenny')
    fill(g)
    assert (g.over, g.winner, g.points(RED)) == (True, RED, 27)


def last_mark_game(rule):
    # blue needs one more mark, in bed 9; red has bed 9 full, red to shove
    g = new_game('shovehapenny', last_mark=rule, first=BLUE)
    fill(g, stop_before=(9, 2))
    if g.turn == BLUE:
        g.end_turn()
    for _ in range(3):
        g.mark(9)
    return g


def test_last_mark_any_and_earned():
    g = last_mark_game('any')
    assert (g.points(BLUE), g.turn) == (26, RED)
    assert g.mark(9) == BLUE                 # the final mark may come by gift
    assert (g.over, g.winner) == (True, BLUE)
    g = last_mark_game('earned')
    assert g.mark(9) is None                 # a gift that would complete it scores nobody
    assert (g.over, g.points(BLUE)) == (False, 26)
