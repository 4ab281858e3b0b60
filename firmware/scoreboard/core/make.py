# What building a game needs once: the options checked against each kind's OPTIONS, and the
# tables of the totals a side can make. new_game() loads this module for the build and drops
# it again after, so a board in play does not keep its code.
from .codes import RuleError


def check_option(allowed, v):
    """v if `allowed` (a choices tuple or a [lo, hi] list) takes it, else RuleError."""
    if type(allowed) is list:
        if type(v) is not int or v < allowed[0] or v > allowed[1]:
            raise RuleError('expected a whole number %d..%d' % (allowed[0], allowed[1]))
        return v
    for c in allowed:
        # type() as well as ==: True == 1 and 0 == False, but neither is the other's option
        if type(c) is type(v) and c == v:
            return v
    raise RuleError('expected one of ' + ', '.join([str(c) for c in allowed]))


def totals_bitmask(values, count, capped=0, cap=0, need=0):
    """The totals that `count` weights or fewer can make, as a bitmask (bit n set: n is possible).

    Each weight that scores is worth one of `values`, or `capped`, which at most `cap` weights
    may be worth (horse collar's corner hangers; it may equal one of `values`: a weight worth
    it that way is not limited). With `need`, a total counts only if some weight is worth
    `need` or more; 0 (nothing scored) is always possible.
    """
    # states[c * 2 + q]: bitmask of sums made with c capped weights, q = a needed weight seen.
    states = [0] * ((cap + 1) * 2)
    states[1 if need == 0 else 0] = 1
    for _ in range(count):
        nxt = states[:]
        for c in range(cap + 1):
            for q in range(2):
                m = states[c * 2 + q]
                if not m:
                    continue
                for v in values:
                    nxt[c * 2 + (1 if (q or v >= need) else 0)] |= m << v
                if c < cap:
                    nxt[(c + 1) * 2 + (1 if (q or capped >= need) else 0)] |= m << capped
        states = nxt
    mask = 1
    for c in range(cap + 1):
        mask |= states[c * 2 + 1]
    return mask


def make_options(cls, given):
    opts = {}
    for name, default, allowed in cls.OPTIONS:
        if name in given:
            try:
                opts[name] = check_option(allowed, given[name])
            except RuleError as e:   # say which option: 'corner: expected one of 26, 13'
                raise RuleError('%s: %s' % (name, e.args[0]))
        else:
            opts[name] = default
    for name in given:
        if name not in opts:
            raise RuleError('unknown option %s for %s' % (name, cls.KIND))
    return opts
