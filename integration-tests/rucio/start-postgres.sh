#!/usr/bin/env bash
# A private PostgreSQL for trying setup.sh: Debian's PostgreSQL 15 (apt-get install -y postgresql), a cluster under
# $PGDIR (default /tmp/rucio-pg) owned by the postgres user (initdb refuses root), listening on 127.0.0.1:$PGPORT
# (default 55432), with a database and user rucio/rucio. Prints the SQLAlchemy URL for RUCIO_DB_URL.
# Stop it with: runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D $PGDIR/data stop
set -euo pipefail
PGDIR="${PGDIR:-/tmp/rucio-pg}"; PGPORT="${PGPORT:-55432}"
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
as_pg=(); [ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
if [ ! -f "$PGDIR/data/PG_VERSION" ]; then
  mkdir -p "$PGDIR"; [ "$(id -u)" = 0 ] && chown postgres: "$PGDIR"
  "${as_pg[@]}" "$bin/initdb" -D "$PGDIR/data" -U postgres -A trust -E UTF8 >"$PGDIR/initdb.log"
fi
if ! "${as_pg[@]}" "$bin/pg_ctl" -D "$PGDIR/data" status >/dev/null 2>&1; then
  "${as_pg[@]}" "$bin/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/pg.log" -w \
    -o "-p $PGPORT -k $PGDIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
fi
psql=("$bin/psql" -h 127.0.0.1 -p "$PGPORT" -U postgres -qAt)
[ "$("${psql[@]}" -c "select 1 from pg_roles where rolname='rucio'")" = 1 ] || "${psql[@]}" -c "create user rucio password 'rucio'"
[ "$("${psql[@]}" -c "select 1 from pg_database where datname='rucio'")" = 1 ] || "${psql[@]}" -c "create database rucio owner rucio"
echo "postgresql+psycopg://rucio:rucio@127.0.0.1:$PGPORT/rucio"
