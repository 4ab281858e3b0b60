# The virtual board's `socket`: the host's sockets, with `getaddrinfo` the stand-in network's
# (tools/virtual/network.py), which blocks for a host name as lwip's does on the chip.
# network.names() puts this module in sys.modules['socket']; network.reset() takes it out.
from socket import *  # noqa: F401,F403  (the host's sockets)
from socket import getaddrinfo as host_getaddrinfo  # noqa: F401

import network as _net


def getaddrinfo(host, port, af=0, type=0, proto=0, flags=0):  # noqa: A002
    return _net.getaddrinfo(host, port, af, type, proto, flags)
