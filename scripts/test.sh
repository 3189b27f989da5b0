#!/usr/bin/env bash
# The whole suite: set up, lint, type check, then pytest (exit 5 "no tests" fails).
#   scripts/test.sh [PYTEST ARGS]          everything (CI)
#   scripts/test.sh --fast [PYTEST ARGS]   the edit loop: the engine, the core and the components, no real
#                                          OBS, Chromium, Qt or PostgreSQL and no test marked long; lint,
#                                          no type check
set -uo pipefail
cd "$(dirname "$0")/.."
FAST=0
if [ "${1:-}" = "--fast" ]; then FAST=1; shift; fi
# set up everything the tests need (idempotent): Debian packages, .venv, the package with its test extras
scripts/setup.sh --dev || exit 1
PY=.venv/bin/python
export QT_QPA_PLATFORM=offscreen
export GOUJI_NO_SKIP=1
mkdir -p test-artifacts
$PY -m ruff check . || exit 1
$PY -m ruff format --check . || { echo "ruff format: run .venv/bin/python -m ruff format ."; exit 1; }
[ $FAST = 1 ] || $PY -m mypy --strict engine broadcast/core broadcast/studio.py broadcast/tokens.py broadcast/show broadcast/game \
  broadcast/sponsors/placements broadcast/media.py broadcast/resources.py broadcast/clock.py broadcast/overlay \
  broadcast/obs broadcast/sponsors/asrun.py broadcast/sponsors/chain.py broadcast/sponsors/recorder.py \
  broadcast/sponsors/exposure.py broadcast/sponsors/report.py broadcast/cli \
  broadcast/qualifiers broadcast/season broadcast/audit broadcast/sponsors/cuerunner.py broadcast/sponsors/rundown.py \
  broadcast/sponsors/anchor.py broadcast/sponsors/verify.py broadcast/sponsors/receipt.py \
  || exit 1
# No test can hang the run: pytest-timeout fails a test past its timeout, and the session guard
# (tests/session_guard.py) ends a run that still hangs, naming the test, with every thread's stack.
# This outer limit only catches a pytest that could not even do that.
LIMIT=${GOUJI_SUITE_LIMIT:-5100}
# Two workers (pytest-xdist; GOUJI_TEST_WORKERS=0 runs in one process): most tests wait on a real
# Chromium, OBS or Qt, so two halve the wait on CI's two cores. A module's tests run on one worker, and
# the tests sharing one OBS all on one (loadgroup); the longest tests (marked "long") start first; the
# ten slowest are listed at the end.
WORKERS=${GOUJI_TEST_WORKERS:-2}
if [ $FAST = 1 ]; then
  set -- tests/engine tests/core tests/game tests/sponsors tests/season tests/test_architecture.py \
    tests/test_rules_reference.py -m "not long and not obs and not browser and not qt and not postgres" "$@"
fi
PAR=(); [ "$WORKERS" != 0 ] && PAR=(-n "$WORKERS" --dist loadgroup)
timeout --kill-after=30 "$LIMIT" $PY -m pytest -q -p no:cacheprovider "${PAR[@]}" --durations=10 "$@"
rc=$?
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "the test run passed GOUJI_SUITE_LIMIT=${LIMIT}s and was stopped: failing"
  exit 1
fi
if [ $rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi
exit $rc
