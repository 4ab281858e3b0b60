"""The menu's `learn` item: bind a remote's keys, asking for each button in turn.

    lr = Learn(remotes, ('RED', 'BLUE', 'OK'))   # remotes: the board's RemoteKeys
    lr.start()
    ... each loop pass, after the remotes' bits(): lr.poll() ...
    lr.button   # the button to press on the remote now ('RED', ...), None when done
    lr.done     # every button has its code: lr.result() to apply and save

A code already taken by an earlier button of this round is refused (`refused` counts them, for
a buzz), so one key cannot end up as two buttons. Each receiver kind that learned a code gets
exactly the new codes when the round ends; a kind that learned nothing keeps its own.
"""


class Learn:
    def __init__(self, remotes, buttons):
        self._remotes = remotes
        self._buttons = tuple(buttons)
        self._i = 0
        self._new = {}  # kind -> {code: name}
        self.refused = 0
        self.active = False

    def start(self):
        self._i = 0
        self._new = {}
        self.refused = 0
        self.active = True
        for r in self._remotes:
            r.learn()

    def cancel(self):
        self.active = False
        for r in self._remotes:
            r.cancel()

    @property
    def button(self):
        return self._buttons[self._i] if self.active and self._i < len(self._buttons) else None

    @property
    def kinds(self):
        """The receiver kinds ('ir', 'rf') that learned a code this round."""
        return tuple(self._new)

    @property
    def done(self):
        return self._i >= len(self._buttons)

    def poll(self):
        """Take a code learned since the last poll; returns the button it bound, or None."""
        if not self.active:
            return None
        for r in self._remotes:
            code = r.learned
            if code is None:
                continue
            r.learned = None
            mine = self._new.get(r.kind)
            if mine is None:
                mine = self._new[r.kind] = {}
            if code in mine:
                self.refused += 1
                r.learn()
                return None
            name = self._buttons[self._i]
            mine[code] = name
            self._i += 1
            if self._i >= len(self._buttons):
                self.active = False
                for o in self._remotes:
                    o.cancel()
            else:
                for o in self._remotes:
                    o.learn()
            return name
        return None

    def result(self):
        """Apply the round to the remotes; returns {kind: {code: name}} for every receiver, the
        codes to save (a kind untouched by the round has its old codes)."""
        out = {}
        for r in self._remotes:
            new = self._new.get(r.kind)
            if new is not None:
                for code in r.codes:
                    r.bind(code, None)
                for code in new:
                    r.bind(code, new[code])
            out[r.kind] = r.codes
        return out
