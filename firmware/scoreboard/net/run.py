# The runner of a Wi-Fi board: one asyncio loop with the scoring loop as a task (App.step every
# LOOP_MS, exactly the pass of app.main) beside the network tasks (the Wi-Fi, the HTTP server,
# the pairing timer and the event streams' keep-alive). The scoring task never awaits anything
# but its own sleep, so no socket can hold it; the network tasks run in the gaps between passes.
# An idle pass allocates nothing: App.step as on a board without Wi-Fi, one integer comparison
# for the watchers (Hub.poll) and the allocation-free sleep of MicroPython's asyncio.
import asyncio

from .. import app as appmod
from ..ui import ticks
from .pairing import Pairing
from .web import KEEPALIVE_MS, Hub, make_app

try:
    from asyncio import sleep_ms
except ImportError:  # CPython
    def sleep_ms(ms):  # type: ignore[misc,no-redef]
        return asyncio.sleep(ms / 1000)

HOUSE_MS = 250          # the pairing timer's resolution
SERVER_RETRY_MS = 2000  # the HTTP server could not start (no address yet, say): try again


def real_clock():
    import time
    if hasattr(time, 'ticks_ms'):
        def clock():
            return ticks.mask(time.ticks_ms())
    else:
        def clock():
            return ticks.mask(int(time.monotonic() * 1000))
    return clock


