# Two commands on a fresh machine: `make play` and `make test`. Each sets up what it needs.

# The Python the venv is made from: the system's own Python 3 (/usr/bin/python3) when it is 3.10 or newer and
# can make a venv, else python3 on PATH (`make PYTHON=python3.12 ...` chooses; an existing .venv is kept until
# `make clean`). A distribution builds its CPython with profile-guided and link-time optimisation into one
# executable; pyenv's default build, first on PATH on this project's machines, has neither and calls into a
# shared libpython: the whole suite took about 15 % more CPU on it (docs/develop.md, *Tests*).
SYSTEM_PYTHON := /usr/bin/python3
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 10))' \
            >/dev/null 2>&1 && echo $(SYSTEM_PYTHON) || echo python3)
endif
VENV   := .venv
PY     := $(VENV)/bin/python
COMPILED := $(VENV)/.compiled
ARGS   ?=

# The fast tests: the rules on their own (game transcripts, milliseconds each), on two workers and without
# the screenshot plugin (it imports Textual, which the rules never do): `make check` runs them after the
# linters. `make test` runs the linters, then every test but the `slow` ones in one run on six workers (on two
# cores: many tests wait on processes, servers and timers, and the other workers use that time; an idle worker
# takes tests queued for a busy one). On 2 cores six kept the machine 98 % busy, four 87 % (docs/develop.md).
WORKERS ?= 6
FAST   := tests/domain

.PHONY: play lint check test test-all test-floor serve bench clean postgresql-server

# The tests start many Python processes (servers, sessions, workers): let them keep compiled bytecode
# (`__pycache__/`, ignored by git) even where the environment turns that off.
lint check test test-all $(COMPILED): export PYTHONDONTWRITEBYTECODE :=

play: $(VENV)/.installed
	$(VENV)/bin/wom-tui $(ARGS)

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check wom_tui tests bench docs
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

check: lint
	$(PY) -m pytest -q -n 2 -p no:textual-snapshot $(FAST)

test: lint postgresql-server $(COMPILED)
	$(PY) -m pytest -n $(WORKERS) --dist worksteal -m "not slow" $(PYTEST_ARGS)

# Everything `make test` runs, and the long proofs it leaves out (marked `slow`: the solver's whole tables).
test-all: lint postgresql-server $(COMPILED)
	$(PY) -m pytest -n $(WORKERS) --dist worksteal $(PYTEST_ARGS)

# The package, the benches and the tests compiled once before the workers start (the tests with their asserts
# rewritten: pytest's own bytecode), again only after a source changed. Else, on a first run, each of the six
# workers and the processes they start compiled all of it at once (about 2 CPU-seconds a worker); errors are
# left to the run that follows, which reports them.
$(COMPILED): $(VENV)/.installed-test $(shell find wom_tui tests bench -name '*.py' 2>/dev/null)
	$(PY) -m compileall -q wom_tui bench tests >/dev/null || true
	$(PY) -m pytest --collect-only -qq -p no:cacheprovider >/dev/null 2>&1 || true
	@touch $@

# The lowest versions pyproject.toml allows for what it names (uv's lowest-direct resolution; what they
# pull in comes at its newest), in a venv of their own, and the whole suite on them: a floor that no
# longer works, or that admits a release with a known hole, fails here rather than on a user's machine.
FLOOR  := .venv-floor

test-floor: postgresql-server
	rm -rf $(FLOOR)
	$(PYTHON) -m venv $(FLOOR)
	$(FLOOR)/bin/python -m pip install -q uv
	$(FLOOR)/bin/uv pip install -q --python $(FLOOR)/bin/python --resolution lowest-direct -e '.[test]'
	$(FLOOR)/bin/lint-imports
	$(FLOOR)/bin/python -m pytest -n $(WORKERS) --dist worksteal $(PYTEST_ARGS)

# `make serve ARGS="--web 127.0.0.1:8080"` also serves the game to browsers there (docs/serve.md).
serve: $(VENV)/.installed
	$(VENV)/bin/wom-tui serve $(ARGS)

# The main figures at full size (the solver's table alone takes about 40 minutes on 2 cores). Every bench,
# with what it measures, is listed in docs/develop.md; `make test` runs each once at a tiny size
# (tests/test_bench.py). Not run here: paired.py (compares two solver runs), ssh_load.py, ssh_memory.py,
# together.py, serve_abuse.py, stats.py, screen_memory.py, fuzz.py, and the bare Textual reproductions
# in bench/upstream/ (footer_leak.py, textual_races.py, textual_styling.py).
BENCHES := store startup live pglive two_servers solver

bench: $(VENV)/.installed-test postgresql-server
	@for name in $(BENCHES); do echo "== bench/$$name.py"; $(PY) bench/$$name.py || exit 1; done

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	@touch $@ $(VENV)/.installed

# The tests start a throwaway PostgreSQL server of their own (tests/throwaway_pg.py) from the
# system's server binaries, the SSH tests drive the OpenSSH client, and the browser tests (tests/web) drive
# Debian's chromium-headless-shell through Playwright: as root on Debian/Ubuntu this installs each package
# when it is missing.
postgresql-server:
	@if [ -z "$$WOM_PG_BINDIR" ] && ! command -v initdb >/dev/null 2>&1 \
	    && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing the PostgreSQL server for the tests (apt-get install postgresql)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "make test needs the PostgreSQL server binaries: apt-get install postgresql (or brew install postgresql), or set WOM_PG_BINDIR" >&2; \
	    exit 1; \
	  fi; \
	fi
	@if ! command -v ssh >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing the OpenSSH client for the SSH tests (apt-get install openssh-client)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-client >/dev/null; \
	  else \
	    echo "make test needs the OpenSSH client (ssh) for its SSH tests: install openssh-client" >&2; \
	    exit 1; \
	  fi; \
	fi
	@if ! command -v chromium-headless-shell >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests (apt-get install chromium-headless-shell)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; \
	    dpkg -L chromium-headless-shell | grep -q '/chromium-headless-shell$$' \
	      || { echo "chromium-headless-shell installed no chromium-headless-shell binary" >&2; exit 1; }; \
	  else \
	    echo "make test needs chromium-headless-shell for its browser tests (apt-get install chromium-headless-shell)" >&2; \
	    exit 1; \
	  fi; \
	fi

clean:
	rm -rf $(VENV) $(FLOOR) .pytest_cache .hypothesis .mypy_cache .ruff_cache .import_linter_cache dist build
