#!/usr/bin/env bash
# handle-resolver benchmark (not part of the test run): 1 M handles; wrk against GET /api/handles, proxy redirects
# and nginx serving a static file of the same size (the HTTP ceiling of this machine). Installs wrk and nginx
# from Debian's packages when missing. The resolver's cache gets cache-mb MiB (the default holds the 1 M handles;
# docs/benchmarks.md has the size per handle); 0 turns it off and measures the database path.
#   integration-tests/bench/resolver-bench.sh [handles=1000000] [seconds=15] [cache-mb=800]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
handles="${1:-1000000}"; secs="${2:-15}"; cache_mb="${3:-800}"
export FERRY_RESOLVER_CACHE_MAX_MEGABYTES="$cache_mb"
command -v wrk >/dev/null && command -v nginx >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx-light; }
# package, not install: the shared local repository must not receive this checkout's snapshots
[ -f services/handle-resolver/target/quarkus-app/quarkus-run.jar ] && [ -d integration-tests/target/lib ] \
  || ./mvnw -B -q -DskipTests package -pl services/handle-resolver,integration-tests -am
work="$root/integration-tests/target/bench-resolver-run"; rm -rf "$work"; mkdir -p "$work/www" "$work/tmp"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# the native Handle protocol's port (TCP and UDP), free for both
nport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); p=s.getsockname()[1]; u=socket.socket(type=socket.SOCK_DGRAM); u.bind(("127.0.0.1",p)); print(p)')
export FERRY_RESOLVER_NATIVE_PORT="$nport"
ngport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
java -Xmx1g -Dferry.root="$root" -Dferry.service.jvm-args="-Xms$((2 * cache_mb + 768))m -Xmx$((2 * cache_mb + 768))m -XX:MaxTenuringThreshold=2 -Xlog:gc:file=$work/resolver-gc.log ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" -cp "integration-tests/target/classes:integration-tests/target/lib/*" \
  io.ferry.bench.ResolverBenchmark "$handles" "$port" > "$work/prepare.log" 2>&1 &
