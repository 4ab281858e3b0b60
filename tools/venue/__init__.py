"""The venue service: every table of a bar on one MQTT broker, the games kept, a TV page.

`python -m venue --mqtt HOST:PORT --http HOST:PORT [--user U]` (from tools/), or `make venue`;
`python -m venue.broker` (`make venue-broker`) writes the bar's mosquitto configuration.
docs/venue.md says how to run both; docs/formats.md gives the formats.
"""
import sys as _sys

# The games the service accepts are the firmware's (scoreboard.catalogue): firmware/ on the path
# however the service was started (`make venue` sets PYTHONPATH=tools only). Under MicroPython
# (the virtual boards of the tests import venue's parts) the runner has put it there already.
try:
    from os import path as _path
except ImportError:
    _path = None
if _path is not None:
    _FIRMWARE = _path.join(_path.dirname(_path.dirname(_path.dirname(
        _path.abspath(__file__)))), 'firmware')
    if _FIRMWARE not in _sys.path:
        _sys.path.append(_FIRMWARE)
