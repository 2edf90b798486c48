#!/bin/sh
# PostgreSQL stand-in for the official image's entrypoint, as much of it as Ferry's chart uses: POSTGRES_PASSWORD
# (the superuser's), PGDATA, and /docker-entrypoint-initdb.d/*.sh|*.sql run once when the data directory is new.
set -eu
: "${PGDATA:=/var/lib/postgresql/data}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"; chmod 700 "$PGDATA"
  pwfile=$(mktemp); printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > "$pwfile"
  initdb -D "$PGDATA" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -k /var/run/postgresql" -w start >/dev/null
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "init: $f"; bash "$f" ;;
      *.sql) echo "init: $f"; psql -v ON_ERROR_STOP=1 --username postgres --dbname postgres -f "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "init: done"
fi
exec postgres -D "$PGDATA" -k /var/run/postgresql "$@"
