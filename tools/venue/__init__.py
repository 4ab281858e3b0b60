"""The venue service: every table of a bar on one MQTT broker, the games kept, a TV page.

`python -m venue --mqtt HOST:PORT --http HOST:PORT [--user U]` (from tools/), or `make venue`;
`python -m venue.broker` (`make venue-broker`) writes the bar's mosquitto configuration.
docs/venue.md says how to run both; docs/formats.md gives the formats.
"""
