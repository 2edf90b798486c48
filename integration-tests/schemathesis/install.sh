#!/usr/bin/env bash
# Installs the pinned schemathesis from PyPI into a virtualenv of its own (default .ferry/schemathesis-venv), made again
# when its Python is gone or the pinned version differs; quiet when it is in place. `./ferry test` calls it for
# SchemathesisIT.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="${SCHEMATHESIS_VENV:-$root/.ferry/schemathesis-venv}"
pins=(schemathesis==4.32.5)
"$VENV/bin/python" -c 'import sys, importlib.metadata as m
sys.exit(any(m.version(n) != v for n, v in (a.split("==") for a in sys.argv[1:])))' "${pins[@]}" >/dev/null 2>&1 && exit 0
echo "installing ${pins[*]} from PyPI in $VENV"
mkdir -p "$(dirname "$VENV")"
"$VENV/bin/python" -c '' >/dev/null 2>&1 || /usr/bin/python3 -m venv --clear "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "${pins[@]}" </dev/null
