"""A small MQTT 3.1.1 publisher on asyncio streams, for MicroPython and CPython alike.

Why not a library: micropython-lib's umqtt.simple/robust block in connect, publish and wait_msg
(a broker that stops answering stalls the caller), and peterhinch's mqtt_as owns the Wi-Fi
interface (it imports `network` and drives the WLAN itself), so it neither runs on the unix port
nor leaves the link to the rest of the firmware. The board publishes (CONNECT with a last will,
PUBLISH at QoS 0 and 1, PUBACK, PINGREQ, DISCONNECT) and subscribes to one topic (its table's
`match`, DESIGN section 13): SUBSCRIBE at QoS 1, and each incoming PUBLISH acknowledged (PUBACK at
QoS 1) and handed to `on_message(topic, payload)`. What comes in is bounded: a payload over
`max_payload` or a topic over MAX_TOPIC is read past in small pieces (never held whole) and
counted in `refused`; any other packet over MAX_OTHER, or a malformed one, ends the link. Every
wait is an `await` with a timeout, so the scoring loop, another task, never waits on the network.
"""

import asyncio

from ..ticks import diff as ticks_diff
from ..ticks import reader

ticks_ms = reader()     # the firmware's one clock (scoreboard/ticks.py), masked


CONNECT = 0x10
CONNACK = 0x20
PUBLISH = 0x30
PUBACK = 0x40
PINGREQ = 0xC0
PINGRESP = 0xD0
DISCONNECT = 0xE0
SUBSCRIBE = 0x82
SUBACK = 0x90

MAX_TOPIC = 128      # bytes of an incoming topic kept; a longer one is read past and refused
MAX_PAYLOAD = 1024   # bytes of an incoming payload kept (the default of max_payload)
MAX_OTHER = 64       # any packet but PUBLISH is a few bytes; more is a broken broker
_CHUNK = 64          # what is read at once while skipping a refused payload

REFUSED = {1: 'bad protocol', 2: 'client id refused', 3: 'server unavailable',
           4: 'bad user or password', 5: 'not authorised'}


def _str(s):
    b = s.encode() if isinstance(s, str) else bytes(s)
    return bytes((len(b) >> 8, len(b) & 0xFF)) + b


def _packet(head, body):
    n = len(body)
    out = bytearray((head,))
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | 0x80 if n else byte)
        if not n:
            break
    return bytes(out) + body


def connect_packet(client_id, keepalive, user=None, password=None, will=None, clean=True):
    """CONNECT. `will` is (topic, message, retain, qos) or None."""
    flags = 0x02 if clean else 0
    payload = _str(client_id)
    if will:
        topic, msg, retain, qos = will
        flags |= 0x04 | (qos << 3) | (0x20 if retain else 0)
        payload += _str(topic) + _str(msg)
    if user is not None:
        flags |= 0x80
        payload += _str(user)
        if password is not None:
            flags |= 0x40
            payload += _str(password)
    head = _str('MQTT') + bytes((4, flags, keepalive >> 8, keepalive & 0xFF))
    return _packet(CONNECT, head + payload)


def publish_packet(topic, payload, retain=False, qos=0, pid=0, dup=False):
    if isinstance(payload, str):
        payload = payload.encode()
    head = PUBLISH | (qos << 1) | (0x01 if retain else 0) | (0x08 if dup else 0)
    body = _str(topic)
    if qos:
        body += bytes((pid >> 8, pid & 0xFF))
    return _packet(head, body + payload)


def subscribe_packet(pid, topic, qos=1):
    return _packet(SUBSCRIBE, bytes((pid >> 8, pid & 0xFF)) + _str(topic) + bytes((qos,)))


class MQTTError(OSError):
    pass


