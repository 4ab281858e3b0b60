# Shuffleboard scoreboard. `make sim` and `make test` are the two commands a newcomer needs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BOARD ?= pico_tm1637

.PHONY: test sim bench fuzz lint mpy deploy clean

$(STAMP): requirements.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	touch $(STAMP)

venv: $(STAMP)

clean:
	rm -rf build .pytest_cache .hypothesis
