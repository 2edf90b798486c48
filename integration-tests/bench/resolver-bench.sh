#!/usr/bin/env bash
# handle-resolver benchmark (not part of the test run): 1 M handles; wrk against GET /api/handles, proxy redirects
# and nginx serving a static file of the same size (the HTTP ceiling of this machine). Installs wrk and nginx
# from Debian's packages when missing. The resolver's cache gets cache-mb MiB (the default holds the 1 M handles;
# docs/benchmarks.md has the size per handle); 0 turns it off and measures the database path.
# The resolver runs as the JVM variant is deployed (full JIT, G1, the heap its README recommends for the cache), not
# the small fast-starting JVM of tests and ./ferry up. On a machine of two or more cores the servers (the resolver
# with its PostgreSQL, and nginx) are pinned to the upper half of the cores and the load generators (wrk and the Java
# clients) to the lower half, the same way for nginx and the resolver, so neither server competes with its load for a
# core; FERRY_BENCH_PIN=0 shares all cores, as before. Each phase prints the server's CPU per request (from /proc,
# a figure that depends little on other load) and how many of its cores it kept busy.
#   integration-tests/bench/resolver-bench.sh [handles=1000000] [seconds=15] [cache-mb=1200]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
handles="${1:-1000000}"; secs="${2:-15}"; cache_mb="${3:-1200}"
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
ncpu=$(nproc)
if [ "${FERRY_BENCH_PIN:-1}" = 1 ] && [ "$ncpu" -ge 2 ]; then
  server_cpus="${FERRY_BENCH_SERVER_CPUS:-$(seq -s, $((ncpu / 2)) $((ncpu - 1)))}"
  client_cpus="${FERRY_BENCH_CLIENT_CPUS:-$(seq -s, 0 $((ncpu / 2 - 1)))}"
  on_server=(taskset -c "$server_cpus"); on_client=(taskset -c "$client_cpus")
  placement="servers pinned to cores $server_cpus, load generators to cores $client_cpus (taskset)"
else
  on_server=(); on_client=(); server_cpus=$(seq -s, 0 $((ncpu - 1))); client_cpus=$server_cpus; placement="servers and load generators share all $ncpu cores"
