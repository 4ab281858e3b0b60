# Freezes the scoreboard firmware into a custom MicroPython build, e.g. for a Pico:
#
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/this/repo/manifest.py
#
# `package()` takes every module under firmware/scoreboard/, so a new module is frozen without
# editing this file. main.py is deliberately not frozen: a frozen main.py would run instead of
# the one on the flash, so nobody could replace it without a new build. Put main.py and the
# board description on the flash as `make deploy` does:
#   mpremote cp firmware/main.py :main.py + cp boards/<name>.py :board.py
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
