# Freezes the scoreboard firmware into a custom MicroPython build, e.g. for a Pico W:
#
#   make -C ports/rp2 BOARD=RPI_PICO_W FROZEN_MANIFEST=/path/to/this/repo/manifest.py
#
# (BOARD=RPI_PICO, RPI_PICO2, ESP32_GENERIC ... the same way.) The image then holds what the
# board's stock image holds (see the include below) and the scoreboard package, compiled.
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
metadata(
    description="Electronic scoreboard for table shuffleboard: rules, buttons, displays.",
    version="0.1.0",
    license="MIT",
)

# What the stock image of the board has stays in: MicroPython's manifest docs say a manifest
# that adds modules to an existing board includes the board's manifest, which includes the
# port's (machine's helpers, neopixel, onewire ...) and adds the board's own: on a Pico W
# (RPI_PICO_W) `mip`, `requests`, `aioble`, the networking bundle. Boards whose stock image is
# the port's alone have no manifest.py of their own (RPI_PICO, ESP32_GENERIC): for them, and
# only when that file is missing, the port's manifest is included instead. Any other error in
# the board's manifest stops the build, as it should.
try:
    include("$(BOARD_DIR)/manifest.py")
except Exception as e:  # makemanifest's ManifestFileError, whose name a manifest cannot see
    # "Error in manifest file: P: [Errno 2] No such file or directory: 'P'", P the board's file
    msg = str(e)
    head = "Error in manifest file: "
    path = msg[len(head):].split(": [Errno 2] ", 1)[0]
    if not (msg.startswith(head) and msg.endswith(": [Errno 2] No such file or directory: '%s'"
                                                  % path)):
        raise
    include("$(PORT_DIR)/boards/manifest.py")

package("scoreboard", base_path="firmware", opt=3)
# The phone remote's web framework, vendored from PyPI (microdot==2.7.0, MIT, firmware/lib/microdot
# unchanged): frozen as the package `microdot`, as `mip` would install it into /lib.
package("microdot", base_path="firmware/lib", opt=3)
