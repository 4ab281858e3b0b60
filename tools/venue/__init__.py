"""The venue service: every table of a bar on one MQTT broker, the games kept, a TV page.

`python -m venue --mqtt HOST:PORT --http HOST:PORT` (from tools/), or `make venue`.
"""
