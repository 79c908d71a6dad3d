# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest browser-deps bench loadtest messages translations clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(RUN_STAMP) $@

## run: install, migrate, load the demo tournament (first time only) and serve on 127.0.0.1:8000
run: $(RUN_STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo --if-empty
	$(PY) manage.py runserver $(HOST):$(PORT)

## test: lint, type-check and run the whole test suite
test: $(DEV_STAMP) browser-deps lint typecheck pytest

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

pytest: $(DEV_STAMP)
	$(BIN)/pytest -n 2 $(PYTEST_ARGS)

## browser-deps: Debian's Chromium for the Playwright tests (never a downloaded browser)
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils >/dev/null; }

## bench: performance ratios (SPEC 10); figures also in .bench/report.json
bench: $(DEV_STAMP)
	$(PY) -m tests.bench.run

## loadtest: 64 simulated tables against gunicorn on loopback
loadtest: $(DEV_STAMP)
	$(PY) -m tests.load.run

## messages: recompile the translation catalogues (the .mo files are committed too)
messages: $(DEV_STAMP)
	$(PY) manage.py compilemessages --ignore=.venv

## translations: gather new and changed messages into locale/es (GNU gettext), then compile
translations: $(DEV_STAMP)
	$(PY) manage.py makemessages -l es --no-obsolete \
		--ignore=.venv --ignore=tests --ignore=test-artifacts --ignore=staticfiles
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
