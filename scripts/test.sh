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
# Python keeps the compiled modules (__pycache__, git-ignored): with PYTHONDONTWRITEBYTECODE set (some
# shells set it) every one of the suite's hundreds of `python -m broadcast …` processes compiled the
# project's modules again (~0.4 s of CPU each) and every worker rewrote every test module's asserts anew
# (tests/sponsors: 40 → 34 CPU-s)
unset PYTHONDONTWRITEBYTECODE
mkdir -p test-artifacts
$PY -m ruff check . || exit 1
$PY -m ruff format --check . || { echo "ruff format: run .venv/bin/python -m ruff format ."; exit 1; }
[ $FAST = 1 ] || $PY -m mypy --strict engine broadcast || exit 1
# No test can hang the run: pytest-timeout fails a test past its timeout, and the session guard
# (tests/session_guard.py) ends a run that still hangs, naming the test, with every thread's stack.
# The suite's time is part of the test: the whole pytest run (the full suite, two workers) must end within
# GOUJI_SUITE_LIMIT seconds (900 by default: the suite takes ~455 s on two quiet workers, under the guide's
# 8 minutes; the limit leaves a slower CI machine its room) or the run fails, naming
# its time, after its report (the slowest tests listed); a run in one process (GOUJI_TEST_WORKERS=0) is
# not held to it. A run that takes much longer still is stopped (the outer timeout). On a machine shared
# with other work set it higher (scripts/test-loaded.sh does).
LIMIT=${GOUJI_SUITE_LIMIT:-900}
# Two workers (pytest-xdist; GOUJI_TEST_WORKERS=0 runs in one process): most tests wait on a real
# Chromium, OBS or Qt, so two halve the wait on CI's two cores. Each test goes to whichever worker is free
# (loadgroup), except the tests sharing one OBS: all on one worker, one after another (xdist_group); the longest tests (marked "long") start first; the
# 25 slowest tests and the 25 costliest modules (tests/conftest.py: most of the time is in no single slow
# test) are listed at the end.
WORKERS=${GOUJI_TEST_WORKERS:-2}
if [ $FAST = 1 ]; then
  set -- tests/engine tests/core tests/game tests/sponsors tests/season tests/test_architecture.py \
    tests/test_rules_reference.py tests/test_mutation_list.py -m "not long and not obs and not browser and not qt and not postgres" "$@"
fi
PAR=(); [ "$WORKERS" != 0 ] && PAR=(-n "$WORKERS" --dist loadgroup)
# The tests' temporary files (databases and their journals, OBS's and PostgreSQL's folders) go to a
# RAM-backed tmpfs when the machine has one with room (over 4 GiB free, and as much memory): every
# journaled action is fsync'd, and on a disk shared with other work an fsync waited ~8 ms (tests/game:
# 124 → 59 s, the same CPU). What a test proves does not change (a kill -9 is a kill -9 on either; the
# full and read-only disks are tmpfs already). GOUJI_TEST_TMP=disk keeps them in the usual place.
SHM_FREE=$(df -k --output=avail /dev/shm 2>/dev/null | tail -1 | tr -d ' ')
MEM_FREE=$(awk '/^MemAvailable:/ {print $2}' /proc/meminfo 2>/dev/null)  # a tmpfs's files are memory
if [ "${GOUJI_TEST_TMP:-}" != disk ] && [ "${SHM_FREE:-0}" -gt 4194304 ] 2>/dev/null &&
  [ "${MEM_FREE:-0}" -gt 4194304 ] 2>/dev/null; then
  TMPDIR=$(mktemp -d /dev/shm/gouji-tests-XXXXXX) && export TMPDIR && CLEAN_TMP=$TMPDIR
fi
# The engine's tests once more on its pure-Python modules (GOUJI_PURE_PYTHON=1) when the compiled core runs
# (setup.sh builds it where a C compiler is): both builds are held to the same tests (engine/native.py;
# benchmarks/engine_differential.py compares 10,000 self-played games). Its time counts in the limit.
# Not again: the tests that run the same code whichever build this process has — tests/engine/test_native.py's
# subprocesses choose their build themselves (its first pass compares both on 200 games) and engine/yamlread.py
# is never compiled.
SAME_IN_BOTH=(--ignore tests/engine/test_yamlread.py)
for t in test_both_builds_agree_on_seeded_self_play test_a_build_of_the_same_sources_is_taken_from_the_machine_s_cache \
  test_an_incomplete_build_never_runs test_a_stale_build_never_runs_the_sources_beside_it_do_with_one_warning_line \
  test_without_a_build_the_pure_python_engine_runs_silently test_info_names_the_build_that_runs_and_where_each_module_comes_from \
  test_GOUJI_PURE_PYTHON_forces_the_pure_python_modules_and_info_says_so; do
  SAME_IN_BOTH+=(--deselect "tests/engine/test_native.py::$t")
