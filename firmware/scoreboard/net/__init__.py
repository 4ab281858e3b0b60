# The network part of a Wi-Fi board (DESIGN section 10), loaded only when the board file says
# NETWORK = 'wlan': wifi (join the bar's network or open the access point), pairing (PIN and
# tokens), web (the phone remote's HTTP API on microdot), page (the phone page), run (the asyncio
# runner that steps the App and runs the network beside it). The scoring never waits for any of it.
