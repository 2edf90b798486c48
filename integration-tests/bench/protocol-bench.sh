#!/usr/bin/env bash
# Ferry over root:// and s3:// against the grid's own tools (not part of the test run), one run on this machine:
#  for each protocol, two SEs (two XRootD servers; two buckets of one s3proxy), then
#  (1) 1 GiB from the first to the second: xrdcp (streamed and --tpc only), gfal-copy, Ferry (streamed; for XRootD also
#      by third-party copy): times, Ferry / the faster peer;
#  (2) N x 1 MiB: gfal-copy --from-file (its bulk mode), gfal2's bulk copy, xrdcp --parallel, a Ferry job: files/s and ratios.
# Installs what is missing from Debian's packages (apt-get as root, else sudo -n): XRootD's server and client, gfal-copy
# with its xrootd and http plugins. Results and how to read them: docs/benchmarks.md.
#   integration-tests/bench/protocol-bench.sh [files=1000] [max_active=16]      FERRY_BENCH_PROTOCOLS=s3,root (default both)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
missing=()
command -v gfal-copy >/dev/null || missing+=(gfal2-util-scripts)
/usr/bin/python3 -c 'import gfal2, gfal2_util' 2>/dev/null || missing+=(python3-gfal2-util)
ls /usr/lib/*/gfal2-plugins/libgfal_plugin_http.so >/dev/null 2>&1 || missing+=(gfal2-plugin-http)
ls /usr/lib/*/gfal2-plugins/libgfal_plugin_xrootd.so >/dev/null 2>&1 || missing+=(gfal2-plugin-xrootd)
command -v xrootd >/dev/null || missing+=(xrootd-server)
command -v xrdcp >/dev/null || missing+=(xrootd-client)
ls /usr/lib/*/libXrdHttpTPC-5.so >/dev/null 2>&1 || missing+=(xrootd-server-plugins)
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
  echo "protocol-bench: installing ${missing[*]}"
  ${as_root[@]+"${as_root[@]}"} apt-get update -qq
  ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
/usr/bin/python3 -c 'import gfal2, gfal2_util' 2>/dev/null && export GFAL_PYTHONBIN=/usr/bin/python3
stamp=integration-tests/target/protocol-bench.stamp
if [ ! -f "$stamp" ] || [ ! -f integration-tests/target/s3proxy/s3proxy.jar ] || [ -n "$(find pom.xml services/pom.xml services/lib \
    services/transfer-scheduler services/tcp-profiles integration-tests/pom.xml integration-tests/src -newer "$stamp" -type f -not -path '*/target/*' -print -quit)" ]; then
  ./mvnw -B -q -DskipTests package -pl services/transfer-scheduler,services/tcp-profiles,integration-tests -am
  touch "$stamp"
fi
java -Xmx1g -Dferry.root="$root" -Dferry.s3proxy.jar="$root/integration-tests/target/s3proxy/s3proxy.jar" \
  -Dferry.service.jvm-args="-Xms256m -Xmx1g ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" -cp "integration-tests/target/classes:integration-tests/target/lib/*" \
  io.ferry.bench.ProtocolBenchmark "${1:-1000}" "${2:-16}"
