# Shuffleboard scoreboard. `make sim` and `make test` are the two commands a newcomer needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BOARD ?= pico_tm1637

.PHONY: help test test-cpython test-micropython compile-check sim bench fuzz lint mpy deploy clean \
	pictures vboard venue venue-demo bench-venue venue-broker package ota

# `make` alone lists the commands.
help:
	@echo "make sim      the firmware on a virtual board in this terminal (BOARD=name)"
	@echo "              a Wi-Fi board's phone remote too: BOARD=pico_w_tm1637 HTTP=8080"
	@echo "make test     every test, under CPython and the MicroPython unix port"
	@echo "make deploy   compile and copy to a board with mpremote (BOARD=name PORT=...)"
	@echo "              a Wi-Fi board's net.json too: WIFI_SSID=... WIFI_PASSWORD=... MQTT=host:port,table=T"
	@echo "make vboard   a virtual board on a pty, to deploy to"
	@echo "make bench    the budgets: heap, allocation, latency, saves, flash wear"
	@echo "make fuzz     the long hypothesis runs and power-cut sweeps"
	@echo "make lint     ruff, and mypy against the rp2 and esp32 stubs"
	@echo "make pictures the display and wiring pictures, from the virtual chips and board files"
	@echo "make mpy      compile firmware/ into build/"
	@echo "make venue    the venue service: MQTT=host:port HTTP=host:port (VENUE_DB=file)"
	@echo "              with a broker user: MQTT_USER=name, MQTT_PASSWORD in the environment"
	@echo "make venue-broker  mosquitto.conf, passwords and ACL: VENUE=name TABLES=N (DIR=folder)"
	@echo "make venue-demo  a tournament night: mosquitto, the service, three simulated boards,"
	@echo "              six players in a round robin played to the end by scripted phones"
	@echo "make bench-venue the venue service at scale (needs mosquitto)"
	@echo "make clean    remove build outputs"

$(STAMP): requirements.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	touch $(STAMP)

venv: $(STAMP)

# The whole suite: every device file through mpy-cross, then, side by side, the host tests
# under CPython (pytest, on WORKERS processes: pytest-xdist, a file's tests together on one)
# and the portable ones under the real MicroPython unix port; each prints its count when it
# ends (make's --output-sync keeps the two apart). The CPython tests mostly wait (on
# subprocesses, sockets, the browser), so the port's run fits beside them. Within `make test`
# the few CPython tests that only start the port on a portable file skip it (MP_SUITE=1): the
# port's own run covers those files.
WORKERS ?= 2
test: compile-check
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-cpython test-micropython MP_SUITE=1

compile-check: $(STAMP)
	@$(BIN)/python tools/compile_check.py

test-cpython: $(STAMP)
	@echo "== CPython $$($(BIN)/python -c 'import platform; print(platform.python_version())'): pytest host_tests ($(WORKERS) workers)"
	MP_SUITE=$(MP_SUITE) $(BIN)/pytest -q -rR -p no:cacheprovider -n $(WORKERS) --dist loadfile host_tests

test-micropython: $(STAMP)
	@echo "== MicroPython unix port: the portable tests (files marked '# runs-on: micropython')"
	@# An explicit heap: the power-cut sweeps hold several 64-80 KB flash images, and the
	@# default (2 MB) left too little margin once fragmented. The firmware's own heap budget
	@# is measured by `make bench`, not here.
	$(BIN)/micropython -X heapsize=8M host_tests/mp_run.py

# The firmware on a virtual board in this terminal (BOARD=name picks the board). On a Wi-Fi
# board, HTTP=PORT (or HOST:PORT) also serves the phone remote: open http://127.0.0.1:PORT/.
# (HTTP given on the command line only: its default below is the venue service's.)
sim: $(STAMP)
	@$(BIN)/python tools/sim.py --board $(BOARD) $(if $(filter command line environment,$(origin HTTP)),--http $(HTTP)) $(if $(FLASH),--flash $(FLASH))

# Long runs of the property tests and power-cut sweeps (a short seeded run is inside `make test`).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz SWEEP=long $(BIN)/pytest -q -rR -p no:cacheprovider -n $(WORKERS) --dist loadfile host_tests
	SWEEP=long $(BIN)/micropython -X heapsize=8M host_tests/mp_run.py

# The README's pictures: every board's display at the sample game, drawn from the virtual chips;
# every board's wiring picture and its build page's pin table, drawn from the board file as built
# on the virtual board (tools/wiring.py).
PICTURES ?= docs/pictures
pictures: $(STAMP)
	$(BIN)/python tools/render.py --pictures $(PICTURES)
	$(BIN)/python tools/wiring.py --pictures $(PICTURES) --pages

bench: $(STAMP)
	@$(BIN)/python tools/bench.py

clean:
	rm -rf build .pytest_cache .hypothesis

# -- Flash it (tools/deploy.py, tools/vboard.py) ------------------------------------------------
# `make mpy`: firmware/ -> build/ (main.py as source, the package as .mpy).
# `make deploy BOARD=name [PORT=/dev/ttyACM0]`: build, copy what changed with mpremote, reset.
# `make vboard`: a virtual board on a pty (prints /dev/pts/N); deploy to it with PORT=.
DEPLOY_FLAGS ?=
VBOARD_FLAGS ?=
# `make deploy BOARD=pico_w_... WIFI_SSID=... WIFI_PASSWORD=... MQTT=host:port[,venue=V,table=T]`
# also writes the board's net.json (tools/deploy.py). The settings reach deploy.py through its
# environment only (never its command line), exactly as typed: make would expand a `$` in them.
NET_VARS := WIFI_SSID WIFI_PASSWORD WIFI_HOSTNAME MQTT MQTT_PASSWORD
$(foreach v,$(NET_VARS),$(if $(filter command line,$(origin $(v))),\
  $(eval override $(v) := $$(value $(v)))$(eval export $(v))))

