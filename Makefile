# The two commands a newcomer needs: `make run` and `make test`. Both install what they need.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT

.PHONY: run test bootstrap venv services stop-services browser superuser

run: bootstrap
	$(PY) manage.py seed_demo --port $(PORT)
	@if (exec 3<>/dev/tcp/127.0.0.1/$(PORT)) 2>/dev/null; then \
		echo "Port $(PORT) is already in use (another make run?). Try: make run PORT=8001"; exit 1; fi
	$(VENV)/bin/honcho --env /dev/null -f Procfile.dev start --port $(PORT)

test: bootstrap browser
	# Tests use their own Redis database, so a running `make run` worker never takes their tasks.
	REDIS_URL=$${TEST_REDIS_URL:-redis://127.0.0.1:63799/1} $(VENV)/bin/pytest $(PYTEST_ARGS)

# Everything both commands stand on: Python packages, local PostgreSQL and Redis, schema, seed data.
bootstrap: venv .env services
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt
	@python3 -c 'import ensurepip, venv' 2>/dev/null || scripts/system-packages.sh python3-venv
	@flock .venv.lock bash -c 'test -x $(PY) || python3 -m venv $(VENV); \
		$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt'
	@touch $@

.env:
	@scripts/write-env.sh

services:
	@scripts/services.sh

stop-services:
	@scripts/stop-services.sh

# Headless Chromium from Debian for the browser tests (no tool may download its own browser), and
# the JavaScript the tests load into pages (axe-core, scorm-again).
browser: node_modules/.installed
	@scripts/system-packages.sh chromium

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || scripts/system-packages.sh nodejs npm
	@flock .venv.lock npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	@touch $@

superuser: bootstrap
	$(PY) manage.py createsuperuser
