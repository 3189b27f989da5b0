#!/usr/bin/env bash
# Idempotent set-up: Debian packages (OBS, Xvfb, Chromium, CJK fonts), a venv and the Python packages.
# Usage: scripts/setup.sh [--no-system] [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
SYSTEM=1; DEV=0
for a in "$@"; do
  case "$a" in
    --no-system) SYSTEM=0 ;;
    --dev) DEV=1 ;;
  esac
done
# gcc and python3-dev: mypyc compiles the engine's core (engine/native.py; without them the pure-Python
# engine runs)
APT_PKGS="gcc python3-dev obs-studio xvfb xauth fontconfig fonts-noto-cjk chromium ffmpeg poppler-utils xdotool x11-utils x11-apps imagemagick libxcb-cursor0 libxkbcommon-x11-0 libegl1 postgresql openbox"
if [ "$SYSTEM" = 1 ]; then
  missing=""
  for p in $APT_PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "setup: installing Debian packages:$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
fi
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.setup-stamp
EXTRAS=""
[ "$DEV" = 1 ] && EXTRAS="test"
# mypyc (the "native" extra) where a C compiler is: it compiles the engine's core (below)
if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then EXTRAS="${EXTRAS:+$EXTRAS,}native"; fi
want="$(cat pyproject.toml | sha256sum | cut -c1-16)-$DEV-$EXTRAS"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  target="."; [ -n "$EXTRAS" ] && target=".[$EXTRAS]"
  echo "setup: installing Python packages into .venv (log: .venv/pip.log)"
  # PySide6 6.12 split Qt WebEngine into wheels 6.11 does not know: drop them before pip goes back to 6.11
  .venv/bin/python -m pip uninstall -y -q pyside6-webengine pyside6-pdf > /dev/null 2>&1 || true
  if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e "$target"; } \
      > .venv/pip.log 2>&1; then
    cat .venv/pip.log >&2
    echo "setup: pip install failed (log above)" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi
# Going back from PySide6 6.12 leaves PySide6/__init__.py deleted (both versions' wheels own it): the
# Qt modules still import, but PySide6's own tools (pyside6-lrelease) fail. Put the package back whole.
if ! .venv/bin/python -c "import PySide6, sys; sys.exit(0 if PySide6.__file__ else 1)" 2>/dev/null; then
  v=$(.venv/bin/python -c "from importlib.metadata import version; print(version('pyside6'))")
  echo "setup: repairing the PySide6 $v install"
  .venv/bin/python -m pip install -q --force-reinstall --no-deps "pyside6==$v" "pyside6-essentials==$v" \
    "pyside6-addons==$v" "shiboken6==$v" >> .venv/pip.log 2>&1 || { cat .venv/pip.log >&2; exit 1; }
fi
# the console's translation catalogs (.ts sources in broadcast/i18n) compiled to .qm
for ts in broadcast/i18n/*.ts; do
  [ -e "$ts" ] || continue
  qm="${ts%.ts}.qm"
  if [ ! -f "$qm" ] || [ "$ts" -nt "$qm" ]; then
    .venv/bin/pyside6-lrelease -silent "$ts" -qm "$qm" || { echo "setup: pyside6-lrelease failed on $ts" >&2; exit 1; }
  fi
done
# the engine's compiled core (mypyc), built where a C compiler and the Python headers are, and rebuilt
# only when engine/*.py changed since the last build; a stale build never runs (the engine checks its
# stamp at import and runs the .py files). `python -m engine info` says which one runs.
if ! .venv/bin/python engine/native.py build; then
  echo "setup: the engine's compiled core did not build (above); python -m engine build retries it" >&2
  exit 1
fi
