# The host of a board with services (a Wi-Fi board's web server and venue link, a BLE remote,
# the tournament's match topic): host.Host's passes and fault policy, run as one asyncio task
# (scoring) beside the services, each a coroutine function kept running (keep). The scoring
# task never awaits anything but its own sleep, so no socket can hold it; the services run in
# the gaps between passes. Loaded only by such boards (net/run.py's Runner is one).
from .aio import sleep_ms
from .host import RESTART_PAUSE_MS, Host
from .ticks import add, diff

SERVICE_RETRY_MS = 2000  # a service that failed (or ended) starts again after this pause


class ServiceHost(Host):
    """host.Host with services: add(coroutine_fn) before start(); `watchers` are called with
    the controller after every pass, `on_stop` by stop()."""

    def __init__(self, board, store, root='', clock=None, make=None, log=None):
        Host.__init__(self, board, store, root, clock, make=make, log=log)
        self.services = []      # coroutine functions, each kept running (keep)
        self.watchers = []      # called with the controller after every pass
        self.on_stop = []       # called by stop()
        self.tasks = []
        self.stopping = False
        self.passes = 0         # scoring passes so far (tests and the bench watch it)
        self.worst_gap = 0      # the longest time between two passes, ms

    @property
    def ctl(self):
        return self.app.ctl

    def now(self):
        return self.clock()

    def add(self, service):
        """Register a service: a coroutine function, started with the scoring task and
        started again SERVICE_RETRY_MS after it fails or ends."""
        self.services.append(service)

    def step(self, now):
        """One pass: the App's, then the watchers' (the web's event streams)."""
        self.app.step(now)
        w = self.watchers
        i = len(w)
        while i:
            i -= 1
            w[i](self.app.ctl)

    def run(self, sleep_ms=None, idle_sleep=None):
        """Run for ever: the scoring task and the services on one asyncio loop."""
        import asyncio
        asyncio.run(self.main())

    async def scoring(self):
        """The loop as an asyncio task: a pass every LOOP_MS, on time (a late pass does not
        bring a burst to catch up); a fault handled as in run_plain."""
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
                await sleep_ms(RESTART_PAUSE_MS)
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
            await sleep_ms(wait)

    async def keep(self, make):
        """A service that fails (or ends) starts again after a pause; the scoring never
        notices. After stop() it is not started again."""
        while not self.stopping:
            try:
                await make()
            except Exception as e:
                self.log('net: %s' % (e,))
            if self.stopping:       # stop() (a service may swallow its cancel: microdot does)
                return
            await sleep_ms(SERVICE_RETRY_MS)

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
