# The host of one board: runs the App's passes for ever, and is the one place of the fault
# policy (a fault is logged and the App built again; CRASHES_FOR_SAFE faults within
# CRASH_WINDOW_MS bring up the safe screen) and of the services (the network parts of a Wi-Fi
# board: the web server, the venue link, ... each a coroutine function kept running).
#
# A board without services runs the plain loop (run_plain): App.step, then a sleep of
# App.pause(); asyncio is never imported. A board with services (net/run.py registers them)
# runs the same passes as one asyncio task beside them (scoring), never awaiting anything but
# its own sleep, so no socket can hold the scoring loop.
#
# The host knows no part of the firmware: the App class comes in as `make` (app.main passes
# it), the services register themselves (add, on_boot, watchers), so the arrows point into
# this module and none out of it but to the fault log and the clock.
from .ticks import add, diff, reader

CRASH_WINDOW_MS = 60000
CRASHES_FOR_SAFE = 3    # this many faults within the window: the safe screen
RESTART_PAUSE_MS = 100  # after a fault, before the loop starts again
SERVICE_RETRY_MS = 2000  # a service that failed (or ended) starts again after this pause


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
        self.services = []      # coroutine functions, each kept running (keep)
        self.on_boot = []       # called with each new App (a service hooks its controller)
        self.on_stop = []       # called by stop()
        self.watchers = []      # called with the controller after every pass (asyncio only)
        self.tasks = []
        self.stopping = False
        self.passes = 0         # scoring passes so far (tests and the bench watch it)
        self.worst_gap = 0      # the longest time between two passes, ms (asyncio)

    @property
    def ctl(self):
        return self.app.ctl

    def now(self):
        return self.clock()

    def add(self, service):
        """Register a service: a coroutine function, started with the scoring task and
        started again SERVICE_RETRY_MS after it fails or ends."""
        self.services.append(service)

    # --- the scoring side -----------------------------------------------------------------

    def boot(self):
        """A new App: at power-up, and after every fault (the safe screen once they came too
        often). Each on_boot hook is given it."""
        # issue 22 (trial boot): a boot counter of a version on trial belongs here, as an
        # on_boot hook or before the App is built.
        self.app = self.make(self.board, self.store, self.clock(), safe=self.safe)
        for hook in self.on_boot:
            hook(self.app)
        return self.app

    def fault(self, e):
        """After any fault of the loop: log it, count it; CRASHES_FOR_SAFE within
        CRASH_WINDOW_MS make the next App the safe screen."""
        now = self.clock()
        from .faultlog import FaultLog, exc_text   # loaded only when something went wrong
        FaultLog(self.root).write('%d %s' % (now, exc_text(e)))
        crashes = [t for t in self.crashes if diff(now, t) < CRASH_WINDOW_MS]
        crashes.append(now)
        if len(crashes) >= CRASHES_FOR_SAFE:
            self.safe = True
            crashes = []
        self.crashes = crashes

    def step(self, now):
        """One pass: the App's, then the watchers' (the web's event streams)."""
        self.app.step(now)
        w = self.watchers
        i = len(w)
        while i:
            i -= 1
            w[i](self.app.ctl)

    def run(self, sleep_ms=None, idle_sleep=None):
        """Run for ever: the plain loop, or with services the asyncio loop."""
        if not self.services:
            if sleep_ms is None:
                from time import sleep_ms   # type: ignore[attr-defined]  # MicroPython
            return self.run_plain(sleep_ms, idle_sleep)
        import asyncio
        asyncio.run(self.main())

    def run_plain(self, sleep_ms, idle_sleep=None):
        """The loop of a board without services: a pass, then a wait of App.pause() (with
        idle_sleep, machine.lightsleep say, when longer than one pass)."""
        clock = self.clock
        idle_sleep = idle_sleep or sleep_ms
        while True:
            try:
                app = self.boot()
                loop_ms = app.LOOP_MS
                while True:
                    app.step(clock())
                    ms = app.pause(clock())
                    if ms > loop_ms:
                        idle_sleep(ms)
                    else:
                        sleep_ms(ms)
            except KeyboardInterrupt:
                # issue 22: the watchdog's feeder for a loop a KeyboardInterrupt ended (an
                # mpremote session) goes here, before the interrupt goes on.
                raise
            except Exception as e:
                self.fault(e)
                # Never a hot loop: a fault that comes back at once (a broken display, say)
                # still lets the board breathe, and the watchdog reset it if nothing helps.
                sleep_ms(RESTART_PAUSE_MS)

    async def scoring(self):
        """The loop as an asyncio task: a pass every LOOP_MS, on time (a late pass does not
        bring a burst to catch up); a fault handled as in run_plain."""
        from .aio import sleep_ms as sleep
        clock = self.clock
        period = self.app.LOOP_MS if self.app is not None else self.make.LOOP_MS
        last = clock()
        due = last
        while True:
            now = clock()
            gap = diff(now, last)
            if gap > self.worst_gap:
                self.worst_gap = gap
            last = now
            try:
                self.step(now)
            except Exception as e:   # noqa: BLE001  (the loop must go on)
                self.fault(e)
                await sleep(RESTART_PAUSE_MS)
                try:
                    self.boot()
                except Exception as e2:
                    self.fault(e2)
                due = last = clock()
                continue
            self.passes += 1
            due = add(due, period)
            wait = diff(due, clock())
            if wait < 0:             # late (a long save): no burst to catch up
                due = clock()
                wait = 0
            await sleep(wait)

    # --- the services -----------------------------------------------------------------------

    async def keep(self, make):
        """A service that fails (or ends) starts again after a pause; the scoring never
        notices. After stop() it is not started again."""
        from .aio import sleep_ms as sleep
        while not self.stopping:
            try:
                await make()
            except Exception as e:
                self.log('net: %s' % (e,))
            if self.stopping:       # stop() (a service may swallow its cancel: microdot does)
                return
            await sleep(SERVICE_RETRY_MS)

    def start(self):
        """Create the scoring task and one task for each service on the running loop;
        returns the scoring task."""
        import asyncio
        if self.app is None:
            self.boot()
        tasks = [asyncio.create_task(self.scoring())]
        for make in self.services:
            tasks.append(asyncio.create_task(self.keep(make)))
        self.tasks = tasks
        return tasks[0]

    def stop(self):
        self.stopping = True
        for t in self.tasks:
            t.cancel()
        for f in self.on_stop:
            try:
                f()
            except Exception:
                pass

    async def main(self):
        await self.start()
