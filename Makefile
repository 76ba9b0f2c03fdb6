# Set-up and checks.  `make play` and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_ARGS ?= --edition classic --players 4

.PHONY: play test install lint typecheck pytest bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit("unokit needs Python 3.11 or newer" if sys.version_info < (3, 11) else 0)'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $@

install: $(VENV)/.installed

play: install
	$(BIN)/unokit play $(PLAY_ARGS)

lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/pytest -n 2

test: lint typecheck pytest

bench: install
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/vs_rlcard.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
