# The two commands of README.md: `make run` (demo server) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# test processes: one more than the CPUs (at most 4), since the browser and worker tests spend much of their
# time waiting on Chromium and on real timeouts; TEST_PROCESSES=0 runs the suite in this one process
TEST_PROCESSES ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$(( n + 1 > 4 ? 4 : n + 1 )))

.PHONY: run test install install-dev lint format migrate demo worker browser-deps bench messages clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# The demo runs as a production server would (no debug pages), over plain http on this machine only.
DEMO_ENV := DEBUG=0 SECRET_KEY=local-demo-only-not-a-secret ALLOWED_HOSTS=$(HOST),localhost \
	SECURE_SSL_REDIRECT=false SECURE_HSTS_SECONDS=0 SECURE_HSTS_PRELOAD=false SECURE_COOKIES=false BEHIND_PROXY=false

## run: install, migrate, load the demo tournament if absent, serve on http://127.0.0.1:8000 (SQLite, eager tasks)
run: install
	$(DEMO_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEMO_ENV) $(BIN)/python manage.py vapid_keys -v0
	$(DEMO_ENV) $(BIN)/python manage.py load_demo --if-absent --url http://$(HOST):$(PORT)
	$(DEMO_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(DEMO_ENV) $(BIN)/python manage.py runserver --insecure $(HOST):$(PORT)

## test: install the dev requirements, run ruff, the import-layer contracts and the whole pytest suite
test: install-dev browser-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run > /dev/null
	DEBUG=1 $(BIN)/pytest -n $(TEST_PROCESSES) --maxprocesses 4 --dist loadfile $(PYTEST_ARGS)

## browser-deps: Chromium and its driver for the browser tests (installed when possible, else those tests skip)
browser-deps:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing chromium and chromium-driver for the browser tests…"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	  || echo "Could not install chromium; the browser tests will be skipped."; \
	else echo "chromium/chromedriver not found and cannot be installed here; the browser tests will be skipped."; fi

## bench: every benchmark in bench/, each printing its figures. With DATABASE_URL (PostgreSQL), REDIS_URL and
## CELERY_BROKER_URL set (as .ci/run sets them) they run against those, the broker in place; without them on
## the embedded defaults (SQLite, the file cache, tasks in-process). bench/entry, bench/standings,
## bench/needs, bench/ema and bench/whatif need a PostgreSQL server and run only when DATABASE_URL names one.
BENCH_DIR ?= /tmp/mahjong-bench
BENCH_ENTRY_SECONDS ?= 15
BENCH_HTTP_SECONDS ?= 10
bench: install
	@mkdir -p $(BENCH_DIR)
	@set -e; for b in rules seating archive; do echo "== bench.$$b"; $(BIN)/python -m bench.$$b; done
	@echo "== bench.push"; if [ -n "$$DATABASE_URL" ]; then $(BIN)/python -m bench.push; \
	  else $(BIN)/python -m bench.push --database sqlite:///$(BENCH_DIR)/push.sqlite3; fi
	@set -e; for b in requests director; do echo "== bench.$$b"; \
	  if [ -n "$$DATABASE_URL" ]; then $(BIN)/python -m bench.$$b; \
	  else rm -f $(BENCH_DIR)/$$b.sqlite3; $(BIN)/python -m bench.$$b --database sqlite:///$(BENCH_DIR)/$$b.sqlite3; fi; done
	@set -e; case "$$DATABASE_URL" in postgres*) \
	  echo "== bench.entry"; $(BIN)/python -m bench.entry --seconds $(BENCH_ENTRY_SECONDS); \
	  echo "== bench.standings"; $(BIN)/python -m bench.standings --seconds $(BENCH_HTTP_SECONDS); \
	  echo "== bench.needs"; $(BIN)/python -m bench.needs; \
	  echo "== bench.ema"; $(BIN)/python -m bench.ema; \
	  echo "== bench.whatif"; $(BIN)/python -m bench.whatif;; \
	*) echo "== bench.entry, bench.standings, bench.needs, bench.ema, bench.whatif: skipped" \
	  "(they need PostgreSQL: DATABASE_URL=postgres://…)";; esac

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

worker: install
	$(BIN)/celery -A config worker --loglevel=info

messages: install
	DEBUG=1 $(BIN)/python manage.py makemessages -l es --ignore=.venv --ignore=bench
	DEBUG=1 $(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
