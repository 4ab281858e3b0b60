# The save format's reading and spelling, loaded only when a saved game is read (at boot, or a
# set-aside game coming back) or spelt out in full: load_game() imports it and drops it again,
# so the board does not keep its code for the months between two boots.
from .codes import ARG_MAX, FORMAT, RuleError, encode

_NAMES = ('', 'f', 't', 's', 'm', 'e')
_ARGS = (0, 2, 1, 1, 1, 0)


def entry_to_list(code):
    op = code & 7
    n = _ARGS[op]
    if n == 2:
        return [_NAMES[op], (code >> 3) & ARG_MAX, code >> 13]
    if n == 1:
        return [_NAMES[op], (code >> 3) & ARG_MAX]
    return [_NAMES[op]]


def entry_from_list(e):
    if type(e) is int:
        # the compact form: the code itself, checked like any other entry
        op = e & 7
        if op < 1 or op >= len(_NAMES) or e < 0 or e >> 23:
            raise RuleError('damaged entry')
        n = _ARGS[op]
        if (n < 2 and e >> 13) or (n < 1 and (e >> 3) & ARG_MAX):
            raise RuleError('damaged entry')
        return e
    if type(e) is not list and type(e) is not tuple or not e or type(e[0]) is not str:
        raise RuleError('damaged entry')
    for op in range(1, len(_NAMES)):
        if _NAMES[op] == e[0]:
            break
    else:
        raise RuleError('damaged entry')
    if len(e) != 1 + _ARGS[op]:
        raise RuleError('damaged entry')
    for x in e[1:]:
        if type(x) is not int or x < 0 or x > ARG_MAX:
            raise RuleError('damaged entry')
    return encode(op, *e[1:])


def load(d, new_game):
    """A game from to_dict() output; RuleError for anything damaged or foreign."""
    try:
        if type(d) is not dict or d.get('format', FORMAT) != FORMAT:
            raise RuleError('not a saved game')
        opts = d.get('options')
        log = d.get('log')
        redo = d.get('redo', [])
        if type(opts) is not dict or type(log) is not list or type(redo) is not list:
            raise RuleError('not a saved game')
        for k in opts:
            if type(k) is not str:
                raise RuleError('damaged options')
        g = new_game(d.get('kind'), **opts)
        log = [entry_from_list(e) for e in log]
        redo = [entry_from_list(e) for e in redo]
        g.restore(log, redo)     # replayed, the redo stack too: a damaged one is refused now
        return g
    except RuleError:
        raise
    except Exception as e:  # anything a damaged dict can provoke is reported the same way
        raise RuleError('damaged game (%s)' % type(e).__name__)
