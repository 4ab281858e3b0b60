# Scenario tables for the scoring core, read by test_core_scenarios.py under CPython and under
# the MicroPython unix port. Each scenario: (name, kind, options, steps). A step is a tuple:
#   ('frame', red, blue)      enter_frame           ('shot', p)          enter_shot
#   ('mark', bed, credited)   mark, and who it credited (None: nobody)
#   ('end_turn',)             ('target', n)          set_target
#   ('undo', True/False)      ('redo', True/False)   the return value
#   ('refuse', step)          the step raises RuleError and leaves the game exactly as it was
#   ('is', {attr: value})     points=(red, blue), hammer, turn, frame, end, winner, over,
#                             collars=(red, blue), beds=(red list, blue list), target
# Where a comment quotes a seed, the numbers are the seed's own.

R = 'red'
B = 'blue'

SCENARIOS = [
    # --- knock-off --------------------------------------------------------------------------
    ('seed 000 worked game: Alice (red) and Ben (blue) to fifteen', 'knockoff', {}, [
        # "Alice shoots first in the opening frame, so Ben has the hammer."
        ('is', {'points': (0, 0), 'hammer': B, 'frame': 1, 'end': 1, 'winner': None}),
        ('frame', 0, 5),   # "Ben 5: a 3 and a 2 beyond Alice's best"
        ('is', {'points': (0, 5), 'hammer': R, 'frame': 2, 'end': 2}),
        ('frame', 4, 0),   # "Alice 4: a hanger"
        ('is', {'points': (4, 5), 'hammer': B, 'frame': 3, 'end': 1}),
        ('frame', 4, 0),   # "Alice 4 ... leads eight to five"
        ('is', {'points': (8, 5), 'hammer': B, 'frame': 4, 'end': 2}),
        ('frame', 0, 3),   # "three brings him level"
        ('is', {'points': (8, 8), 'hammer': R, 'frame': 5, 'over': False}),
        ('frame', 0, 4),
        ('frame', 6, 0),
        ('is', {'points': (14, 12), 'winner': None}),
        ('frame', 0, 5),   # "a side on twelve that scores five has won": no exact landing
        ('is', {'points': (14, 17), 'winner': B, 'over': True}),
        ('refuse', ('frame', 2, 0)),
        ('undo', True),
        ('is', {'points': (14, 12), 'winner': None, 'over': False}),
        ('redo', True),
        ('is', {'winner': B}),
        ('redo', False),
    ]),
    ('seed 001 arithmetic: red 3, red 2, blue 2, red 1 scores red 5', 'knockoff', {}, [
        ('frame', 5, 0),
        ('is', {'points': (5, 0), 'hammer': B}),
    ]),
    ('overshooting wins in the frame that gets there', 'knockoff', {'target': 21}, [
        ('frame', 16, 0), ('frame', 0, 16), ('is', {'winner': None}),
        ('frame', 16, 0), ('is', {'points': (32, 16), 'winner': R}),
    ]),
    ('blank frame switches the hammer by default', 'knockoff', {'hammer': R}, [
        ('frame', 0, 0), ('is', {'hammer': B, 'frame': 2, 'points': (0, 0)}),
        ('frame', 0, 0), ('is', {'hammer': R, 'frame': 3}),
        ('frame', 3, 0), ('is', {'hammer': B}),
        ('frame', 0, 0), ('is', {'hammer': R}),
    ]),
    ('blank frame keeps the hammer with blank=keep', 'knockoff', {'blank': 'keep'}, [
        ('frame', 0, 0), ('is', {'hammer': B}),
        ('frame', 0, 2), ('is', {'hammer': R}),
        ('frame', 0, 0), ('is', {'hammer': R}),
    ]),
    ('one side scores a frame, at most 16', 'knockoff', {'target': 99}, [
        ('refuse', ('frame', 2, 3)),
        ('refuse', ('frame', 17, 0)),
        ('refuse', ('frame', 0, 17)),
        ('frame', 16, 0), ('frame', 0, 16), ('is', {'points': (16, 16)}),
    ]),
    ('handicap side: zones one more, hanger 5, up to 20', 'knockoff',
     {'handicap': R, 'target': 21}, [
        ('refuse', ('frame', 0, 17)),
        ('frame', 20, 0), ('is', {'points': (20, 0)}),
        ('frame', 0, 16), ('is', {'points': (20, 16)}),
    ]),
    ('hanger worth 7: totals four weights cannot make are refused', 'knockoff',
     {'hanger': 7, 'target': 99}, [
        ('frame', 28, 0),
        ('refuse', ('frame', 0, 27)),   # 7+7+7+6: no weight is worth 6
        ('refuse', ('frame', 0, 25)),
        ('frame', 0, 24),               # 7+7+7+3
    ]),
    ('lowering the line below a total ends the game at once', 'knockoff', {}, [
        ('frame', 12, 0), ('frame', 0, 9),
        ('target', 11),
        ('is', {'winner': R, 'target': 11}),
        ('refuse', ('frame', 0, 3)),
        ('undo', True), ('is', {'winner': None, 'target': 15}),
        ('redo', True), ('is', {'winner': R, 'target': 11}),
    ]),
    ('both past a lowered line: the higher total wins; equal plays on', 'knockoff', {}, [
        ('frame', 10, 0), ('frame', 0, 12),
        ('target', 9), ('is', {'winner': B}),
        ('undo', True),
        ('frame', 2, 0), ('is', {'points': (12, 12)}),
        ('target', 9), ('is', {'winner': None, 'over': False}),
        ('frame', 1, 0), ('is', {'winner': R}),
    ]),
    ('raising the line above the winner puts the game back in play', 'knockoff', {}, [
        ('frame', 16, 0), ('is', {'winner': R}),
        ('target', 21), ('is', {'winner': None, 'target': 21, 'over': False}),
        ('frame', 0, 12), ('frame', 4, 0), ('is', {'winner': None, 'points': (20, 12)}),
        ('frame', 1, 0), ('is', {'winner': R}),
        ('refuse', ('target', 100)), ('refuse', ('target', 0)),
    ]),
    ('equal totals below the line play on', 'knockoff', {}, [
        ('frame', 7, 0), ('frame', 0, 7), ('is', {'points': (7, 7), 'winner': None}),
    ]),
    ('doubles: the pair at the end where the weights lie shoots', 'knockoff', {'doubles': True}, [
        ('is', {'end': 1}), ('frame', 2, 0), ('is', {'end': 2, 'hammer': B}),
        ('frame', 0, 0), ('is', {'end': 1, 'hammer': R}),
    ]),
    ('undo everything, then a new entry drops the redo', 'knockoff', {}, [
        ('frame', 3, 0), ('frame', 0, 2),
        ('undo', True), ('undo', True), ('undo', False),
        ('is', {'points': (0, 0), 'hammer': B, 'frame': 1}),
        ('frame', 0, 1), ('redo', False), ('is', {'points': (0, 1)}),
    ]),

    # --- tap and draw ------------------------------------------------------------------------
    ('tap and draw: every weight scores for its owner', 'tapdraw', {}, [
        ('frame', 3, 5), ('is', {'points': (3, 5), 'hammer': R}),   # blue scored more, opens
        ('frame', 6, 2), ('is', {'points': (9, 7), 'hammer': B}),
        ('frame', 2, 2), ('is', {'hammer': R}),                      # equal: the blank rule
        ('frame', 0, 0), ('is', {'hammer': B}),
        ('refuse', ('frame', 17, 0)),
    ]),
    ('tap and draw: equal totals past the line play another frame', 'tapdraw', {}, [
        ('frame', 12, 12), ('frame', 4, 4), ('is', {'points': (16, 16), 'winner': None}),
        ('frame', 1, 3), ('is', {'points': (17, 19), 'winner': B}),
    ]),
    ('tap and draw: the higher total past the line wins', 'tapdraw', {'blank': 'keep'}, [
        ('frame', 14, 10), ('frame', 2, 6), ('is', {'points': (16, 16), 'winner': None}),
        ('frame', 2, 0), ('is', {'winner': R}),
    ]),
    ('tap and draw with leader scoring is knock-off scoring', 'tapdraw', {'scoring': 'leader'}, [
        ('refuse', ('frame', 1, 1)),
        ('frame', 4, 0), ('is', {'points': (4, 0), 'hammer': B}),
    ]),

    # --- horse collar ------------------------------------------------------------------------
    ('horse collar: turns, the 3-point rule, collars, the round decides', 'horsecollar', {}, [
        ('is', {'turn': R, 'hammer': None, 'frame': 1, 'end': 1, 'target': 51}),
        ('refuse', ('frame', 0, 5)),      # blue's points on red's turn
        ('refuse', ('frame', 1, 0)),      # no set of weights with a 3 makes 1
        ('refuse', ('frame', 2, 0)),
        ('frame', 0, 0), ('is', {'turn': B, 'end': 2, 'collars': (1, 0), 'frame': 1}),
        ('frame', 0, 30), ('is', {'turn': R, 'frame': 2, 'points': (0, 30)}),
        ('frame', 52, 0),                 # two corner hangers
        ('is', {'points': (52, 30), 'winner': None, 'turn': B}),   # blue still to shoot
        ('frame', 0, 10), ('is', {'points': (52, 40), 'winner': R}),
        ('refuse', ('frame', 3, 0)),
    ]),
    ('horse collar: the second side can overtake in the same round', 'horsecollar', {}, [
        ('frame', 51, 0), ('frame', 0, 56), ('is', {'winner': B}),
    ]),
    ('horse collar: equal past 51 plays another full round', 'horsecollar', {}, [
        ('frame', 55, 0), ('frame', 0, 55), ('is', {'winner': None, 'frame': 2}),
        ('frame', 3, 0), ('is', {'winner': None}),
        ('frame', 0, 0), ('is', {'winner': R, 'collars': (0, 1)}),
    ]),
    ('horse collar: unreachable totals are refused, computed', 'horsecollar', {'corner': 13}, [
        ('refuse', ('frame', 75, 0)), ('refuse', ('frame', 76, 0)), ('refuse', ('frame', 77, 0)),
        ('frame', 74, 0), ('frame', 0, 78),
        ('is', {'points': (74, 78), 'winner': B}),
    ]),
    ('horse collar: at most two corner hangers', 'horsecollar', {'target': 200}, [
        ('frame', 130, 0),               # 26 + 26 + six 13s
        ('refuse', ('frame', 0, 131)),
        ('refuse', ('frame', 0, 101)),
        ('frame', 0, 100),
    ]),
    ('horse collar: blue first', 'horsecollar', {'first': B}, [
        ('is', {'turn': B, 'end': 1}), ('frame', 0, 3), ('is', {'turn': R, 'end': 2}),
        ('frame', 9, 0), ('is', {'turn': B, 'frame': 2, 'end': 1}),
    ]),

    # --- four-frame match -------------------------------------------------------------------
    ('four frames: the higher total after frame four wins', 'fourframe', {}, [
        ('is', {'target': None, 'hammer': B}),
        ('frame', 20 - 16, 0), ('frame', 0, 16), ('frame', 16, 0), ('is', {'winner': None}),
        ('frame', 0, 1), ('is', {'points': (20, 17), 'winner': R, 'frame': 5}),
        ('refuse', ('target', 15)),
    ]),
    ('four frames tied: two more, repeated while tied', 'fourframe', {}, [
        ('frame', 3, 0), ('frame', 0, 3), ('frame', 0, 0), ('frame', 0, 0),
        ('is', {'winner': None, 'frame': 5}),
        ('frame', 2, 0), ('is', {'winner': None}),
        ('frame', 0, 2), ('is', {'winner': None, 'frame': 7}),
        ('frame', 0, 1), ('is', {'winner': None}),
        ('frame', 0, 0), ('is', {'winner': B}),
    ]),

    # --- placement practice -----------------------------------------------------------------
    ('practice: shots alternate and the opener changes every frame', 'practice', {}, [
        ('is', {'turn': R, 'frame': 1, 'end': 1, 'hammer': None}),
        ('shot', 3), ('is', {'turn': B}), ('shot', 4), ('is', {'turn': R}),
        ('shot', 0), ('shot', 1), ('shot', 2), ('shot', 2), ('shot', 1), ('shot', 0),
        ('is', {'points': (6, 7), 'turn': B, 'frame': 2, 'end': 2}),
        ('shot', 4), ('is', {'turn': R}),
        ('refuse', ('shot', 5)),
        ('shot', 4), ('shot', 0), ('shot', 0), ('shot', 0), ('shot', 0), ('shot', 0),
        ('is', {'winner': None}),
        ('shot', 1), ('is', {'points': (11, 11), 'winner': None, 'frame': 3}),
    ]),
    ('practice: a tie after two frames plays two more', 'practice', {'first': B}, [
        ('is', {'turn': B}),
    ] + [('shot', 2)] * 16 + [
        ('is', {'points': (16, 16), 'winner': None, 'frame': 3, 'turn': B}),
    ] + [('shot', 1)] * 15 + [
        ('is', {'winner': None}),
        ('shot', 0),
        ('is', {'points': (24, 23), 'winner': R}),
        ('refuse', ('shot', 1)),
    ]),

    # --- shove ha'penny ----------------------------------------------------------------------
    ("shove ha'penny: marks, five coins a turn, turns pass", 'shovehapenny', {}, [
        ('is', {'turn': R, 'frame': 1, 'hammer': None}),
        ('mark', 3, R), ('mark', 3, R), ('mark', 9, R),
        ('refuse', ('mark', 10)), ('refuse', ('mark', 0)),
        ('mark', 3, R),
        ('mark', 3, B),                 # red's bed 3 is full: a gift to blue
        ('refuse', ('mark', 1)),        # a sixth coin
        ('is', {'points': (4, 1)}),
        ('end_turn',), ('is', {'turn': B, 'frame': 2}),
        ('mark', 3, B), ('mark', 3, B), ('mark', 3, None),  # both full: nobody
        ('is', {'beds': ([0, 0, 3, 0, 0, 0, 0, 0, 1], [0, 0, 3, 0, 0, 0, 0, 0, 0])}),
        ('undo', True), ('is', {'points': (4, 3)}),
    ]),
    ("shove ha'penny: both full, a coin scores nobody", 'shovehapenny',
     {'beds': 5}, [
        ('mark', 1, R), ('mark', 1, R), ('mark', 1, R), ('end_turn',),
        ('mark', 1, B), ('mark', 1, B), ('mark', 1, B), ('mark', 1, None), ('end_turn',),
        ('is', {'points': (3, 3)}),
        ('mark', 1, None),
    ]),
    ("shove ha'penny no-gift: a coin in a full bed scores nobody", 'shovehapenny',
     {'gift': False}, [
        ('mark', 2, R), ('mark', 2, R), ('mark', 2, R), ('mark', 2, None),
        ('is', {'points': (3, 0)}),
    ]),
    ("shove ha'penny five beds: 15 marks win, even mid-turn", 'shovehapenny', {'beds': 5}, [
        ('refuse', ('mark', 6)),
    ] + [('mark', 1, R), ('mark', 1, R), ('mark', 1, R), ('mark', 2, R), ('mark', 2, R),
         ('end_turn',), ('end_turn',),
         ('mark', 2, R), ('mark', 3, R), ('mark', 3, R), ('mark', 3, R), ('mark', 4, R),
         ('end_turn',), ('end_turn',),
         ('mark', 4, R), ('mark', 4, R), ('mark', 5, R), ('mark', 5, R),
         ('is', {'winner': None, 'points': (14, 0)}),
         ('mark', 5, R),
         ('is', {'winner': R, 'over': True, 'points': (15, 0)}),
         ('refuse', ('mark', 1)), ('refuse', ('end_turn',))]),
    ("shove ha'penny: the final mark may come as a gift (last_mark any)", 'shovehapenny',
     {'beds': 5}, [
        ('mark', 1, R), ('mark', 1, R), ('mark', 1, R), ('end_turn',),
        ('mark', 1, B), ('mark', 1, B), ('mark', 2, B), ('mark', 2, B), ('mark', 2, B),
        ('end_turn',), ('end_turn',),
        ('mark', 3, B), ('mark', 3, B), ('mark', 3, B), ('mark', 4, B), ('mark', 4, B),
        ('end_turn',), ('end_turn',),
        ('mark', 4, B), ('mark', 5, B), ('mark', 5, B), ('mark', 5, B),
        ('end_turn',),
        ('is', {'points': (3, 14), 'turn': R}),
        ('mark', 1, B),                 # red's full bed 1 gifts blue its fifteenth mark
        ('is', {'winner': B, 'points': (3, 15)}),
    ]),
    ("shove ha'penny: last_mark earned, the gift of the final mark scores nobody", 'shovehapenny',
     {'beds': 5, 'last_mark': 'earned'}, [
        ('mark', 1, R), ('mark', 1, R), ('mark', 1, R), ('end_turn',),
        ('mark', 1, B), ('mark', 1, B), ('mark', 2, B), ('mark', 2, B), ('mark', 2, B),
        ('end_turn',), ('end_turn',),
        ('mark', 3, B), ('mark', 3, B), ('mark', 3, B), ('mark', 4, B), ('mark', 4, B),
        ('end_turn',), ('end_turn',),
        ('mark', 4, B), ('mark', 5, B), ('mark', 5, B), ('mark', 5, B),
        ('end_turn',),
        ('mark', 1, None),              # would be blue's last mark: not by gift
        ('is', {'winner': None, 'points': (3, 14)}),
        ('end_turn',),
        ('mark', 1, B), ('is', {'winner': B}),
    ]),
]

