# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
PORT ?= 8000

.PHONY: run dev check test whole servers lint typecheck pytest test-deps bench loadtest cluster faults messages translations clean screenshots dist wheel-check pythons events map

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(RUN_STAMP) $@

## run: install, then the venue server (`ginclub venue`): migrates, loads the demo on first
## start, prints the address and QR code for phones, serves every IPv4 interface on PORT
run: $(RUN_STAMP)
	$(BIN)/ginclub venue --port $(PORT)

## dev: for developers, Django's development server on 127.0.0.1 (DEBUG, autoreload)
dev: $(RUN_STAMP)
	$(BIN)/ginclub dev --port $(PORT)

## check: the habit before every commit (a few minutes on 2 cores): lint, types, the pure
## tests and the app tests that use the database; no browser, no real server, no simulator
check: $(DEV_STAMP) lint typecheck
	$(BIN)/pytest -n 2 -m "$(CHECK_TIER)" --durations=10 $(PYTEST_ARGS) || test $$? -eq 5

## test: the whole suite, what .ci/run calls: make check, then the browser, simulator and
## matrix tier, then each test that starts real servers one at a time, then the wheel
## installed and serving (wheel-check) and the pure tests on the other Pythons
test: $(DEV_STAMP) test-deps check whole servers wheel-check pythons

CHECK_TIER := not browser and not simulator and not server
lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

## whole: the browser tests, the event simulator, the permission matrix and double-tap walk
whole: $(DEV_STAMP) test-deps
	$(BIN)/pytest -n 2 -m "(browser or simulator) and not server" $(PYTEST_ARGS) || test $$? -eq 5

## servers: the tests that start real servers (gunicorn, the venue server, HAProxy,
## PostgreSQL, Redis, a proxy), one at a time with the machine to themselves
servers: $(DEV_STAMP) test-deps
	$(BIN)/pytest -m server $(PYTEST_ARGS) || test $$? -eq 5

## pytest: every tier, for PYTEST_ARGS that pick tests (a tier left empty is passed over)
pytest: check whole servers

## dist: the wheel a director downloads (and the sdist), in dist/: the packages with the
## templates, static files, compiled translations, PDF fonts and demo (setup.py's build step)
dist: $(DEV_STAMP)
	rm -rf dist build
	$(PY) -m build --outdir dist .

## wheel-check: that wheel in a fresh virtualenv outside the checkout (the newest Python
## found), the venue server started from an empty folder on loopback: home page in three
## languages, stylesheet, a round pack PDF whose QR codes decode (.ci/wheel_check)
wheel-check: dist test-deps
	$(PY) .ci/wheel_check dist

## pythons: the engine's and the tournaments' tests on every other supported Python on
## this machine (3.12, 3.13, 3.14 where installed), each in a virtualenv of its own
pythons: $(DEV_STAMP)
	$(PY) .ci/python_versions

## test-deps: Debian's Chromium (Playwright drives it; never a downloaded browser),
## poppler-utils (PDF pages to PNG), zbar-tools (decodes the printed QR codes),
## redis-server (the guess limiter's tests start a throwaway one on loopback) and haproxy
## (make cluster and its smoke test put it in front of two app nodes)
test-deps:
	@command -v chromium >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 \
		&& command -v zbarimg >/dev/null 2>&1 && command -v redis-server >/dev/null 2>&1 \
		&& command -v haproxy >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium, poppler-utils, zbar-tools, redis-server and haproxy for the tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq chromium poppler-utils zbar-tools redis-server haproxy >/dev/null; }

## screenshots: every screen of the demo (director, public, projector, table link, error
## pages) on a desktop (1280 wide) and a phone (390x844), in each language, into
## screenshots/ (NAME-VIEWPORT-LANGUAGE.png); the same run checks them with axe-core
screenshots: $(DEV_STAMP) test-deps
	rm -rf screenshots
	SCREENSHOTS_DIR=$(CURDIR)/screenshots $(BIN)/pytest -n 2 -p no:cacheprovider tests/e2e/test_accessibility.py tests/e2e/test_new_account.py
	@echo "Screenshots in screenshots/: $$(ls screenshots | wc -l) files"

## events: the event simulator (tests/events) with many seeds: every scenario played with
## seeds 1 to SEEDS (default 20), every invariant checked after every round;
## EVENTS_KEEP_GOING=1 plays each event to its end and lists every problem it shows
SEEDS ?= 20
events: $(DEV_STAMP)
	EVENTS_SEEDS=$(SEEDS) $(BIN)/pytest -n 2 -p no:cacheprovider tests/events $(PYTEST_ARGS)

## bench: performance ratios (SPEC 10); figures also in .bench/report.json
bench: $(DEV_STAMP)
	$(PY) -m tools.bench.run

## loadtest: 64 simulated tables through the venue server and gunicorn on loopback, on
## SQLite and PostgreSQL; then 2,000 followers polling the public page while 64 tables
## enter hands (the followers phase); then the fault test; then the lossy phase (64 tables
## through a loopback proxy that drops 10% of connections and delays the rest up to 5 s:
## every hand stored once, every phone showing the server's score; .bench/lossy.json);
## then the cluster phase (a venue publishing 64 tables' hands to two gunicorn nodes on
## PostgreSQL and Redis behind HAProxy while 2,000 followers poll the mirror and one node
## is killed and restarted: .bench/cluster.json); each runs even if a budget broke before
loadtest: $(DEV_STAMP)
	@status=0; $(PY) -m tools.load.run || status=1; $(PY) -m tools.load.faults || status=1; \
		$(PY) -m tools.load.lossy --tables 64 || status=1; \
		$(PY) -m tools.load.cluster --load || status=1; exit $$status

## cluster: the club's server past one machine, on loopback: a throwaway PostgreSQL 15,
## Redis, two gunicorn app nodes and HAProxy in front (round robin, health checks); the
## demo seeded, the URLs printed; Ctrl+C stops everything (tools/load/cluster.py)
cluster: $(DEV_STAMP) test-deps
	$(PY) -m tools.load.cluster

## faults: the server SIGKILLed 4 times while 16 tables enter hands (SQLite through the
## venue server and gunicorn, PostgreSQL through gunicorn): 0 acknowledged hands lost or
## duplicated, verify_tournament agrees; report in .bench/faults.json
faults: $(DEV_STAMP)
	$(PY) -m tools.load.faults

## map: docs/map.md drawn from the code: the apps floor by floor (modules, lines, share),
## their imports with the count of importing modules, and a Mermaid graph of them
## (tools/layout_map.py, the import walk tests/test_layout.py checks the layout with)
map: $(DEV_STAMP)
	$(PY) -m tools.layout_map

## messages: recompile the translation catalogues (the .mo files are committed too)
messages: $(DEV_STAMP)
	$(PY) manage.py compilemessages --ignore=.venv

## translations: gather new and changed messages into every catalogue in locale/ (GNU
## gettext), then compile. A new language: `manage.py makemessages -l CODE` once, then
## one line in settings.LANGUAGES.
translations: $(DEV_STAMP)
	$(PY) manage.py makemessages --all --no-obsolete \
		--ignore=.venv --ignore=tests --ignore=test-artifacts --ignore=data
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .venv-3.* .pytest_cache .mypy_cache .ruff_cache dist build
