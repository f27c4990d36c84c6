# Two commands do all the set-up on a fresh machine:
#   make sim    set up, then play a simulated game of Egyptian Rat Screw in the terminal
#   make test   set up, then run the whole test suite (and the linter)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SIM_ARGS ?= --game ers --players 4 --seed 1

.PHONY: setup sim test bench lint clean
setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

sim: setup
	$(BIN)/cardtable sim $(SIM_ARGS)

test: setup
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python -m benchmarks

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
