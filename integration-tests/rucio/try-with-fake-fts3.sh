#!/usr/bin/env bash
# The whole Rucio side against fake-fts3.py instead of Ferry: PostgreSQL, ActiveMQ (STOMP), setup.sh, the stand-in
# FTS3 on 127.0.0.1:$FTS3_PORT (default 8446, answering 200 with a job id), the nginx WebDAV SE, scenario.py, then
# Rucio's daemons: rucio-conveyor-receiver in the background, rucio-conveyor-submitter --run-once,
# rucio-conveyor-poller --run-once --older-than 0, send-completion.py publishing the completion messages Ferry would
# send, rucio-conveyor-finisher --run-once; the rule must end OK. What Rucio sent is in .ferry/rucio/fts3-requests.jsonl.
# Leaves PostgreSQL, ActiveMQ, the Rucio server, the stand-in and nginx running (pid files in .ferry/rucio,
# /tmp/rucio-se, /tmp/rucio-broker); RUCIO_RESET=1 starts from an empty database.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
FTS3_PORT="${FTS3_PORT:-8446}"
exec 3>&2
t() { local s=$SECONDS; "$@"; echo "try: [$(( SECONDS - s ))s] ${*:1:3}" >&3; }
export RUCIO_DB_URL="${RUCIO_DB_URL:-$("$here/start-postgres.sh")}"
export FERRY_FTS3_URL="http://127.0.0.1:$FTS3_PORT"
export BROKER="${BROKER:-$("$here/start-broker.sh")}"
t "$here/setup.sh"
W="$root/.ferry/rucio"
if ! { [ -f "$W/fake-fts3.pid" ] && kill -0 "$(cat "$W/fake-fts3.pid")" 2>/dev/null; }; then
  nohup .ferry/rucio-venv/bin/python "$here/fake-fts3.py" "$FTS3_PORT" "$W/fts3-requests.jsonl" 200 >"$W/log/fake-fts3.log" 2>&1 &
  echo $! >"$W/fake-fts3.pid"
fi
read -r se_a se_b _ < <("$here/start-se.sh")
export RUCIO_CONFIG="$W/rucio.cfg"
t env RUCIO_CLIENT_MODE=1 SE_A_URL="$se_a/rucio" SE_B_URL="$se_b/rucio" \
  SE_A_DIR=/tmp/rucio-se/data/se-a/rucio .ferry/rucio-venv/bin/python "$here/scenario.py"
t .ferry/rucio-venv/bin/rucio-conveyor-submitter --run-once >"$W/log/submitter.log" 2>&1
t .ferry/rucio-venv/bin/rucio-conveyor-poller --run-once --older-than 0 >"$W/log/poller.log" 2>&1
.ferry/rucio-venv/bin/rucio-conveyor-receiver >"$W/log/receiver.log" 2>&1 &
receiver=$!
trap 'kill $receiver 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do grep -q "connecting to" "$W/log/receiver.log" && break; sleep 0.5; done
sleep 2  # the subscription follows the connection
t env RUCIO_CLIENT_MODE=1 .ferry/rucio-venv/bin/python "$here/send-completion.py"
for _ in $(seq 1 30); do [ "$(grep -c 'UPDATING REQUEST' "$W/log/receiver.log")" -ge 2 ] && break; sleep 0.5; done
t .ferry/rucio-venv/bin/rucio-conveyor-finisher --run-once >"$W/log/finisher.log" 2>&1
RUCIO_CLIENT_MODE=1 .ferry/rucio-venv/bin/rucio rule list --did ferry:dataset1
state="$(RUCIO_CLIENT_MODE=1 .ferry/rucio-venv/bin/python -c 'from rucio.client import Client
print(next(r["state"] for r in Client().list_did_rules("ferry", "dataset1") if r["rse_expression"] == "FERRY_B"))')"
echo "try: the rule to FERRY_B is $state"
echo "requests Rucio sent to $FERRY_FTS3_URL:"
.ferry/rucio-venv/bin/python -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line); print(" ", r["method"], r["path"])' "$W/fts3-requests.jsonl"
[ "$state" = OK ]