# Entries that are refused however the game stands: bad types, unknown names.
BAD_CALLS = [
    ('knockoff', 'enter_frame', (), {'red': 1.0}),
    ('knockoff', 'enter_frame', (), {'red': '3'}),
    ('knockoff', 'enter_frame', (), {'red': True}),
    ('knockoff', 'enter_frame', (), {'blue': None}),
    ('knockoff', 'enter_frame', (), {'blue': -1}),
    ('knockoff', 'enter_shot', (1,), {}),
    ('knockoff', 'mark', (1,), {}),
    ('knockoff', 'end_turn', (), {}),
    ('knockoff', 'set_target', (21.0,), {}),
    ('knockoff', 'set_target', (True,), {}),
    ('knockoff', 'points', ('green',), {}),
    ('horsecollar', 'enter_frame', (), {'red': 3.5}),
    ('practice', 'enter_shot', (False,), {}),
    ('practice', 'enter_shot', ('2',), {}),
    ('practice', 'enter_frame', (), {'red': 1}),
    ('practice', 'set_target', (10,), {}),
    ('shovehapenny', 'mark', ('3',), {}),
    ('shovehapenny', 'mark', (3.0,), {}),
    ('shovehapenny', 'mark', (True,), {}),
    ('shovehapenny', 'enter_frame', (), {'red': 1}),
    ('shovehapenny', 'set_target', (10,), {}),
    ('shovehapenny', 'beds', ('green',), {}),
]

BAD_GAMES = [
    ('darts', {}),
    ('knockoff', {'target': 0}),
    ('knockoff', {'target': 100}),
    ('knockoff', {'target': 15.0}),
    ('knockoff', {'target': '15'}),
    ('knockoff', {'hammer': 'green'}),
    ('knockoff', {'hammer': None}),
    ('knockoff', {'doubles': 1}),
    ('knockoff', {'blank': 'swap'}),
    ('knockoff', {'handicap': 'both'}),
    ('knockoff', {'first': 'red'}),
    ('knockoff', {'colour': 'red'}),
    ('tapdraw', {'scoring': 'all'}),
    ('horsecollar', {'hammer': 'red'}),
    ('horsecollar', {'corner': 0}),
    ('horsecollar', {'corner': 25}),      # 26, or 13 where a corner counts as an end hanger
    ('fourframe', {'target': 15}),
    ('fourframe', {'frames': 0}),
    ('practice', {'frames': 'two'}),
    ('shovehapenny', {'beds': 7}),
    ('shovehapenny', {'gift': 'yes'}),
    ('shovehapenny', {'last_mark': 'first'}),
]
