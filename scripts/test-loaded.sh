#!/usr/bin/env bash
# The whole suite on a loaded machine: busy loops (two by default, GOUJI_BUSY_LOOPS=N for more) keep
# the cores busy beside scripts/test.sh, as when several sessions share a 2-core machine. The tests
# must pass like this: they assert behaviour, never durations. The loops are stopped however the run
# ends. Arguments go to scripts/test.sh (and on to pytest).
set -uo pipefail
cd "$(dirname "$0")/.."
N=${GOUJI_BUSY_LOOPS:-2}
pids=()
stop_loops() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  pids=()
}
trap stop_loops EXIT
trap 'stop_loops; exit 130' INT TERM
for _ in $(seq "$N"); do
  ( while :; do :; done ) &
  pids+=($!)
done
echo "test-loaded: $N busy loops running beside the suite (pids ${pids[*]})"
# the busy loops take half the cores: the suite is held to twice its time limit here
export GOUJI_SUITE_LIMIT=${GOUJI_SUITE_LIMIT:-3000}
start=$(date +%s)
scripts/test.sh "$@"
rc=$?
echo "test-loaded: scripts/test.sh exit $rc after $(( $(date +%s) - start )) s with $N busy loops"
exit $rc
