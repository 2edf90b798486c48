#!/usr/bin/env bash
# rate-aggregator benchmark (not part of the test run): ingest records/s, 12 h per-link query p50/p99 vs raw SQL.
#   integration-tests/bench/rates-bench.sh [records=1000000] [clients=4] [backfill|live]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
[ -f services/rate-aggregator/target/quarkus-app/quarkus-run.jar ] && [ -d integration-tests/target/lib ] \
  || ./mvnw -B -q -DskipTests install
exec java -Xmx2g -Dferry.root="$root" -Dferry.service.jvm-args="-Xms2g -Xmx2g -Xmn1200m ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" -cp "integration-tests/target/classes:integration-tests/target/lib/*" \
  io.ferry.bench.RatesBenchmark "$@"
