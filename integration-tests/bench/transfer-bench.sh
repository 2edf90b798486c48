#!/usr/bin/env bash
# transfer-scheduler benchmark (not part of the test run), one run on this machine against one nginx WebDAV server:
#  (a) 1 GiB: curl|curl, gfal-copy --copy-mode streamed and Ferry (the engine's default streams; 1 and 4 for reference),
#      interleaved rounds: times, Ferry default / best peer, nginx CPU per GiB;
#  (b) N x 1 MiB: a curl loop, gfal-copy --from-file (its bulk mode) and a Ferry job: files/s, Ferry / gfal bulk,
#      CPU per file of the scheduler, nginx and PostgreSQL;
#  (c) the 1 GiB into XRootD by HTTP third-party copy (the SE pulls) and streamed through Ferry, checksums checked.
# Installs what is missing from Debian's packages (apt-get as root, else sudo -n, as ./ferry test does): nginx-light,
# curl, gfal-copy (python3-gfal2-util, gfal2-util-scripts, gfal2-plugin-http, gfal2-plugin-file), XRootD. Results and
# how to read them: docs/benchmarks.md.
#   integration-tests/bench/transfer-bench.sh [files=1000] [max_active=16]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
missing=()
command -v nginx >/dev/null || missing+=(nginx-light)
command -v curl >/dev/null || missing+=(curl)
command -v gfal-copy >/dev/null || missing+=(gfal2-util-scripts)
/usr/bin/python3 -c 'import gfal2, gfal2_util' 2>/dev/null || missing+=(python3-gfal2-util)
ls /usr/lib/*/gfal2-plugins/libgfal_plugin_http.so >/dev/null 2>&1 || missing+=(gfal2-plugin-http)
ls /usr/lib/*/gfal2-plugins/libgfal_plugin_file.so >/dev/null 2>&1 || missing+=(gfal2-plugin-file)
command -v xrootd >/dev/null || missing+=(xrootd-server)
ls /usr/lib/*/libXrdHttpTPC-5.so >/dev/null 2>&1 || missing+=(xrootd-server-plugins)
if [ ${#missing[@]} -gt 0 ]; then
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo -n)
  echo "transfer-bench: installing ${missing[*]}"
  { ${as_root[@]+"${as_root[@]}"} apt-get update -qq \
    && ${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
    || echo "transfer-bench: could not install ${missing[*]} (as root: apt-get install --no-install-recommends ${missing[*]}); what needs them is skipped" >&2
fi
# gfal-copy runs on the first python that imports gfal2; a python earlier on the PATH (pyenv, a venv) does not
/usr/bin/python3 -c 'import gfal2, gfal2_util' 2>/dev/null && export GFAL_PYTHONBIN=/usr/bin/python3
# The scheduler, tcp-profiles, the movers and the bench are (re)built when a source is newer than the last build.
stamp=integration-tests/target/transfer-bench.stamp
if [ ! -f "$stamp" ] || [ -n "$(find pom.xml services/pom.xml services/lib services/transfer-scheduler services/tcp-profiles integration-tests/pom.xml \
    integration-tests/src -newer "$stamp" -type f -not -path '*/target/*' -print -quit)" ]; then
  ./mvnw -B -q -DskipTests package -pl services/transfer-scheduler,services/tcp-profiles,integration-tests -am
  touch "$stamp"
fi
# nginx's files live in memory (/dev/shm) when there is room, so disk writeback does not blur the comparison
tmp=/tmp; [ -w /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -gt $((12 * 1024 * 1024)) ] && tmp=/dev/shm
java -Xmx1g -Djava.io.tmpdir="$tmp" -Dferry.root="$root" -Dferry.service.jvm-args="-Xms256m -Xmx1g ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" -cp "integration-tests/target/classes:integration-tests/target/lib/*" \
  io.ferry.bench.TransferBenchmark "${1:-1000}" "${2:-16}"