done
PURE=0
if [ $FAST = 0 ] && [ $# -eq 0 ] && [ "$($PY -c 'import engine; print(engine.native.BUILD)')" = compiled ]; then PURE=1; fi
started=$(date +%s)
# The pure-Python pass runs beside the main one, at the lowest priority (nice 19), in one process: it takes
# only the CPU the two workers leave idle (tests waiting on OBS, Chromium, Qt and PostgreSQL), ~25 CPU-s of
# a run of ~450 s, instead of ~13 s of the run's end on two workers of its own. If it has not finished when
# the main pass has (a loaded machine leaves it no idle CPU), it is stopped and run again as before, on two
# workers at the usual priority. Its own temporary folder; its output comes after the main pass's.
PURE_PID=""
# however the script ends (a Ctrl-C too: the pure pass is in a process group of its own), nothing is left
cleanup() {
  if [ -n "$PURE_PID" ]; then kill -TERM -- "-$PURE_PID" 2>/dev/null; fi
  if [ -n "${CLEAN_TMP:-}" ]; then rm -rf "$CLEAN_TMP"; fi
}
trap cleanup EXIT
if [ $PURE = 1 ]; then
  PURE_TMP=$(mktemp -d "${TMPDIR:-/tmp}/gouji-pure-XXXXXX")
  TMPDIR=$PURE_TMP GOUJI_PURE_PYTHON=1 nice -n 19 timeout --kill-after=30 "$(( LIMIT * 2 + 300 ))" \
    $PY -m pytest -q -p no:cacheprovider -p no:xdist tests/engine "${SAME_IN_BOTH[@]}" \
    </dev/null >"$PURE_TMP/log" 2>&1 &
  PURE_PID=$!  # timeout's: the leader of the process group of the pass (timeout puts itself in its own)
fi
timeout --kill-after=30 "$(( LIMIT * 2 + 300 ))" $PY -m pytest -q -p no:cacheprovider "${PAR[@]}" \
  --durations=25 "$@"
rc=$?
if [ -n "$PURE_PID" ]; then
  if [ -d "/proc/$PURE_PID" ] && ! grep -q zombie "/proc/$PURE_PID/status" 2>/dev/null; then
    kill -TERM -- "-$PURE_PID" 2>/dev/null
    wait "$PURE_PID" 2>/dev/null
    PURE_PID=""
    prc=0
    if [ $rc -eq 0 ]; then
      echo "the engine's tests on its pure-Python modules (not done beside the run: run again):"
      GOUJI_PURE_PYTHON=1 timeout --kill-after=30 900 $PY -m pytest -q -p no:cacheprovider "${PAR[@]}" \
        tests/engine "${SAME_IN_BOTH[@]}"
      prc=$?
    fi
  else
    wait "$PURE_PID"
    prc=$?
    PURE_PID=""
    echo "the engine's tests on its pure-Python modules (run beside the main pass, nice 19):"
    if [ $prc -eq 0 ]; then tail -n 3 "$PURE_TMP/log"; else cat "$PURE_TMP/log"; fi
  fi
  [ $rc -eq 0 ] && rc=$prc
  rm -rf "$PURE_TMP"
fi
took=$(( $(date +%s) - started ))
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  echo "the test run passed twice GOUJI_SUITE_LIMIT=${LIMIT}s and was stopped after ${took} s: failing"
  exit 1
fi
if [ $FAST = 0 ] && [ "$WORKERS" != 0 ] && [ "$took" -gt "$LIMIT" ]; then
  echo "the suite took ${took} s, over GOUJI_SUITE_LIMIT=${LIMIT} s: failing (make the slowest above faster)"
  exit 1
fi
echo "the tests took ${took} s (GOUJI_SUITE_LIMIT=${LIMIT} s)"
if [ $rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi
exit $rc
