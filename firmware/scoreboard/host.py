# The host of one board: runs the App's passes for ever, and is the one place of the fault
# policy (a fault is logged and the App built again; CRASHES_FOR_SAFE faults within
# CRASH_WINDOW_MS bring up the safe screen) and of the services (the network parts of a Wi-Fi
# board: the web server, the venue link, ... each a coroutine function kept running).
#
# A board without services runs the plain loop (run_plain): App.step, then a sleep of
# App.pause(); asyncio is never imported, and the code of the services' loop (services.py,
# a Host that runs the same passes as one asyncio task beside its services) is never loaded.
#
# The host knows no part of the firmware: the App class comes in as `make` (app.main passes
# it), a service hooks each new App through on_boot, so the arrows point into this module and
# none out of it but to the fault log and the clock.
from .ticks import diff, reader

CRASH_WINDOW_MS = 60000
CRASHES_FOR_SAFE = 3    # this many faults within the window: the safe screen
RESTART_PAUSE_MS = 100  # after a fault, before the loop starts again


class Host:
    """`make(board, store, now, safe=False)` builds the App (app.App); `store` the firmware's
    Store; `root` the flash folder of the fault log; `clock()` the masked ms clock."""

    def __init__(self, board, store, root='', clock=None, make=None, log=None):
        self.board = board
        self.store = store
        self.root = root
        self.clock = clock or reader()
        self.make = make
        self.log = log or print
        self.app = None
        self.safe = False       # the faults came too often: the next App is the safe screen
        self.crashes = []       # the times of the faults within CRASH_WINDOW_MS
        self.services = ()      # none: the plain loop (services.ServiceHost has some)
        self.on_boot = []       # called with each new App (a service hooks its controller)
        self.trial = None       # trial.Trial of a new version on trial (app.main sets it)

    # --- the scoring side -----------------------------------------------------------------

    def boot(self):
        """A new App: at power-up, and after every fault (the safe screen once they came too
        often). Each on_boot hook is given it."""
        # The lamp test is timed from the moment the displays light (`clock`); the first App
        # after a rollback says `update undone` (the trial's note, once).
        note = self.trial.take_note() if self.trial is not None else None
        self.app = self.make(self.board, self.store, self.clock(), safe=self.safe,
                             clock=self.clock, note=note)
        for hook in self.on_boot:
            hook(self.app)
        return self.app

    def fault(self, e):
        """After any fault of the loop: log it, count it; CRASHES_FOR_SAFE within
        CRASH_WINDOW_MS make the next App the safe screen."""
        now = self.clock()
        from .faultlog import FaultLog, exc_text   # loaded only when something went wrong
        FaultLog(self.root).write('%d %s' % (now, exc_text(e)))
        if self.trial is not None:      # on trial: the third fault goes back to the old version
            self.trial.fault(now)
        crashes = [t for t in self.crashes if diff(now, t) < CRASH_WINDOW_MS]
        crashes.append(now)
        if len(crashes) >= CRASHES_FOR_SAFE:
            self.safe = True
            crashes = []
        self.crashes = crashes

    def run(self, sleep_ms=None, idle_sleep=None):
        """Run for ever: the plain loop (a host with services runs them: services.py)."""
        if sleep_ms is None:
            from time import sleep_ms   # type: ignore[attr-defined]  # MicroPython
        self.run_plain(sleep_ms, idle_sleep)

    def run_plain(self, sleep_ms, idle_sleep=None):
        """The loop of a board without services: a pass, then a wait of App.pause() (with
        idle_sleep, machine.lightsleep say, when longer than one pass)."""
        clock = self.clock
        idle_sleep = idle_sleep or sleep_ms
        while True:
            try:
                app = self.boot()
                loop_ms = app.LOOP_MS
                trial = self.trial
                while True:
                    app.step(clock())
                    if trial is not None and trial.on and trial.due(clock()):
                        trial.commit()      # it ran TRIAL_MS: the new version stays
                    ms = app.pause(clock())
                    if ms > loop_ms:
                        idle_sleep(ms)
                    else:
                        sleep_ms(ms)
            except KeyboardInterrupt:
                raise       # app.main hands the watchdog to its feeder (an mpremote session)
            except Exception as e:
                self.fault(e)
                # Never a hot loop: a fault that comes back at once (a broken display, say)
                # still lets the board breathe, and the watchdog reset it if nothing helps.
                sleep_ms(RESTART_PAUSE_MS)

