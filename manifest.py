# Freezes the scoreboard firmware into a custom MicroPython build, e.g. for a Pico:
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/this/repo/manifest.py
#
# `package()` takes every module under firmware/scoreboard/, so a new module is frozen without
# editing this file. main.py is deliberately not frozen: a frozen main.py would run instead of
# the one on the flash, so nobody could replace it without a new build. Put main.py and the
# board description on the flash as `make deploy` does:
#   mpremote cp firmware/main.py :main.py + cp boards/<name>.py :board.py
# The phone page's text, firmware/scoreboard/net/page.html, is no module and cannot be frozen:
# a Wi-Fi board's firmware reads it from the flash (scoreboard/net/page.py), so put it there,
# in /lib/scoreboard/net/ (make the folders that are missing):
#   mpremote mkdir :lib + mkdir :lib/scoreboard + mkdir :lib/scoreboard/net +
#     cp firmware/scoreboard/net/page.html :lib/scoreboard/net/page.html
# Not in /scoreboard/net/ as `make deploy` does (it puts the whole package there, as .mpy): a
# folder /scoreboard comes before the frozen modules on sys.path and hides the frozen package.
# Without the file the board plays on and its phone page answers 500 'page file missing'.
# The port's own modules (machine, neopixel, framebuf ...) come from its default manifest.
include("$(PORT_DIR)/boards/manifest.py")

metadata(
    description="Electronic scoreboard for table shuffleboard: rules, buttons, displays.",
    version="0.1.0",
)

package("scoreboard", base_path="firmware", opt=3)
# The phone remote's web framework, vendored from PyPI (microdot==2.7.0, MIT, firmware/lib/microdot
# unchanged): frozen as the package `microdot`, as `mip` would install it into /lib.
package("microdot", base_path="firmware/lib", opt=3)