fi
server_cores=$("${on_server[@]}" nproc); client_cores=$("${on_client[@]}" nproc)
ngport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${on_server[@]}" java -Xmx1g -Dferry.root="$root" -Dferry.service.jvm-args="-Xms$((2 * cache_mb + 768))m -Xmx$((2 * cache_mb + 768))m -XX:MaxTenuringThreshold=2 -Xmn256m -Xlog:gc:file=$work/resolver-gc.log ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" -cp "integration-tests/target/classes:integration-tests/target/lib/*" \
  io.ferry.bench.ResolverBenchmark "$handles" "$port" > "$work/prepare.log" 2>&1 &
prep=$!
trap 'kill $prep 2>/dev/null; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; wait 2>/dev/null' EXIT
until grep -q '^SAMPLE' "$work/prepare.log"; do sleep 1; kill -0 $prep 2>/dev/null || { cat "$work/prepare.log"; exit 1; }; done
grep -E '^(LOADED|CACHED|SAMPLE)' "$work/prepare.log"
cp integration-tests/target/bench-resolver/sample.json "$work/www/handle.json"
cat > "$work/nginx.conf" <<CONF
worker_processes $server_cores;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  # connections are kept as long as the client keeps them, as the resolver keeps them (nginx closes after 1,000
  # requests by default, which the paced client would count as errors)
  keepalive_requests 100000000;
  client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
  server { listen 127.0.0.1:$ngport; root $work/www; location / { default_type application/json; }
    # the paced client's requests (/h<key>) get the same file
    location /h { default_type application/json; try_files /handle.json =404; } }
}
CONF
"${on_server[@]}" nginx -c "$work/nginx.conf"
until [ -s "$work/nginx.pid" ]; do sleep 0.2; done
ng_pids="$(cat "$work/nginx.pid") $(ps -o pid= --ppid "$(cat "$work/nginx.pid")" | tr '\n' ' ')"
rs_pid=$(awk '/^PID/ {print $2}' "$work/prepare.log")
tck=$(getconf CLK_TCK)
# CPU time (user + system, clock ticks) the given processes have used so far.
ticks() { local t=0 p; for p in "$@"; do [ -r "/proc/$p/stat" ] && t=$((t + $(sed 's/.*) //' "/proc/$p/stat" | awk '{print $12 + $13}'))); done; echo $t; }
# "µs of CPU per request, cores kept busy" from the ticks spent over n requests in secs seconds.
per_request() { echo "$1 $2 $3" | awk -v t="$tck" '{ printf "%.1f %.2f", $1 / t * 1e6 / ($2 > 0 ? $2 : 1), $1 / t / $3 }'; }
cat > "$work/random.lua" <<LUA
math.randomseed(os.time())
request = function() return wrk.format(nil, PATH_PREFIX .. math.random(1, $handles)) end
LUA
run() { # name url-or-prefix
  local name=$1 target=$2 pids=$3 t0 t1
  t0=$(ticks $pids)
  if [[ "$target" == *h ]]; then
    sed "s|PATH_PREFIX|\"${target#http://127.0.0.1:$port}\"|" "$work/random.lua" > "$work/r.lua"
    "${on_client[@]}" wrk -t"$client_cores" -c64 -d"${secs}s" --latency -s "$work/r.lua" "http://127.0.0.1:$port" > "$work/$name.txt"
  else
    "${on_client[@]}" wrk -t"$client_cores" -c64 -d"${secs}s" --latency "$target" > "$work/$name.txt"
  fi
  t1=$(ticks $pids)
  local rps; rps=$(awk '/Requests\/sec/ {print $2}' "$work/$name.txt")
  local p50; p50=$(awk '$1=="50%" {print $2}' "$work/$name.txt")
  local p99; p99=$(awk '$1=="99%" {print $2}' "$work/$name.txt")
  local n; n=$(awk '/requests in/ {print $1}' "$work/$name.txt")
  echo "$name $rps $p50 $p99 $(per_request $((t1 - t0)) "$n" "$secs")"
}
# A cold JVM answers slower until C2 has compiled the request path: both measured paths are warmed first, so the
# figures are the service's, not the JIT's.
echo "warming up (30 s) ..."
sed "s|PATH_PREFIX|\"/api/handles/20.500.1/h\"|" "$work/random.lua" > "$work/warm-api.lua"
sed "s|PATH_PREFIX|\"/20.500.1/h\"|" "$work/random.lua" > "$work/warm-proxy.lua"
for lua in warm-api warm-proxy warm-api; do "${on_client[@]}" wrk -t"$client_cores" -c64 -d10s -s "$work/$lua.lua" "http://127.0.0.1:$port" >/dev/null 2>&1 || true; done
read -r _ ng_rps ng_p50 ng_p99 ng_cpu ng_busy <<<"$(run nginx "http://127.0.0.1:$ngport/handle.json" "$ng_pids")"
read -r _ api_rps api_p50 api_p99 api_cpu api_busy <<<"$(run api "http://127.0.0.1:$port/api/handles/20.500.1/h" "$rs_pid")"
read -r _ px_rps px_p50 px_p99 px_cpu px_busy <<<"$(run proxy "http://127.0.0.1:$port/20.500.1/h" "$rs_pid")"
# The same resolutions over the native Handle protocol (UDP), from several client sockets (the server's SO_REUSEPORT
# sockets are chosen by the sender's address), after a short warm-up of that path.
cp="integration-tests/target/classes:integration-tests/target/lib/*"
native_window="${FERRY_BENCH_NATIVE_WINDOW:-64}"; native_sockets="${FERRY_BENCH_NATIVE_SOCKETS:-4}"
"${on_client[@]}" java -cp "$cp" io.ferry.bench.NativeUdpLoad 127.0.0.1 "$nport" 20.500.1/h "$handles" 5 "$native_window" "$native_sockets" > /dev/null
t0=$(ticks "$rs_pid")
"${on_client[@]}" java -cp "$cp" io.ferry.bench.NativeUdpLoad 127.0.0.1 "$nport" 20.500.1/h "$handles" "$secs" "$native_window" "$native_sockets" > "$work/native-udp.txt"
t1=$(ticks "$rs_pid")
udp_rps=$(awk '{print $4}' "$work/native-udp.txt")
read -r udp_cpu udp_busy <<<"$(per_request $((t1 - t0)) "$(sed -n 's/.*(\([0-9]*\) answered.*/\1/p' "$work/native-udp.txt")" "$secs")"
# Latency at half of each path's maximum rate, paced by a C client (wrk cannot hold a fixed rate; a JVM client at these
# rates stalled by itself, its JIT and GC, even against nginx). The same client against nginx at the REST path's rate
# is printed too: the floor this machine and client give. The GC pauses in a -Xlog:gc log after its first n lines:
# "count longest-ms".
gcc -O2 -o "$work/paced-load" integration-tests/bench/paced-load.c -lm
gc_pauses() { tail -n +"$(($2 + 1))" "$1" | awk '/Pause/ && !/Concurrent/ { n++; v = $NF; sub(/ms/, "", v); if (v + 0 > m) m = v + 0 } END { printf "%d %.1f", n, m }'; }
# Time the hypervisor gave this machine's cores to other guests (steal, ms, summed over the given cores of /proc/stat):
# a shared VM can lose its core for tens of milliseconds, which shows as tail latency no server can help.
steal_ms() { local c sum=0 t; for c in ${1//,/ }; do t=$(awk -v c="cpu$c" '$1 == c {print $9}' /proc/stat); sum=$((sum + t)); done; echo $((sum * 1000 / tck)); }
paced() { # name port path-prefix rate
  local from; from=$(wc -l < "$work/resolver-gc.log")
  local s0 c0; s0=$(steal_ms "$server_cpus"); c0=$(steal_ms "$client_cpus")
  "${on_client[@]}" "$work/paced-load" 127.0.0.1 "$2" "$3" "$handles" "$(printf '%.0f' "$(echo "$4 / 2" | bc -l)")" "$secs" > "$work/paced-$1.txt"
  if [ "$1" != nginx ]; then
    read -r n longest <<<"$(gc_pauses "$work/resolver-gc.log" "$from")"
    echo "GC       during the paced $1 phase: resolver $n pauses, longest $longest ms" >> "$work/paced-$1.txt"
  fi
  echo "STEAL    during the paced $1 phase: the servers' cores lost $(($(steal_ms "$server_cpus") - s0)) ms, the load generators' $(($(steal_ms "$client_cpus") - c0)) ms to other guests" >> "$work/paced-$1.txt"
  sed -n 's/^PACED.* p99 \([0-9.]*\) ms.*/\1 ms/p' "$work/paced-$1.txt"
}
api_half=$(paced api "$port" /api/handles/20.500.1/h "$api_rps")
px_half=$(paced proxy "$port" /20.500.1/h "$px_rps")
ng_half=$(paced nginx "$ngport" /h "$api_rps")
ratio() { printf '%.2fx' "$(echo "$1 / $2" | bc -l)"; }
# What ran: the resolver's JVM options as its process was started, and the collector it chose.
jvm_opts=$(tr '\0' '\n' < "/proc/$rs_pid/cmdline" | awk 'NR > 1 && /^-X/' | grep -v '^-Xlog' | tr '\n' ' ')
gc_name=$(sed -n 's/.*Using \(.*\)$/\1/p' "$work/resolver-gc.log" | head -1)
echo
echo "handle-resolver, one run (goals: REST and proxy >= 0.75x nginx, p99 < 2 ms at half rate; native UDP >= REST)"
echo "resolver: JVM variant ($(java -version 2>&1 | head -1), full JIT, ${gc_name:-collector unknown}, ${jvm_opts% }); $placement; $(uptime | sed 's/.*load average/load average/')"
printf '%-30s %12s %8s %8s %10s %10s %16s %11s %7s\n' path req/s "x nginx" "x REST" p50 p99 "p99 at half rate" "CPU us/req" cores
printf '%-30s %12s %8s %8s %10s %10s %16s %11s %7s\n' "nginx static file" "$ng_rps" 1.00x - "$ng_p50" "$ng_p99" "$ng_half" "$ng_cpu" "$ng_busy"
printf '%-30s %12s %8s %8s %10s %10s %16s %11s %7s\n' "REST GET /api/handles/{h}" "$api_rps" "$(ratio "$api_rps" "$ng_rps")" 1.00x "$api_p50" "$api_p99" "$api_half" "$api_cpu" "$api_busy"
printf '%-30s %12s %8s %8s %10s %10s %16s %11s %7s\n' "proxy GET /{h} (302)" "$px_rps" "$(ratio "$px_rps" "$ng_rps")" "$(ratio "$px_rps" "$api_rps")" "$px_p50" "$px_p99" "$px_half" "$px_cpu" "$px_busy"
printf '%-30s %12s %8s %8s %10s %10s %16s %11s %7s\n' "native UDP resolution" "$udp_rps" "$(ratio "$udp_rps" "$ng_rps")" "$(ratio "$udp_rps" "$api_rps")" - - - "$udp_cpu" "$udp_busy"
echo
cat "$work/native-udp.txt" "$work/paced-api.txt" "$work/paced-proxy.txt"
sed 's/(half of the maximum)/(the REST rate, against nginx)/' "$work/paced-nginx.txt"