class MQTTClient:
    """One connection at a time: `await connect()`, then `await publish(...)` until it raises
    (OSError: the link is gone) or `connected` turns False; then connect again."""

    def __init__(self, client_id, host, port=1883, user=None, password=None, keepalive=60,
                 will=None, timeout=5):
        self.client_id = client_id
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.keepalive = keepalive
        self.will = will
        self.timeout = timeout
        self.connected = False
        self._r = None
        self._w = None
        self._reader = None
        self._pid = 0
        self._acks = {}  # pid -> Event, waiting for PUBACK
        self._connack = None
        self._rc = None
        self._rx = 0     # ticks of the last packet received
        self._tx = 0     # ticks of the last packet sent
        self._granted = {}   # pid -> the SUBACK's return code
        self.on_message = None   # on_message(topic str, payload bytes) for each PUBLISH in
        self.max_payload = MAX_PAYLOAD
        self.received = 0    # PUBLISH packets handed to on_message
        self.refused = 0     # PUBLISH packets read past: too large, bad topic, QoS 2, a raise

    async def connect(self):
        self.close()
        r, w = await asyncio.wait_for(asyncio.open_connection(self.host, self.port), self.timeout)
        self._r, self._w = r, w
        self._connack = asyncio.Event()
        self._rc = None
        self._reader = asyncio.create_task(self._read_loop())
        try:
            await self._send(connect_packet(self.client_id, self.keepalive, self.user,
                                            self.password, self.will))
            await asyncio.wait_for(self._connack.wait(), self.timeout)
        except Exception:
            self.close()
            raise
        if self._rc is None:
            self.close()
            raise MQTTError('link lost')
        if self._rc != 0:
            rc = self._rc
            self.close()
            raise MQTTError('refused: %s' % REFUSED.get(rc, rc))
        self.connected = True
        self._rx = ticks_ms()

    async def _send(self, data):
        if self._w is None:
            raise MQTTError('not connected')
        self._w.write(data)
        await asyncio.wait_for(self._w.drain(), self.timeout)
        self._tx = ticks_ms()

    async def publish(self, topic, payload, retain=False, qos=0):
        """QoS 0: returns once written. QoS 1: returns once the broker acknowledged; raises
        OSError (asyncio's TimeoutError included) when it did not, and then the link is closed,
        since a broker that drops an acknowledgement is not one to go on with."""
        if not self.connected:
            raise MQTTError('not connected')
        if not qos:
            try:
                await self._send(publish_packet(topic, payload, retain))
            except Exception:
                self.close()
                raise
            return
        pid = self._next_pid()
        ev = asyncio.Event()
        self._acks[pid] = ev
        try:
            await self._send(publish_packet(topic, payload, retain, 1, pid))
            await asyncio.wait_for(ev.wait(), self.timeout)
        except Exception:
            self.close()
            raise
        finally:
            self._acks.pop(pid, None)
        if not self.connected:
            raise MQTTError('link lost')

    def _next_pid(self):
        self._pid = self._pid % 65535 + 1
        return self._pid

    async def subscribe(self, topic, qos=1):
        """SUBSCRIBE to one topic; returns once the broker granted it (its QoS), raises
        MQTTError when it refused (0x80) and OSError when it did not answer in time (the link is
        then closed, as for a PUBACK that never came)."""
        if not self.connected:
            raise MQTTError('not connected')
        pid = self._next_pid()
        ev = asyncio.Event()
        self._acks[pid] = ev
        try:
            await self._send(subscribe_packet(pid, topic, qos))
            await asyncio.wait_for(ev.wait(), self.timeout)
        except Exception:
            self.close()
            raise
        finally:
            self._acks.pop(pid, None)
        rc = self._granted.pop(pid, None)
        if not self.connected or rc is None:
            raise MQTTError('link lost')
        if rc & 0x80:
            raise MQTTError('subscribe refused')
        return rc

    async def keep_alive(self):
        """Call now and then: pings when nothing was sent for half the keepalive, and drops a
        link that has received nothing for 1.5 keepalives (a broker gone without a FIN)."""
        if not self.connected:
            return
        now = ticks_ms()
        if ticks_diff(now, self._rx) > self.keepalive * 1500:
            self.close()
            return
        if ticks_diff(now, self._tx) > self.keepalive * 500:
            try:
                await self._send(bytes((PINGREQ, 0)))
            except Exception:
                self.close()

    async def disconnect(self):
        if self.connected:
            try:
                await self._send(bytes((DISCONNECT, 0)))
            except Exception:
                pass
        self.close()

    async def _read_loop(self):
        try:
            while True:
                head = (await self._r.readexactly(1))[0]
                n = 0
                shift = 0
                while True:
                    b = (await self._r.readexactly(1))[0]
                    n |= (b & 0x7F) << shift
                    shift += 7
                    if not b & 0x80:
                        break
                    if shift > 21:
                        raise MQTTError('bad length')
                kind = head & 0xF0
                if kind == PUBLISH:
                    await self._incoming(head, n)
                    self._rx = ticks_ms()
                    continue
                if n > MAX_OTHER:
                    raise MQTTError('packet too large')
                body = await self._r.readexactly(n) if n else b''
                self._rx = ticks_ms()
                if kind == SUBACK and len(body) == 3:
                    pid = body[0] << 8 | body[1]
                    ev = self._acks.get(pid)
                    if ev:
                        self._granted[pid] = body[2]
                        ev.set()
                elif kind == CONNACK and len(body) == 2:
                    self._rc = body[1]
                    self._connack.set()
                elif kind == PUBACK and len(body) == 2:
                    ev = self._acks.get(body[0] << 8 | body[1])
                    if ev:
                        ev.set()
                # PINGRESP only refreshes _rx.
        except Exception:  # EOF, reset, or a broken packet: the link is gone
            pass
        self._reader = None   # this task ends here; close() must not cancel it
        self.close()

    async def _skip(self, n):
        while n > 0:
            k = n if n < _CHUNK else _CHUNK
            await self._r.readexactly(k)
            n -= k

    async def _incoming(self, head, n):
        # One PUBLISH of remaining length n: the topic and packet id first, then the payload,
        # kept only when within bounds. QoS 1 is acknowledged whether kept or not (a refused
        # message must not come back for ever); QoS 2 is never granted, so it is refused.
        qos = (head >> 1) & 3
        if qos == 3 or n < 2:
            raise MQTTError('bad publish')
        b = await self._r.readexactly(2)
        tlen = b[0] << 8 | b[1]
        need = 2 + tlen + (2 if qos else 0)
        if need > n:
            raise MQTTError('bad publish')
        topic = None
        if tlen <= MAX_TOPIC:
            topic = await self._r.readexactly(tlen)
        else:
            await self._skip(tlen)
        pid = 0
        if qos:
            b = await self._r.readexactly(2)
            pid = b[0] << 8 | b[1]
        size = n - need
        payload = None
        if size <= self.max_payload:
            payload = await self._r.readexactly(size) if size else b''
        else:
            await self._skip(size)
        if qos == 1:
            await self._send(bytes((PUBACK, 2, pid >> 8, pid & 0xFF)))
        fn = self.on_message
        if topic is None or payload is None or qos == 2 or fn is None:
            self.refused += 1
            return
        try:
            name = topic.decode()
        except Exception:   # not UTF-8
            self.refused += 1
            return
        try:
            fn(name, payload)
            self.received += 1
        except Exception:   # the receiver's bug is not the link's end
            self.refused += 1

    def close(self):
        self.connected = False
        w = self._w
        self._w = self._r = None
        if w is not None:
            try:
                w.close()
            except Exception:
                pass
        t = self._reader
        self._reader = None
        if t is not None:
            try:
                t.cancel()
            except Exception:
                pass
        for ev in self._acks.values():   # wake the waiting publishers: they see not connected
            ev.set()
        if self._connack is not None:
            self._connack.set()
