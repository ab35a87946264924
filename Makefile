# The two commands a newcomer needs: `make run` and `make test`. Both install what they need.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
export PORT

.PHONY: run test docs bench clients audit bootstrap venv requirements services stop-services browser load-tools pooler corpus superuser messages

# honcho gives every process its own PORT (web $(PORT), worker $(PORT)+100, …), and settings derive
# the default PUBLIC_BASE_URL from PORT: so every process is given the web's PUBLIC_BASE_URL (the one
# in the environment, on the make command line or in .env, else http://localhost:$(PORT)), and the
# links a worker writes (shareUrl, downloadUrl) point at the web server. WEB_PORT tells the `ready`
# process where to wait for the web server, to print the demo key and addresses (build/demo.txt).
run: bootstrap
	$(PY) manage.py seed_demo --port $(PORT) --file build/demo.txt
	@if (exec 3<>/dev/tcp/127.0.0.1/$(PORT)) 2>/dev/null; then \
		echo "Port $(PORT) is already in use (another make run?). Try: make run PORT=8001"; exit 1; fi
	base_url=$$(PORT=$(PORT) $(PY) -c 'from config.settings import PUBLIC_BASE_URL; print(PUBLIC_BASE_URL)') && \
		PUBLIC_BASE_URL=$$base_url WEB_PORT=$(PORT) \
		$(VENV)/bin/honcho --env /dev/null -f Procfile.dev start --port $(PORT)

test: bootstrap browser load-tools pooler corpus docs
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	# Tests use their own Redis database, so a running `make run` worker never takes their tasks.
	REDIS_URL=$${TEST_REDIS_URL:-redis://127.0.0.1:63799/1} $(VENV)/bin/pytest $(PYTEST_ARGS)

# The manual (docs/contribute/docs.md): the OpenAPI document from the code, then the site from docs/,
# both into build/docs (not committed). --strict: a broken link or anchor fails the build (never with
# --quiet, which hides the warnings --strict counts).
docs: venv .env
	@mkdir -p build/docs
	$(PY) manage.py spectacular --format openapi-json --file build/docs/openapi.json
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

# The service under load beside a bare Django view, in one run (docs/how-it-works/performance.md).
# Not part of `make test`, which only checks that it runs: timings are noisy, ratios in one run are not.
bench: bootstrap load-tools corpus
	$(PY) -m bench $(BENCH_ARGS)

# The API clients, generated from the document (docs/api/clients.md): build/clients/python, a package
# (openapi-python-client; `pip install build/clients/python`), and build/clients/typescript
# (@hey-api/openapi-ts with zod). `make test` generates both again from the live service's document
# and runs them against it.
clients: venv .env node_modules/.installed
	@mkdir -p build/clients
	$(PY) manage.py spectacular --format openapi-json --file build/clients/openapi.json
	scripts/generate-clients.sh build/clients/openapi.json build/clients

# Known vulnerabilities in what production runs (requirements.txt, with pip-audit, which the venv
# installs) and in the test tools (package-lock.json, with npm audit), asked of the advisory
# services: exit 1 for a vulnerability, 2 (and a plain message) when a service cannot be reached.
# Not part of `make test`, which needs no network (docs/contribute/dependencies.md).
audit: venv
	@command -v npm >/dev/null || scripts/system-packages.sh nodejs npm
	$(PY) scripts/audit.py

# wrk drives the endpoints in `make bench` (and in its smoke run in `make test`).
load-tools:
	@command -v wrk >/dev/null || scripts/system-packages.sh wrk

# PgBouncer, which the tests put in transaction mode in front of PostgreSQL (tests/support/pgbouncer.py).
# Debian installs it in /usr/sbin, which is not on every user's PATH.
pooler:
	@test -x /usr/sbin/pgbouncer || command -v pgbouncer >/dev/null || scripts/system-packages.sh pgbouncer

# Real manuals from Debian's packages, which the tests read as a client's documents (build/corpus).
corpus:
	@scripts/corpus.sh

# Everything both commands stand on: Python packages, local PostgreSQL and Redis, schema, seed data,
# and bubblewrap, the sandbox documents are read in (docs/how-it-works/documents.md).
bootstrap: venv .env services
	@command -v bwrap >/dev/null || scripts/system-packages.sh bubblewrap
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v0

# One venv for both commands: the test and tool packages (requirements-dev.txt) beside the service's
# own (requirements.txt, all a production install needs).
venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@python3 -c 'import ensurepip, venv' 2>/dev/null || scripts/system-packages.sh python3-venv
	@python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python 3.11 or newer is needed; python3 is $$(python3 -V)" >&2; exit 1; }
	@flock .venv.lock bash -c 'test -x $(PY) || python3 -m venv $(VENV); \
		$(PY) -m pip install -q --disable-pip-version-check --require-hashes -r requirements-dev.txt'
	@touch $@

# Compile requirements.in and requirements-dev.in into the pinned, hashed requirements.txt and
# requirements-dev.txt: every transitive dependency, one resolution for any platform and Python from
# 3.11 (--universal), hashes from the package index uv uses by default, never a local index or
# pip.conf. A compile keeps every pin it can; move one with
# `make requirements UV_ARGS="--upgrade-package NAME"`, or all with UV_ARGS=--upgrade.
UV_COMPILE = $(VENV)/bin/uv pip compile --quiet --no-config --universal --python-version 3.11 \
	--generate-hashes --custom-compile-command "make requirements" $(UV_ARGS)
requirements: venv
	$(UV_COMPILE) requirements.in -o requirements.txt
	# The dev set is constrained to the runtime set's pins, so both install the same versions.
	$(UV_COMPILE) requirements-dev.in -c requirements.txt -o requirements-dev.txt

.env:
	@scripts/write-env.sh

services:
	@scripts/services.sh

stop-services:
	@scripts/stop-services.sh

# Headless Chromium from Debian for the browser tests (no tool may download its own browser), the
# JavaScript the tests load into pages (axe-core, scorm-again), and the Node tools of the API
# document's tests: its linters and the TypeScript client's generator and compiler.
browser: node_modules/.installed
	@command -v chromium >/dev/null || scripts/system-packages.sh chromium

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || scripts/system-packages.sh nodejs npm
	@flock .venv.lock npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	@touch $@

superuser: bootstrap
	$(PY) manage.py createsuperuser

# The service's own words (courses/phrases.py): gathers the phrases of the code and templates into
# each language's catalogue, locale/<ll_CC>/LC_MESSAGES/django.po, then compiles every catalogue to
# the django.mo beside it (committed; a test fails while one is stale). `make messages
# LANGUAGE=it_IT` starts the catalogue of a new language.
messages: venv .env
	@command -v msgfmt >/dev/null || scripts/system-packages.sh gettext
	$(PY) manage.py makemessages --no-obsolete --no-location -i node_modules -i staticfiles -i tests \
		-i build -i media $(if $(LANGUAGE),--locale $(LANGUAGE),--all)
	$(PY) manage.py compilemessages --ignore=.venv --ignore=node_modules
