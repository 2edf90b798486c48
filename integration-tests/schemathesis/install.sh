#!/usr/bin/env bash
# Installs the pinned schemathesis from PyPI into a virtualenv of its own (default .ferry/schemathesis-venv), made again
# when its Python is gone or the pinned version differs; quiet when it is in place. `./ferry test` calls it for
# SchemathesisIT.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/integration-tests/pinned-venv.sh"
pinned_venv "${SCHEMATHESIS_VENV:-$root/.ferry/schemathesis-venv}" schemathesis==4.32.5
