# A new version on trial (DESIGN section 12). apps.py, beside main.py, keeps the pointer to the
# app folder that runs; this is the running firmware's side of it: it says `update undone`
# (display and fault log) after a rollback, counts the faults of a version on trial (three
# before it has run TRIAL_MS: back to the previous version, and a reset), and ends the trial
# once the version has run TRIAL_MS. Where there is no pointer (the simulator, a flat install)
# it does nothing.
from . import ticks


class Trial:
    def __init__(self, root, now):
        self.root = root
        self.on = False         # a version on trial, not yet TRIAL_MS old
        self.note = None        # 'update undone' when the last boot rolled back
        self.faults = 0
        self.start = now
        self.apps = None
        try:
            import apps
        except ImportError:
            return
        ptr = apps.read(root)
        if ptr is None:
            return
        self.apps = apps
        self.on = bool(ptr.get('trial'))
        if ptr.get('undone'):
            self.note = 'update undone'
            self.log('update undone: %s' % (ptr['undone'],), now)
            apps.said(root)

    def take_note(self):
        """The start-up's message for the first App of this boot (`update undone`), once."""
        n = self.note
        self.note = None
        return n

    def log(self, text, now):
        from .faultlog import FaultLog
        FaultLog(self.root).write('%d %s' % (now, text))

    def due(self, now):
        return self.on and ticks.diff(now, self.start) >= self.apps.TRIAL_MS

    def commit(self):
        self.on = False
        self.apps.commit(self.root)

    def fault(self, now):
        """A fault of the loop (logged already): the third of a version on trial rolls it
        back, and the board resets into the previous version."""
        if not self.on:
            return
        if ticks.diff(now, self.start) >= self.apps.TRIAL_MS:
            self.commit()
            return
        self.faults += 1
        if self.faults >= self.apps.TRIAL_FAULTS:
            self.on = False
            self.apps.undo(self.apps.read(self.root), self.root, '%d faults' % self.faults)
            import machine
            machine.reset()


current = None      # the Trial of this boot (net/update.py ends it on a Wi-Fi board)


def begin(root, now):
    """This boot's Trial (app.main, once at power-up)."""
    global current
    current = Trial(root, now)
    return current