class Runner:
    """`board` as for App; `store` the firmware's Store; `network` the port's network module
    (None: no Wi-Fi part, only the HTTP server, as in a test on loopback); the server listens on
    host:port (port None: no server)."""

    def __init__(self, board, store, root='', clock=None, network=None, host='0.0.0.0',
                 port=80, log=None):
        self.board = board
        self.store = store
        self.root = root
        self.clock = clock or real_clock()
        self.host = host
        self.port = port
        self.log = log or print
        self.hub = Hub()
        self.pairing = Pairing(root, show_pin=self._show_pin)
        self.wifi = None
        if network is not None:
            from .wifi import Wifi
            self.wifi = Wifi(network, root, log=self.log)
        self.server = None
        # More network tasks (the venue's MQTT client, say): coroutine functions started
        # with the others and restarted after a pause when they fail, as the Wi-Fi task is.
        self.services = []
        # The venue link (DESIGN section 10, "The venue"): only when net.json has `mqtt`
        # settings, so a board without them never loads the MQTT client.
        self.venue = None
        from .wifi import load_settings
        settings = load_settings(root)
        if settings is not None and settings.get('mqtt'):
            from .venue import from_net
            self.venue = from_net(settings, root, log=self.log)
            if self.venue is not None:
                self.services.append(self._venue)
        self.stopping = False
        self.passes = 0          # scoring passes so far (tests and the bench watch it)
        self.worst_gap = 0       # the longest time between two passes, ms
        self._crashes = []
        self._safe = False
        self.app = None
        self.boot()

    # --- the scoring side ----------------------------------------------------------------

    def boot(self):
        self.app = appmod.App(self.board, self.store, self.clock(), safe=self._safe,
                              clock=self.clock, note=appmod.take_note())
        self._hook(self.app.ctl)
        if self.pairing.pin is not None:      # rebuilt after a fault: the PIN stays shown
            self._show_pin(self.pairing.pin, self.clock())
        self.hub.poll(self.app.ctl)

    def _hook(self, ctl):
        # The menu's `unpair` item forgets every phone: the controller calls ctl.on_unpair()
        # (named as its on_bank hook is).
        ctl.on_unpair = self.pairing.forget_all
        if self.venue is not None:        # the banked games to the outbox, the view to `state`
            self.venue.hook(ctl)

    @property
    def ctl(self):
        return self.app.ctl

    def now(self):
        return self.clock()

    def _show_pin(self, pin, now):
        ctl = self.app.ctl
        if hasattr(ctl, 'show_pin'):
            ctl.show_pin(pin, now)

    def step(self, now):
        self.app.step(now)
        self.hub.poll(self.app.ctl)

    def fault(self, e):
        """What app.main does after a fault: log it, count it, three within a minute start the
        safe screen; the App is built again."""
        now = self.clock()
        from ..faultlog import FaultLog, exc_text
        FaultLog(self.root).write('%d %s' % (now, exc_text(e)))
        appmod.trial_fault(now)     # a version on trial: the third fault rolls it back
        crashes = [t for t in self._crashes if ticks.diff(now, t) < appmod.CRASH_WINDOW_MS]
        crashes.append(now)
        if len(crashes) >= appmod.CRASHES_FOR_SAFE:
            self._safe = True
            crashes = []
        self._crashes = crashes

    async def scoring(self):
        clock = self.clock
        period = appmod.LOOP_MS
        last = clock()
        due = last
        while True:
            now = clock()
            gap = ticks.diff(now, last)
            if gap > self.worst_gap:
                self.worst_gap = gap
            last = now
            try:
                self.step(now)
            except Exception as e:   # noqa: BLE001  (the loop must go on, as in app.main)
                self.fault(e)
                await sleep_ms(appmod.RESTART_PAUSE_MS)
                try:
                    self.boot()
                except Exception as e2:
                    self.fault(e2)
                due = last = clock()
                continue
            self.passes += 1
            due = ticks.add(due, period)
            wait = ticks.diff(due, clock())
            if wait < 0:             # late (a long save): no burst to catch up
                due = clock()
                wait = 0
            await sleep_ms(wait)

    # --- the network side ----------------------------------------------------------------

    async def housekeeping(self):
        beat = 0
        while True:
            await sleep_ms(HOUSE_MS)
            try:
                self.pairing.tick(self.clock())
            except Exception:
                pass
            beat += HOUSE_MS
            if beat >= KEEPALIVE_MS:
                beat = 0
                self.hub.beat()

    async def serve(self):
        self.server = make_app(self)
        while not self.stopping:
            try:
                await self.server.start_server(host=self.host, port=self.port)
            except Exception as e:
                self.log('http: %s' % (e,))
            if self.stopping:       # microdot swallows the cancel of its own serving task
                return
            await sleep_ms(SERVER_RETRY_MS)

    async def _venue(self):
        # The broker is first dialled once the Wi-Fi is up; after that the link keeps its own
        # backoff through drops of either.
        while self.wifi is not None and not self.wifi.connected():
            await sleep_ms(HOUSE_MS)
        await self.venue.run()

    async def keep(self, make):
        """A network task that fails starts again after a pause; the scoring never notices."""
        while True:
            try:
                await make()
            except Exception as e:
                self.log('net: %s' % (e,))
            await sleep_ms(SERVER_RETRY_MS)

    def start(self):
        """Create every task on the running loop; returns the scoring task."""
        tasks = [asyncio.create_task(self.scoring()), asyncio.create_task(self.housekeeping())]
        if self.wifi is not None:
            tasks.append(asyncio.create_task(self.keep(self.wifi.run)))
        if self.port is not None:
            tasks.append(asyncio.create_task(self.serve()))
        for make in self.services:
            tasks.append(asyncio.create_task(self.keep(make)))
        self.tasks = tasks
        return tasks[0]

    def stop(self):
        self.stopping = True
        for t in getattr(self, 'tasks', ()):
            t.cancel()
        if self.server is not None and getattr(self.server, 'server', None) is not None:
            try:
                self.server.shutdown()
            except Exception:
                pass

    async def main(self):
        await self.start()


def main(board=None, root='', clock=None):
    """A Wi-Fi board's main (app.main hands over when the board says NETWORK = 'wlan')."""
    from ..store import Store
    if board is None:
        import board
    try:
        import network
    except ImportError:      # a port without Wi-Fi: the remote on whatever network it has
        network = None
    r = Runner(board, Store(root), root, clock=clock, network=network,
               port=getattr(board, 'HTTP_PORT', 80))
    asyncio.run(r.main())
