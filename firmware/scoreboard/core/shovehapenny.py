# Shove ha'penny (seed 003). Nine beds (or five); a clean coin in a bed marks it for the player
# whose turn it is. Once that player has three marks in the bed, a further coin there marks the
# opponent's bed instead if the opponent still needs it (the gift rule; off in the no-gift
# variant), else nobody. With last_mark 'earned' a gift that would complete the opponent's final
# mark scores nobody. Five coins a turn. The game ends the moment a side has three in every bed.
from .base import END, MARK, RED, SIDE, Game, RuleError, encode, other

FULL = 3           # marks that fill a bed
COINS = 5          # coins a player shoves in one turn


class Shovehapenny(Game):
    KIND = 'shovehapenny'
    TITLE = "Shove ha'penny"
    TURNS = True
    ENTRY = 'bed'      # a coin in a bed, for the side whose turn it is; the turn is ended
    OPTIONS: tuple = (
        ('beds', 9, (9, 5)),
        ('first', RED, SIDE),
        ('gift', True, (True, False)),
        ('last_mark', 'any', ('any', 'earned')),
    )

    def _reset(self):
        n = self.options['beds']
        self._beds = {'red': bytearray(n), 'blue': bytearray(n)}
        self._turns = 0
        self.coins = 0           # coins entered in the current turn
        self.credited = None     # who the last coin marked

    @property
    def turn(self):
        first = self.options['first']
        return first if self._turns % 2 == 0 else other(first)

    @property
    def frame(self):
        return self._turns + 1

    @property
    def end(self):
        return 1

    def points(self, side):
        return sum(self._beds[self._side(side)])

    def beds(self, side):
        return list(self._beds[self._side(side)])

    def _side(self, side):
        if side not in ('red', 'blue'):
            raise RuleError('side must be red or blue')
        return side

    def needed(self, side):
        """Marks `side` still needs to win."""
        return FULL * self.options['beds'] - self.points(side)

    def mark(self, bed):
        if type(bed) is not int:
            raise RuleError('bed must be a whole number')
        n = self.options['beds']
        if bed < 1 or bed > n:
            raise RuleError('bed must be 1..%d' % n)
        self._enter(encode(MARK, bed))
        return self.credited

    def end_turn(self):
        self._enter(END)

    def _apply(self, op, bed, _):
        if op == END:
            self._turns += 1
            self.coins = 0
            self.credited = None
            return
        if op != MARK:
            raise RuleError('not a coin')
        n = self.options['beds']
        if bed < 1 or bed > n:
            raise RuleError('bed must be 1..%d' % n)
        if self.coins >= COINS:
            raise RuleError('five coins a turn')
        i = bed - 1
        me = self.turn
        you = other(me)
        if self._beds[me][i] < FULL:
            who = me
        elif self.options['gift'] and self._beds[you][i] < FULL:
            who = you
            if self.options['last_mark'] == 'earned' and self.needed(you) == 1:
                who = None
        else:
            who = None
        if who is not None:
            self._beds[who][i] += 1
        self.coins += 1
        self.credited = who

    def _decide(self):
        for side in (RED, other(RED)):
            if self.needed(side) == 0:
                return side
        return None


GAME = Shovehapenny
