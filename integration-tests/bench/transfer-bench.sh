#!/usr/bin/env bash
# transfer-scheduler benchmark (not part of the test run), one run on this machine against one nginx WebDAV server:
#  (a) 1 GiB through Ferry (1 stream; 4 for comparison) vs `curl src | curl -T - dst` and `gfal-copy --copy-mode streamed`, medians of 3 rounds;
#  (b) a job of N x 1 MiB files: files/s and overhead ratio (end-to-end / the same bytes as one file) vs a curl loop;
#  (c) the 1 GiB into XRootD by HTTP third-party copy (the SE pulls) and streamed through Ferry, checksums checked.
# Installs nginx-light, curl and gfal2-util-scripts (with gfal2-plugin-http) from Debian's packages when missing.
#   integration-tests/bench/transfer-bench.sh [files=1000] [max_active=16]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
command -v nginx >/dev/null && command -v curl >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light curl; }
# gfal-copy (Debian's gfal2 command-line scripts and HTTP plugin) is the grid peer of (a); skipped if it cannot be installed
command -v gfal-copy >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gfal2-util-scripts gfal2-plugin-http; } \
  || echo "gfal-copy could not be installed; (a) compares with curl only" >&2
# gfal-copy runs on the first python that imports gfal2; a python earlier on the PATH (pyenv, a venv) does not
/usr/bin/python3 -c 'import gfal2, gfal2_util' 2>/dev/null && export GFAL_PYTHONBIN=/usr/bin/python3
# (c) copies into XRootD by third-party copy (its HTTP-TPC plugin) and streamed; skipped if it cannot be installed
{ command -v xrootd >/dev/null && ls /usr/lib/*/libXrdHttpTPC-5.so >/dev/null 2>&1; } \
  || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xrootd-server xrootd-server-plugins; } \
  || echo "XRootD could not be installed; (c) is skipped" >&2
[ -f services/transfer-scheduler/target/quarkus-app/quarkus-run.jar ] && [ -d integration-tests/target/lib ] || ./mvnw -B -q -DskipTests install
# nginx's files live in memory (/dev/shm) when there is room, so disk writeback does not blur the comparison
tmp=/tmp; [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt $((12 * 1024 * 1024)) ] && tmp=/dev/shm
java -Xmx1g -Djava.io.tmpdir="$tmp" -Dferry.root="$root" -Dferry.service.jvm-args="-Xms256m -Xmx1g ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" -cp "integration-tests/target/classes:integration-tests/target/lib/*" \
  io.ferry.bench.TransferBenchmark "${1:-1000}" "${2:-16}"
