# Shortcuts for the README's two commands (scripts/run.sh, scripts/test.sh), and a few more.
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup setup-dev run test test-loaded mutation lint bench clean

setup:
	scripts/setup.sh

setup-dev:
	scripts/setup.sh --dev

run:
	scripts/run.sh

test:
	scripts/test.sh

test-loaded:
	scripts/test-loaded.sh

mutation: setup-dev
	$(PY) scripts/mutation.py

lint: setup-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --strict engine broadcast/core broadcast/studio.py broadcast/tokens.py broadcast/show broadcast/game \
	  broadcast/sponsors/placements broadcast/media.py broadcast/resources.py broadcast/clock.py

bench: setup-dev
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info test-artifacts
