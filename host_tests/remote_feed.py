# Shared by the remote tests: run a pulse train through a decoder, collect what it reports.
from scoreboard.ui.ticks import MASK


def decode(cls, train, active_low=None):
    out = []

    def emit(code, t):
        out.append(code)

    d = cls(emit) if active_low is None else cls(emit, active_low)
    for t, v in train:
        d.edge(t & MASK, v)
    return out
