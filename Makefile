# Two commands on a fresh machine: `make play` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
ARGS   ?=

.PHONY: play test serve bench clean

play: $(VENV)/.installed
	$(VENV)/bin/wom-tui $(ARGS)

test: $(VENV)/.installed-test
	$(PY) -m pytest $(PYTEST_ARGS)

serve: $(VENV)/.installed
	$(VENV)/bin/wom-tui serve $(ARGS)

bench: $(VENV)/.installed-test
	$(PY) bench/store.py
	$(PY) bench/solver.py
	$(PY) bench/startup.py
	$(PY) bench/live.py

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	@touch $@ $(VENV)/.installed

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis dist build