prep=$!
trap 'kill $prep 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; wait 2>/dev/null' EXIT
until grep -q '^SAMPLE' "$work/prepare.log"; do sleep 1; kill -0 $prep 2>/dev/null || { cat "$work/prepare.log"; exit 1; }; done
grep -E '^(LOADED|CACHED|SAMPLE)' "$work/prepare.log"
cp integration-tests/target/bench-resolver/sample.json "$work/www/handle.json"
cat > "$work/nginx.conf" <<CONF
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
  server { listen 127.0.0.1:$ngport; root $work/www; location / { default_type application/json; } }
}
CONF
nginx -c "$work/nginx.conf"
cat > "$work/random.lua" <<LUA
math.randomseed(os.time())
request = function() return wrk.format(nil, PATH_PREFIX .. math.random(1, $handles)) end
LUA
run() { # name url-or-prefix
  local name=$1 target=$2
  if [[ "$target" == *h ]]; then
    sed "s|PATH_PREFIX|\"${target#http://127.0.0.1:$port}\"|" "$work/random.lua" > "$work/r.lua"
    wrk -t2 -c64 -d"${secs}s" --latency -s "$work/r.lua" "http://127.0.0.1:$port" > "$work/$name.txt"
  else
    wrk -t2 -c64 -d"${secs}s" --latency "$target" > "$work/$name.txt"
  fi
  local rps; rps=$(awk '/Requests\/sec/ {print $2}' "$work/$name.txt")
  local p50; p50=$(awk '$1=="50%" {print $2}' "$work/$name.txt")
  local p99; p99=$(awk '$1=="99%" {print $2}' "$work/$name.txt")
  echo "$name $rps $p50 $p99"
}
# A cold JVM answers slower until C2 has compiled the request path: both measured paths are warmed first, so the
# figures are the service's, not the JIT's.
echo "warming up (30 s) ..."
sed "s|PATH_PREFIX|\"/api/handles/20.500.1/h\"|" "$work/random.lua" > "$work/warm-api.lua"
sed "s|PATH_PREFIX|\"/20.500.1/h\"|" "$work/random.lua" > "$work/warm-proxy.lua"
for lua in warm-api warm-proxy warm-api; do wrk -t2 -c64 -d10s -s "$work/$lua.lua" "http://127.0.0.1:$port" >/dev/null 2>&1 || true; done
read -r _ ng_rps ng_p50 ng_p99 <<<"$(run nginx "http://127.0.0.1:$ngport/handle.json")"
read -r _ api_rps api_p50 api_p99 <<<"$(run api "http://127.0.0.1:$port/api/handles/20.500.1/h")"
read -r _ px_rps px_p50 px_p99 <<<"$(run proxy "http://127.0.0.1:$port/20.500.1/h")"
# The same resolutions over the native Handle protocol (UDP), from several client sockets (the server's SO_REUSEPORT
# sockets are chosen by the sender's address), after a short warm-up of that path.
cp="integration-tests/target/classes:integration-tests/target/lib/*"
native_window="${FERRY_BENCH_NATIVE_WINDOW:-64}"; native_sockets="${FERRY_BENCH_NATIVE_SOCKETS:-4}"
java -cp "$cp" io.ferry.bench.NativeUdpLoad 127.0.0.1 "$nport" 20.500.1/h "$handles" 5 "$native_window" "$native_sockets" > /dev/null
java -cp "$cp" io.ferry.bench.NativeUdpLoad 127.0.0.1 "$nport" 20.500.1/h "$handles" "$secs" "$native_window" "$native_sockets" > "$work/native-udp.txt"
udp_rps=$(awk '{print $4}' "$work/native-udp.txt")
# Latency at half of each path's maximum rate, paced by a Java client (wrk cannot hold a fixed rate).
paced() { # name url-prefix rate
  java -Xlog:gc:file="$work/paced-$1-gc.log" -cp "$cp" io.ferry.bench.PacedLoad "$2" "$handles" "$(printf '%.0f' "$(echo "$3 / 2" | bc -l)")" "$secs" \
    > "$work/paced-$1.txt"
  sed -n 's/^PACED.* p99 \([0-9.]*\) ms.*/\1 ms/p' "$work/paced-$1.txt"
}
api_half=$(paced api "http://127.0.0.1:$port/api/handles/20.500.1/h" "$api_rps")
px_half=$(paced proxy "http://127.0.0.1:$port/20.500.1/h" "$px_rps")
ratio() { printf '%.2fx' "$(echo "$1 / $2" | bc -l)"; }
echo
echo "handle-resolver, one run (goals: REST and proxy >= 0.75x nginx, p99 < 2 ms at half rate; native UDP >= REST)"
printf '%-30s %12s %8s %8s %10s %10s %16s\n' path req/s "x nginx" "x REST" p50 p99 "p99 at half rate"
printf '%-30s %12s %8s %8s %10s %10s %16s\n' "nginx static file" "$ng_rps" 1.00x - "$ng_p50" "$ng_p99" -
printf '%-30s %12s %8s %8s %10s %10s %16s\n' "REST GET /api/handles/{h}" "$api_rps" "$(ratio "$api_rps" "$ng_rps")" 1.00x "$api_p50" "$api_p99" "$api_half"
printf '%-30s %12s %8s %8s %10s %10s %16s\n' "proxy GET /{h} (302)" "$px_rps" "$(ratio "$px_rps" "$ng_rps")" "$(ratio "$px_rps" "$api_rps")" "$px_p50" "$px_p99" "$px_half"
printf '%-30s %12s %8s %8s %10s %10s %16s\n' "native UDP resolution" "$udp_rps" "$(ratio "$udp_rps" "$ng_rps")" "$(ratio "$udp_rps" "$api_rps")" - - -
echo
cat "$work/native-udp.txt" "$work/paced-api.txt" "$work/paced-proxy.txt"
