# Set-up and checks.  `make play` (the web game) and `make test` are all a fresh machine needs.
# `make play` installs only what the web game needs (the `web` extra); `make test` adds every check's tools.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_ARGS ?= --edition classic --players 4
# `make play` serves on every interface, so that friends on the same network can open the invite link.
SERVE_ARGS ?= --host 0.0.0.0
# Training and its tests need only torch's CPU build, from PyTorch's CPU index (a local wheel where that index is unreachable).
TORCH ?= torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
# The browser tests drive Debian's Chromium (or the executable named by UNOKIT_CHROMIUM).
CHROMIUM := $(or $(UNOKIT_CHROMIUM),/usr/bin/chromium)
# The browser client (plain JavaScript modules) is type-checked by TypeScript and linted by ESLint, pinned by package-lock.json.
CLIENT := src/unokit/web/static

.PHONY: play play-cli test install chromium caddy services node client lint typecheck pytest bench clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit("unokit needs Python 3.11 or newer" if sys.version_info < (3, 11) else 0)'
	$(PYTHON) -m venv $(VENV)

# The game alone: the web server's few packages (no compiler, no test tools).
$(VENV)/.installed-web: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[web]'
	@touch $@

# The terminal game alone: the full-screen table and `unokit join` (the `terminal` extra).
$(VENV)/.installed-terminal: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[terminal]'
	@touch $@

# Everything the checks use.
$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet '$(TORCH)' --extra-index-url $(TORCH_INDEX)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m unokit.fast  # compiles the compiled engine into numba's cache once (minutes; says each part's seconds)
	@touch $@ $(VENV)/.installed-web $(VENV)/.installed-terminal

install: $(VENV)/.installed

play: $(VENV)/.installed-web
	$(BIN)/unokit serve $(SERVE_ARGS)  # prints the addresses to open and to share

play-cli: $(VENV)/.installed-terminal
	$(BIN)/unokit play $(PLAY_ARGS)

lint: install
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

typecheck: install
	$(BIN)/mypy

# The colour emoji font draws the chat's quick reactions in the screenshots the browser tests save.
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ -z "$(UNOKIT_CHROMIUM)" ] && [ "$$(id -u)" = 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-color-emoji; \
	  else \
	    echo "The browser tests need Chromium at $(CHROMIUM): install Debian's package as root" \
	      "(apt-get install chromium) or set UNOKIT_CHROMIUM to a Chromium executable." >&2; \
	    exit 1; \
	  fi; \
	elif [ "$$(id -u)" = 0 ] && ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1; then \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-color-emoji \
	    || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y fonts-noto-color-emoji); \
	fi

# The deployment tests validate deploy/Caddyfile with Caddy itself (Debian's caddy).
caddy:
	@if ! command -v caddy >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y caddy \
	      || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y caddy); \
	  else \
	    echo "The deployment tests validate deploy/Caddyfile with Caddy: install Debian's package as root" \
	      "(apt-get install caddy); without it they say so and skip that check." >&2; \
	  fi; \
	fi

# The storage and cluster tests start their own PostgreSQL and Redis servers (Debian's packages) on loopback.
services:
	@if ! command -v redis-server >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql redis-server \
	      || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql redis-server); \
	  else \
	    echo "The storage and cluster tests need PostgreSQL and Redis servers: install Debian's packages as root" \
	      "(apt-get install postgresql redis-server)." >&2; \
	    exit 1; \
	  fi; \
	fi

node:
	@if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm; \
	  else \
	    echo "The client checks need Node.js and npm: install Debian's packages as root" \
	      "(apt-get install nodejs npm)." >&2; \
	    exit 1; \
	  fi; \
	fi

node_modules/.installed: package.json package-lock.json | node
	npm ci --no-audit --no-fund
	@touch $@

# Type-check (tsc, strict, on the JSDoc types) and lint (ESLint) the browser client.
client: node_modules/.installed
	npx tsc -p .
	npx eslint $(CLIENT)

# The compiled engine is compiled into numba's cache (again only after an edit of unokit/fast) before the test workers load it.
pytest: install chromium caddy services
	$(BIN)/python -m unokit.fast
	$(BIN)/pytest -n 2

test: lint typecheck client pytest

bench: install
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/vs_rlcard.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache node_modules
