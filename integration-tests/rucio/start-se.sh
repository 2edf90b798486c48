#!/usr/bin/env bash
# A plain-HTTP WebDAV SE for trying the scenario: Debian's nginx (nginx-light has the DAV module) serving $SE_DIR
# (default /tmp/rucio-se) on 127.0.0.1:$SE_PORT (default 8081) with PUT, DELETE, MKCOL, COPY, MOVE; paths /se-a/…
# and /se-b/… are then two SEs' areas. Stop it with: kill "$(cat $SE_DIR/nginx.pid)"
set -euo pipefail
SE_DIR="${SE_DIR:-/tmp/rucio-se}"; SE_PORT="${SE_PORT:-8081}"
mkdir -p "$SE_DIR/data/se-a" "$SE_DIR/data/se-b" "$SE_DIR/tmp"
# as root, the workers run as root too, so that they write where the scenario writes
user_line=""; [ "$(id -u)" = 0 ] && user_line="user root root;"
cat >"$SE_DIR/nginx.conf" <<CONF
$user_line
daemon on;
pid $SE_DIR/nginx.pid;
error_log $SE_DIR/error.log;
worker_processes 1;
events { worker_connections 64; }
http {
  access_log $SE_DIR/access.log;
  client_body_temp_path $SE_DIR/tmp;
  client_max_body_size 0;
  server {
    listen 127.0.0.1:$SE_PORT;
    root $SE_DIR/data;
    dav_methods PUT DELETE MKCOL COPY MOVE;
    create_full_put_path on;
    autoindex on;
  }
}
CONF
[ -f "$SE_DIR/nginx.pid" ] && kill -0 "$(cat "$SE_DIR/nginx.pid")" 2>/dev/null || /usr/sbin/nginx -c "$SE_DIR/nginx.conf" -e "$SE_DIR/error.log"
echo "http://127.0.0.1:$SE_PORT/se-a http://127.0.0.1:$SE_PORT/se-b ($SE_DIR/data)"
