# Two commands: `make run` (set up, then the studio on a demo season) and `make test` (set up, then every test).
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup setup-dev run test lint bench clean

setup:
	scripts/setup.sh

setup-dev:
	scripts/setup.sh --dev

run: setup
	$(PY) -m broadcast run

test: setup-dev
	scripts/test.sh

lint: setup-dev
	$(PY) -m ruff check engine broadcast tests benchmarks
	$(PY) -m mypy --strict engine

bench: setup-dev
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info test-artifacts
