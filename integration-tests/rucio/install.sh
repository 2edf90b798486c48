#!/usr/bin/env bash
# Installs the pinned Rucio (server package with its PostgreSQL driver, and the clients) and gunicorn from PyPI into a
# virtualenv (default .ferry/rucio-venv), made again when its Python is gone or a pinned version differs; quiet when
# everything is in place. `./ferry test` and setup.sh call it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${RUCIO_VENV:-$root/.ferry/rucio-venv}"
pins=(rucio==41.5.1 rucio-clients==41.5.1 gunicorn==27.0.1)
. "$root/integration-tests/pinned-venv.sh"
# the server package with its PostgreSQL driver (an extra of the same pin)
pinned_venv "$VENV" "${pins[@]}" -- "${pins[@]/#rucio==/rucio[postgresql]==}"
