# Two commands on a fresh machine: `make play` and `make test`. Each sets up what it needs.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
ARGS   ?=

# The fast tests: the rules on their own (game transcripts, milliseconds each). `make test` runs them in
# `make check`, then everything else on two workers.
FAST   := tests/domain

.PHONY: play check test serve bench clean

play: $(VENV)/.installed
	$(VENV)/bin/wom-tui $(ARGS)

check: $(VENV)/.installed-test
	$(VENV)/bin/ruff check wom_tui tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -q $(FAST)

test: check
	$(PY) -m pytest -n 2 --ignore=$(FAST) $(PYTEST_ARGS)

serve: $(VENV)/.installed
	$(VENV)/bin/wom-tui serve $(ARGS)

bench: $(VENV)/.installed-test
	$(PY) bench/store.py
	$(PY) bench/solver.py
	$(PY) bench/startup.py

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
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache .import_linter_cache dist build
