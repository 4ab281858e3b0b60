# A stand-in for MicroPython's `network` module on the virtual board: a station interface that
# joins the networks "in the air" and an access point, with the calls the firmware uses
# (WLAN(STA_IF/AP_IF), active, connect, disconnect, isconnected, status, ifconfig, config,
# hostname). The sockets stay the host's: only the Wi-Fi link is pretended. Tests control it:
#
#   network.reset()                  fresh interfaces; every network joins at once (the simulator)
#   network.air({'bar': 'secret'})   only these networks exist, with these passwords
#   network.drop() / network.restore()   the link goes down (the station loses its connection and
#                                    cannot join) / comes back (the firmware must join again)
#   network.JOIN_MS                  how long a join takes (ms of the host's clock)
#   network.attempts                 (ms, ssid) of every connect() call; never a password
#   network.names({'broker.bar': '127.0.0.1'}, ms=300)   host names the DNS knows; from then on
#                                    `socket.getaddrinfo` of a name blocks `ms` (time.sleep, the
#                                    whole interpreter waits, as lwip's getaddrinfo holds the
#                                    chip's one loop), an unknown name raises OSError(-2) after
#                                    it; a dotted address answers at once, as lwip's does
#   network.lookups                  (ms, host) of every look-up of a name
import sys
import time

STA_IF = 0
AP_IF = 1
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_WRONG_PASSWORD = -3
STAT_NO_AP_FOUND = -2
STAT_CONNECT_FAIL = -1
STAT_GOT_IP = 3

JOIN_MS = 0
_air = None          # None: any network exists and any password is right
_up = True
_hostname = 'mpy-board'
_ifaces = {}
attempts = []
DNS_MS = 0
_names = None        # None: the host's own resolver, no stand-in socket module
_host_socket = None
lookups = []


def _ms():
    if hasattr(time, 'ticks_ms'):
        return time.ticks_ms()
    return int(time.monotonic() * 1000)


def _since(t):
    if hasattr(time, 'ticks_diff'):
        return time.ticks_diff(_ms(), t)
    return _ms() - t


def reset():
    global _air, _up, _hostname, JOIN_MS
    _air = None
    _up = True
    _hostname = 'mpy-board'
    JOIN_MS = 0
    _ifaces.clear()
    del attempts[:]
    _no_names()


def _dotted(host):
    parts = host.split('.')
    return len(parts) == 4 and all(p.isdigit() for p in parts)


def names(table, ms=None):
    """Only these host names resolve, each look-up blocking `ms` (DNS_MS if None)."""
    global _names, DNS_MS, _host_socket
    import vsocket
    if _host_socket is None:
        _host_socket = sys.modules.get('socket')
    _names = dict(table)
    if ms is not None:
        DNS_MS = ms
    sys.modules['socket'] = vsocket


def _no_names():
    global _names, DNS_MS, _host_socket
    _names = None
    DNS_MS = 0
    del lookups[:]
    if _host_socket is not None:
        sys.modules['socket'] = _host_socket
        _host_socket = None


def _block(ms):
    if hasattr(time, 'sleep_ms'):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


def getaddrinfo(host, port, af=0, type=0, proto=0, flags=0):  # noqa: A002
    import vsocket
    if _dotted(host):
        return vsocket.host_getaddrinfo(host, port, af, type, proto, flags)
    lookups.append((_ms(), host))
    _block(DNS_MS)
    if not _up or _names is None or host not in _names:
        raise OSError(-2)
    return vsocket.host_getaddrinfo(_names[host], port, af, type, proto, flags)


def air(networks):
    global _air
    _air = dict(networks) if networks is not None else None


def drop():
    global _up
    _up = False
    sta = _ifaces.get(STA_IF)
    if sta is not None:
        sta._state = STAT_CONNECT_FAIL if sta._state == STAT_GOT_IP else sta._state


def restore():
    global _up
    _up = True


def link_up():
    return _up


def hostname(name=None):
    global _hostname
    if name is None:
        return _hostname
    _hostname = name


class _WLAN:
    def __init__(self, interface):
        self.interface = interface
        self._active = False
        self._state = STAT_IDLE
        self._since = 0
        self._ssid = None
        self._conf = {'essid': '', 'mac': bytes([0x28, 0xcd, 0xc1, 0x0a, 0xb1 + interface,
                                                 0x7e])}

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        if not on:
            self._state = STAT_IDLE

    def connect(self, ssid=None, key=None, **kw):
        if self.interface != STA_IF:
            raise OSError('connect on the access point')
        if not self._active:
            raise OSError('interface not active')
        attempts.append((_ms(), ssid))
        self._ssid = ssid
        self._since = _ms()
        if not _up or (_air is not None and ssid not in _air):
            self._state = STAT_NO_AP_FOUND
        elif _air is not None and _air[ssid] != (key or ''):
            self._state = STAT_WRONG_PASSWORD
        else:
            self._state = STAT_CONNECTING

    def disconnect(self):
        self._state = STAT_IDLE

    def status(self, param=None):
        if param is not None:
            return None
        if self._state == STAT_CONNECTING and _since(self._since) >= JOIN_MS:
            self._state = STAT_GOT_IP if _up else STAT_NO_AP_FOUND
        if self._state == STAT_GOT_IP and not _up:
            self._state = STAT_CONNECT_FAIL
        return self._state

    def isconnected(self):
        if self.interface == AP_IF:
            return self._active
        return self._active and self.status() == STAT_GOT_IP

    def ifconfig(self, conf=None):
        if self.interface == AP_IF:
            return ('192.168.4.1', '255.255.255.0', '192.168.4.1', '192.168.4.1')
        if self.isconnected():
            return ('127.0.0.1', '255.0.0.0', '127.0.0.1', '127.0.0.1')
        return ('0.0.0.0', '0.0.0.0', '0.0.0.0', '0.0.0.0')

    def config(self, *args, **kw):
        if args:
            key = args[0]
            if key in ('essid', 'ssid'):
                return self._ssid if self.interface == STA_IF else self._conf['essid']
            return self._conf.get(key)
        for k in kw:
            if k == 'ssid':
                self._conf['essid'] = kw[k]
            elif k not in ('password', 'key'):      # a secret is never kept where it shows
                self._conf[k] = kw[k]

    def scan(self):
        if not _up:
            return []
        names = list(_air) if _air is not None else []
        return [(n.encode(), b'\x00' * 6, 6, -50, 3, 0) for n in names]


def WLAN(interface=STA_IF):
    """One object per interface, as on the device."""
    w = _ifaces.get(interface)
    if w is None:
        w = _ifaces[interface] = _WLAN(interface)
    return w
