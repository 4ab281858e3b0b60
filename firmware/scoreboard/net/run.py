# The runner of a Wi-Fi board: the host's scoring task (services.py: App.step every LOOP_MS,
# the fault policy of host.py) beside the network's services (the Wi-Fi, the HTTP server, the
# pairing timer and the event streams' keep-alive, the venue link), each registered with the
# host and kept running by it. The scoring task never awaits anything but its own sleep, so no
# socket can hold it; the network tasks run in the gaps between passes.
# An idle pass allocates nothing: App.step as on a board without Wi-Fi, one integer comparison
# for the watchers (Hub.poll) and the allocation-free sleep of MicroPython's asyncio.
from ..aio import sleep_ms
from ..services import SERVICE_RETRY_MS, ServiceHost
from .pairing import Pairing
from .web import KEEPALIVE_MS, Hub, make_app

HOUSE_MS = 250          # the pairing timer's resolution
SERVER_RETRY_MS = SERVICE_RETRY_MS  # the HTTP server could not start (no address yet, say)


class Runner(ServiceHost):
    """The host of a Wi-Fi board: services.ServiceHost (the loop and its fault policy from
    host.py, as an asyncio task) with the network's services registered. `board`, `store`,
    `root`, `clock` and `make` (app.App) as for Host; `network` the port's network module
    (None: no Wi-Fi part, only the HTTP server, as in a test on loopback); the server listens
    on host:port (port None: no server)."""

    def __init__(self, board, store, root='', clock=None, network=None, host='0.0.0.0',
                 port=80, log=None, make=None, trial=None):
        ServiceHost.__init__(self, board, store, root, clock, make=make, log=log)
        self.trial = trial      # a new version on trial (trial.py): its faults are counted
        self.host = host
        self.port = port
        self.hub = Hub()
        self.pairing = Pairing(root, show_pin=self._show_pin)
        self.wifi = None
        if network is not None:
            from .wifi import Wifi
            self.wifi = Wifi(network, root, log=self.log)
        self.server = None
        # The venue link (DESIGN section 10, "The venue"): only when net.json has `mqtt`
        # settings, so a board without them never loads the MQTT client.
        self.venue = None
        from .wifi import load_settings
        settings = load_settings(root)
        if settings is not None and settings.get('mqtt'):
            from .venue import from_net
            self.venue = from_net(settings, root, log=self.log)
        # The services, each kept running by the host (a failed one starts again).
        self.add(self.housekeeping)
        if self.wifi is not None:
            self.add(self.wifi.run)
        if port is not None:
            self.add(self.serve)
        if self.venue is not None:
            self.add(self._venue)
        self.on_boot.append(self._hook)
        self.on_stop.append(self._shutdown)
        self.watchers.append(self.hub.poll)
        self.boot()

    def _hook(self, app):
        # After every boot (a fault rebuilds the App): the menu's `unpair` item forgets every
        # phone (the controller calls ctl.on_unpair(), named as its on_bank hook is); the
        # venue follows the new controller; a PIN being shown stays shown.
        ctl = app.ctl
        ctl.on_unpair = self.pairing.forget_all
        ctl.on_pair = self.pairing.open_at_board   # the menu's `pair`: a PIN at once
        if self.venue is not None:        # the banked games to the outbox, the view to `state`
            self.venue.hook(ctl)
        if self.pairing.pin is not None:
            self._show_pin(self.pairing.pin, self.clock())
        self.hub.poll(ctl)

    def _show_pin(self, pin, now):
        if self.app is not None:
            self.app.ctl.show_pin(pin, now)

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

    def _shutdown(self):
        if self.server is not None and getattr(self.server, 'server', None) is not None:
            self.server.shutdown()


def main(board=None, root='', clock=None, make=None, trial=None):
    """A Wi-Fi board's main (app.main hands over when the board says NETWORK = 'wlan', and
    gives the App class as `make`)."""
    from ..store import Store
    if board is None:
        import board
    try:
        import network
    except ImportError:      # a port without Wi-Fi: the remote on whatever network it has
        network = None
    r = Runner(board, Store(root), root, clock=clock, network=network,
               port=getattr(board, 'HTTP_PORT', 80), make=make, trial=trial)
    r.run()
