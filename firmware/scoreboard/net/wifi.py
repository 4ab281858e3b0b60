# The board on the bar's Wi-Fi (DESIGN section 10), as a background task: join with the
# settings of net.json (`ssid`, `password`, `hostname`), watch the link, and after a drop or a
# failed join try again with a growing pause (BACKOFF_MS doubling to BACKOFF_MAX_MS). Without an
# `ssid` the board opens its own access point `scoreboard-XXXX`, whose page asks for the bar's
# Wi-Fi; what is entered there is written to net.json and joined at once. Every call here returns
# at once (connect() starts a join, the task polls it), so the scoring loop never waits. The
# password is never printed, logged or served.
import json

from ..files import join, replace

from ..aio import sleep_ms

FILE = 'net.json'
NEW = 'net.new'
DEFAULT_HOSTNAME = 'scoreboard'
JOIN_MS = 15000          # one join attempt may take this long
POLL_MS = 100            # while joining
WATCH_MS = 1000          # while joined: look at the link this often
BACKOFF_MS = 1000
BACKOFF_MAX_MS = 60000
HOST_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789-'


def load_settings(root=''):
    """net.json as a dict, or None when there is none or it cannot be read."""
    for name in (FILE, NEW):
        try:
            with open(join(root, name)) as f:
                d = json.loads(f.read())
        except (OSError, ValueError):
            continue
        if isinstance(d, dict):
            return d
    return None


def save_settings(root, d):
    """Written whole beside the old file before the old one goes: a cut keeps one of them."""
    replace(join(root, FILE), join(root, NEW), json.dumps(d))


def check(ssid, password, hostname):
    if not isinstance(ssid, str) or not 1 <= len(ssid) <= 32:
        raise ValueError('The network name is 1 to 32 characters.')
    if not isinstance(password, str) or not (password == '' or 8 <= len(password) <= 63):
        raise ValueError('The password is 8 to 63 characters (leave it empty for an open '
                         'network).')
    for s in (ssid, password):
        for ch in s:
            if ord(ch) < 32 or ord(ch) == 127:
                raise ValueError('The network name and password take no control characters.')
    if hostname is not None:
        if not isinstance(hostname, str) or not 1 <= len(hostname) <= 32:
            raise ValueError('The board name is 1 to 32 characters.')
        for ch in hostname.lower():
            if ch not in HOST_CHARS:
                raise ValueError('The board name takes only letters, digits and -.')


class Wifi:
    def __init__(self, network, root='', log=None):
        self.network = network
        self.root = root
        self.log = log or _print
        s = load_settings(root) or {}
        self.settings = s
        self.ssid = s.get('ssid') if isinstance(s.get('ssid'), str) and s.get('ssid') else None
        h = s.get('hostname')
        self.hostname = h.lower() if isinstance(h, str) and h else DEFAULT_HOSTNAME
        self.mode = 'off'        # 'station' or 'ap' once the task runs
        self.state = 'idle'      # 'joining', 'up', 'down' (station); 'open' (access point)
        self.joins = 0           # successful joins (a test's or the bench's counter)
        self.backoff = BACKOFF_MS
        self.ap_name = 'scoreboard'
        self._sta = None
        self._ap = None
        self._wake = False
        self._fail = []          # the port's status codes of a failed join
        for name in ('STAT_WRONG_PASSWORD', 'STAT_NO_AP_FOUND', 'STAT_CONNECT_FAIL'):
            if hasattr(network, name):
                self._fail.append(getattr(network, name))

    # --- what the page and the API see ---------------------------------------------------

    def setup_wanted(self):
        return self.mode == 'ap' and self.ssid is None

    def public(self):
        return {'mode': self.mode, 'state': self.state, 'ssid': self.ssid,
                'hostname': self.hostname, 'ap': self.ap_name if self._ap_on() else None}

    def connected(self):
        return self._sta is not None and self._sta.isconnected()

    def configure(self, ssid, password, hostname=None):
        """From the access point's page: keep the bar's Wi-Fi in net.json and join it."""
        check(ssid, password, hostname)
        d = dict(self.settings)
        d['ssid'] = ssid
        d['password'] = password
        if hostname:
            d['hostname'] = hostname.lower()
            self.hostname = hostname.lower()
        save_settings(self.root, d)
        self.settings = d
        self.ssid = ssid
        self._wake = True
        self.log('wifi: settings saved for %s' % ssid)

    # --- the task ------------------------------------------------------------------------

    def _ap_on(self):
        return self._ap is not None and self._ap.active()

    def _open_ap(self):
        net = self.network
        ap = net.WLAN(net.AP_IF)
        try:
            mac = ap.config('mac')
            self.ap_name = 'scoreboard-%02X%02X' % (mac[-2], mac[-1])
        except Exception:
            self.ap_name = 'scoreboard-0000'
        ap.active(True)
        try:
            ap.config(essid=self.ap_name, security=0)
        except Exception:
            try:
                ap.config(essid=self.ap_name)
            except Exception:
                pass
        self._ap = ap
        self.mode = 'ap'
        self.state = 'open'
        self.log('wifi: access point %s open' % self.ap_name)

    def _station(self):
        net = self.network
        if self._sta is None:
            try:
                net.hostname(self.hostname)
            except Exception:      # a port without network.hostname()
                pass
            self._sta = net.WLAN(net.STA_IF)
            self._sta.active(True)
        return self._sta

    async def run(self):
        if self.ssid is None:
            self._open_ap()
            while self.ssid is None:
                await sleep_ms(250)
        self.mode = 'station'
        sta = self._station()
        while True:
            if sta.isconnected():
                if self.state != 'up':
                    self.state = 'up'
                    self.joins += 1
                    self.backoff = BACKOFF_MS
                    self.log('wifi: on %s as %s' % (self.ssid, self.hostname))
                    if self._ap_on():
                        self._ap.active(False)     # set up from the page: the AP has done its job
                await sleep_ms(WATCH_MS)
                continue
            if self.state == 'up':
                self.log('wifi: lost %s' % self.ssid)
            self.state = 'joining'
            await self._join(sta)
            if sta.isconnected():
                continue
            self.state = 'down'
            try:
                sta.disconnect()
            except Exception:
                pass
            await self._pause(self.backoff)
            self.backoff = min(self.backoff * 2, BACKOFF_MAX_MS)

    async def _join(self, sta):
        try:
            sta.connect(self.ssid, self.settings.get('password') or '')
        except Exception:
            return
        waited = 0
        while waited < JOIN_MS:
            if sta.isconnected() or sta.status() in self._fail:
                return
            await sleep_ms(POLL_MS)
            waited += POLL_MS

    async def _pause(self, ms):
        """The backoff, cut short when the page gives new settings."""
        self._wake = False
        while ms > 0 and not self._wake:
            await sleep_ms(min(ms, 250))
            ms -= 250


def _print(text):
    print(text)
