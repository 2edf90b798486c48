# Sourced by the install scripts of the Python tools the tests run (rucio/, schemathesis/): pinned_venv VENV PIN... [-- SPEC...]
# makes VENV (again when its Python is gone) and installs SPECs (default: the PINs) from PyPI unless every PIN
# (name==version) is installed already; quiet when nothing is to do. SPECs differ from PINs only by extras.
pinned_venv() {
  local venv="$1"; shift
  local pins=() specs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do pins+=("$1"); shift; done
  [ "${1:-}" = "--" ] && shift
  specs=("$@")
  [ ${#specs[@]} -gt 0 ] || specs=("${pins[@]}")
  "$venv/bin/python" -c 'import sys, importlib.metadata as m
sys.exit(any(m.version(n) != v for n, v in (a.split("==") for a in sys.argv[1:])))' "${pins[@]}" >/dev/null 2>&1 && return 0
  echo "installing ${specs[*]} from PyPI in $venv"
  mkdir -p "$(dirname "$venv")"
  "$venv/bin/python" -c '' >/dev/null 2>&1 || /usr/bin/python3 -m venv --clear "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "${specs[@]}" </dev/null
}
