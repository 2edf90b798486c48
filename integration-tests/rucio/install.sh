#!/usr/bin/env bash
# Installs the pinned Rucio (server package with its PostgreSQL driver, and the clients) and gunicorn from PyPI into a
# virtualenv (default .ferry/rucio-venv), made again when its Python is gone or a pinned version differs; quiet when
# everything is in place. `./ferry test` and setup.sh call it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${RUCIO_VENV:-$root/.ferry/rucio-venv}"
pins=(rucio==41.5.1 rucio-clients==41.5.1 gunicorn==27.0.1)
"$VENV/bin/python" -c 'import sys, importlib.metadata as m
sys.exit(any(m.version(n) != v for n, v in (a.split("==") for a in sys.argv[1:])))' "${pins[@]}" >/dev/null 2>&1 && exit 0
echo "installing ${pins[*]} (rucio with its postgresql extra) from PyPI in $VENV"
mkdir -p "$(dirname "$VENV")"
"$VENV/bin/python" -c '' >/dev/null 2>&1 || /usr/bin/python3 -m venv --clear "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "${pins[@]/#rucio==/rucio[postgresql]==}" </dev/null
