#!/usr/bin/env bash
# Set up (idempotent) and start the studio on a demo season: python -m broadcast run [options].
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m broadcast run "$@"
