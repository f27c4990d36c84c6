# Two commands do all the set-up on a fresh machine:
#   make sim    set up, then play a simulated game of Egyptian Rat Screw in the terminal
#   make test   set up, then run the whole test suite (and the linter); make check: its fast part
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SIM_ARGS ?= --game ers --players 4 --seed 1
# On a Raspberry Pi, `make PI=1 ...` makes the venv with --system-site-packages (picamera2 and
# lgpio come from apt) and adds what picamera2 then needs; a venv made so already stays so.
SYSTEM_VENV := $(shell grep -qs '^include-system-site-packages = true' $(VENV)/pyvenv.cfg && echo 1)
ifeq ($(or $(PI),$(SYSTEM_VENV)),1)
VENV_FLAGS := --system-site-packages
EXTRAS := dev,pi
else
VENV_FLAGS :=
EXTRAS := dev
endif

# MicroPython compiled to WebAssembly, under Node: the firmware's tests run the board's own code
# in it (tests/firmware_bridge/test_protocol.py). Fetched here, so that the tests themselves need no network.
MICROPYTHON := .cache/micropython
MICROPYTHON_PACKAGE := @micropython/micropython-webassembly-pyscript@1.27.0

.PHONY: setup system sim test check bench lint clean
setup: $(VENV)/.installed

# What the tests need besides Python: Mosquitto (a real broker for the MQTT tests), Node (the
# MicroPython protocol test), systemd-analyze (the service unit's check) and Chromium (the
# dashboard page's test, headless). Installed with apt
# when missing and run as root; else named.
system:
	@missing=""; \
	{ command -v mosquitto || test -x /usr/sbin/mosquitto; } >/dev/null 2>&1 || missing="$$missing mosquitto"; \
	{ command -v node && command -v npm; } >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	command -v systemd-analyze >/dev/null 2>&1 || missing="$$missing systemd"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else echo "the tests need:$$missing (sudo apt-get install$$missing)"; exit 1; fi; \
	fi

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $@

sim: setup
	$(BIN)/cardtable sim $(SIM_ARGS)

$(MICROPYTHON)/.installed: | system
	npm install --silent --prefix $(MICROPYTHON) $(MICROPYTHON_PACKAGE)
	touch $@

test: setup system $(MICROPYTHON)/.installed
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n auto

# The fast part of the tests, while working: no whole games, rendered tables or photographs
# (slow), and no outside programs (system). make test runs everything.
check: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n auto -m "not slow and not system"

bench: setup
	$(BIN)/python -m benchmarks

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .cache
