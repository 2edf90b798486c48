#!/usr/bin/env bash
# Sets up a real Rucio (server and clients from PyPI, pinned) for Ferry's Rucio integration test:
#   1. the virtualenv .ferry/rucio-venv with the pinned rucio[postgresql], rucio-clients and gunicorn (install.sh)
#   2. $RUCIO_WORK/rucio.cfg and alembic.ini from the templates beside this script
#   3. Rucio's schema in the given PostgreSQL (build_database, create_base_vo, create_root_account)
#   4. the REST server: gunicorn serving rucio.web.rest.flaskapi.v1.main:application on 127.0.0.1:$RUCIO_SERVER_PORT
#   5. `rucio ping` and `rucio whoami` with the root account's userpass identity
# Everything is configured by environment variables (defaults after :-). Run as root or any user, from anywhere.
#   RUCIO_DB_URL=postgresql+psycopg://rucio:rucio@127.0.0.1:55432/rucio  an empty database (start-postgres.sh makes one)
#   FERRY_FTS3_URL=https://127.0.0.1:8446   the FTS3 host the RSEs name (used by rses.sh, written into rucio.cfg's comment)
#   BROKER=127.0.0.1:61613 BROKER_USER= BROKER_PASSWORD= BROKER_DESTINATION=/topic/transfer.fts_monitoring_complete
#   RUCIO_USERCERT=   a PEM with certificate and key Rucio presents to an https:// FTS3 host
#   CONVEYOR_SCHEMES=davs,https,http   the protocols' schemes the submitter may use ([conveyor] scheme)
#   OIDC_ISSUER_URL= OIDC_CLIENT_ID= OIDC_CLIENT_SECRET=  the IdP Rucio's token mode asks for tokens (client_credentials;
#                     OIDC_ISSUER_URL is where its .well-known/openid-configuration is), written to idpsecrets.json
#   RUCIO_RESET=1     drop everything in the database first
#   RUCIO_NO_SERVER=1 do not start the server
# Stop the server with: kill "$(cat $RUCIO_WORK/server.pid)"
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"

VENV="${RUCIO_VENV:-$root/.ferry/rucio-venv}"
WORK="${RUCIO_WORK:-$root/.ferry/rucio}"
DB_URL="${RUCIO_DB_URL:-postgresql+psycopg://rucio:rucio@127.0.0.1:55432/rucio}"
SERVER_PORT="${RUCIO_SERVER_PORT:-8480}"
FTS3_URL="${FERRY_FTS3_URL:-https://127.0.0.1:8446}"
BROKER="${BROKER:-127.0.0.1:61613}"
RUCIO_USER="${RUCIO_USER:-ferry}"
RUCIO_PASSWORD="${RUCIO_PASSWORD:-secret}"

t0=$SECONDS
step() { echo "rucio setup: [$((SECONDS - t0))s] $*"; }

# 1. the virtualenv (install.sh: nothing to do when the pinned versions are there)
mkdir -p "$WORK/log"
RUCIO_VENV="$VENV" "$here/install.sh"
py="$VENV/bin/python"
site="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
step "rucio $("$py" -c 'import importlib.metadata as m; print(m.version("rucio"))') in $VENV"