mpy: $(STAMP)
	@$(BIN)/python tools/deploy.py mpy

deploy: $(STAMP)
	@$(BIN)/python tools/deploy.py deploy --board $(BOARD) $(if $(PORT),--port $(PORT)) $(DEPLOY_FLAGS)

vboard: $(STAMP)
	@$(BIN)/python tools/vboard.py $(VBOARD_FLAGS)

# `make lint`: ruff, then mypy on firmware/ and boards/ against the MicroPython stubs of each
# target port. The rp2 and esp32 stub packages both provide `machine`, so each has its own folder.
STUBS := $(VENV)/stubs
STUBS_VERSION := 1.29.0.post1
STUBLIB_VERSION := 1.29.0.post2
STUBS_STAMP := $(STUBS)/.installed-$(STUBS_VERSION)

$(STUBS_STAMP): $(STAMP)
	@for port in rp2 esp32; do \
	  rm -rf $(STUBS)/$$port; \
	  $(BIN)/pip install --quiet --no-deps --target $(STUBS)/$$port \
	    micropython-$$port-stubs==$(STUBS_VERSION) \
	    micropython-stdlib-stubs==$(STUBLIB_VERSION) || exit 1; \
	done
	@touch $@

# Both checks always run; the target fails if either found something.
lint: $(STAMP) $(STUBS_STAMP)
	@status=0; \
	echo "ruff check ."; $(BIN)/ruff check . || status=1; \
	for port in rp2 esp32; do \
	  echo "mypy, $$port stubs: firmware/ boards/"; \
	  MYPYPATH=$(STUBS)/$$port $(BIN)/mypy --config-file mypy.ini \
	    --custom-typeshed-dir $(STUBS)/$$port --cache-dir $(VENV)/mypy_cache/$$port \
	    firmware $(wildcard boards/*.py) || status=1; \
	done; \
	exit $$status

# -- The venue (DESIGN section 10): every table on one MQTT broker, a TV page, a leaderboard ----
# `make venue`: the service on a running broker. `make venue-demo`: its own mosquitto, three
# tables (tools/sim.py Wi-Fi boards: the firmware, its net.json pointing at that broker) and the
# service; it prints the TV page's address and each board's phone page.
MQTT ?= 127.0.0.1:1883
HTTP ?= 127.0.0.1:8000
VENUE_DB ?= venue.sqlite

venue: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m venue --mqtt $(MQTT) --http $(HTTP) --db $(VENUE_DB) $(if $(MQTT_USER),--user $(MQTT_USER)) $(if $(VENUE),--venue $(VENUE))

# `make venue-broker VENUE=name TABLES=N [DIR=folder]`: mosquitto.conf, passwd and acl for the
# bar (tools/venue/broker.py); each new password printed once, the ones made before kept.
venue-broker: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m venue.broker --venue "$(VENUE)" --tables "$(TABLES)" --dir "$(or $(DIR),build/broker)" $(if $(BROKER_PORT),--port $(BROKER_PORT))

venue-demo: $(STAMP)
	PYTHONPATH=tools $(BIN)/python -m venue.night_demo --http $(HTTP)

# The venue at scale: many tables on one broker, the rate the service keeps, its lag and memory.
bench-venue: $(STAMP)
	$(BIN)/python tools/bench_venue.py

# `make lint-onboard`: mypy, against each port's stubs, on the files of tools/onboard/ that run
# on a board or the unix port with only the firmware and the port (the others drive the virtual
# board, host code): ruff and mpy-cross (`make lint`, `make compile-check`) see them all.
ONBOARD_TYPED := $(addprefix tools/onboard/,deploy_state.py core_knockoff_100.py \
	core_shove_game.py core_per_frame.py app_code_files.py app_code_romfs.py)

.PHONY: lint-onboard
lint-onboard: $(STAMP) $(STUBS_STAMP)
	@status=0; \
	for port in rp2 esp32; do \
	  echo "mypy, $$port stubs: tools/onboard"; \
	  MYPYPATH=$(STUBS)/$$port $(BIN)/mypy --config-file mypy.ini \
	    --custom-typeshed-dir $(STUBS)/$$port --cache-dir $(VENV)/mypy_cache/$$port \
	    $(ONBOARD_TYPED) || status=1; \
	done; \
	exit $$status

# -- Updates (DESIGN section 12; docs/flashing.md) -----------------------------------------------
# `make package`: build/package/ (the .mpy files, the loader, the board files, manifest.json
# signed with the update key in ~/.config/scoreboard/update.key, package.json for mip, and
# update.bin for an update over Wi-Fi). `make ota HOST=ip[:port] TOKEN=...`: send it to a board.
package: $(STAMP)
	@$(BIN)/python tools/package.py package

ota: $(STAMP)
	@$(BIN)/python tools/package.py ota --host $(HOST) $(if $(TOKEN),--token $(TOKEN))

# The soak alone (also part of `make bench`): 100 games of 100 frames on pico_tm1637, the live
# heap read after each bank (tools/bench_soak.py; GAMES and FRAMES as arguments there).
.PHONY: bench-soak
bench-soak: $(STAMP)
	$(BIN)/python tools/bench_soak.py