# 2. the configuration
broker_host="${BROKER%:*}"; broker_port="${BROKER##*:}"
fill() {
  "$py" - "$1" "$2" <<EOF
import sys
text = open(sys.argv[1]).read()
for k, v in {
    'WORK': '$WORK', 'VENV': '$VENV', 'SITE': '$site', 'DB_URL': '$DB_URL', 'SERVER_PORT': '$SERVER_PORT',
    'USER': '$RUCIO_USER', 'PASSWORD': '$RUCIO_PASSWORD', 'FTS3_URL': '$FTS3_URL',
    'USERCERT': '${RUCIO_USERCERT:-}', 'CACERT': '${RUCIO_CACERT:-}',
    'BROKER_HOST': '$broker_host', 'BROKER_PORT': '$broker_port',
    'BROKER_USER': '${BROKER_USER:-}', 'BROKER_PASSWORD': '${BROKER_PASSWORD:-}',
    'BROKER_DESTINATION': '${BROKER_DESTINATION:-/topic/transfer.fts_monitoring_complete}',
    'BROKER_VO': '${BROKER_VO:-atlas}', 'CONVEYOR_SCHEMES': '${CONVEYOR_SCHEMES:-davs,https,http}',
}.items():
    text = text.replace('@' + k + '@', v)
open(sys.argv[2], 'w').write(text)
EOF
}
fill "$here/rucio.cfg.template" "$WORK/rucio.cfg"
fill "$here/alembic.ini.template" "$WORK/alembic.ini"
export RUCIO_CONFIG="$WORK/rucio.cfg"
step "wrote $RUCIO_CONFIG"
if [ -n "${OIDC_ISSUER_URL:-}" ]; then
  OIDC_ISSUER_URL="$OIDC_ISSUER_URL" OIDC_CLIENT_ID="${OIDC_CLIENT_ID:?}" OIDC_CLIENT_SECRET="${OIDC_CLIENT_SECRET:?}" "$py" -c '
import json, os, sys
json.dump({"ferry-idp": {"issuer": os.environ["OIDC_ISSUER_URL"], "client_id": os.environ["OIDC_CLIENT_ID"],
                         "client_secret": os.environ["OIDC_CLIENT_SECRET"]}}, open(sys.argv[1], "w"))
' "$WORK/idpsecrets.json"
  step "wrote $WORK/idpsecrets.json for $OIDC_ISSUER_URL"
fi

# 3. the schema, the base VO and the root account with its userpass identity
if [ "${RUCIO_RESET:-}" = 1 ]; then
  step "purging the database"
  "$py" -c 'from rucio.db.sqla.util import purge_db; purge_db()'
fi
if "$py" -c 'from rucio.db.sqla.session import get_engine; from sqlalchemy import inspect
import sys; sys.exit(0 if inspect(get_engine()).has_table("accounts") else 1)' 2>/dev/null; then
  step "schema already there"
else
  step "building the schema"
  "$py" -c 'from rucio.db.sqla.util import build_database, create_base_vo, create_root_account
build_database(); create_base_vo(); create_root_account()' >"$WORK/log/bootstrap.log" 2>&1 \
    || { cat "$WORK/log/bootstrap.log"; exit 1; }
fi

# 4. the REST server
if [ "${RUCIO_NO_SERVER:-}" != 1 ]; then
  if [ -f "$WORK/server.pid" ] && kill -0 "$(cat "$WORK/server.pid")" 2>/dev/null; then
    step "server already running (pid $(cat "$WORK/server.pid"))"
  else
    step "starting the REST server on 127.0.0.1:$SERVER_PORT"
    RUCIO_CONFIG="$RUCIO_CONFIG" nohup "$VENV/bin/gunicorn" --bind "127.0.0.1:$SERVER_PORT" --workers 1 --threads 4 \
      --timeout 120 --pid "$WORK/server.pid" --error-logfile "$WORK/log/server.log" --access-logfile "$WORK/log/access.log" \
      rucio.web.rest.flaskapi.v1.main:application >>"$WORK/log/server.log" 2>&1 &
    for _ in $(seq 1 120); do
      curl -fsS "http://127.0.0.1:$SERVER_PORT/ping" >/dev/null 2>&1 && break
      sleep 0.5
    done
  fi
  # 5. the client, with the same file (RUCIO_CLIENT_MODE makes it read [client] though [database] is there)
  step "rucio ping: $(RUCIO_CLIENT_MODE=1 "$VENV/bin/rucio" ping)"
  RUCIO_CLIENT_MODE=1 "$VENV/bin/rucio" whoami
fi
step "done. Use: RUCIO_CONFIG=$RUCIO_CONFIG RUCIO_CLIENT_MODE=1 $VENV/bin/rucio ..."
