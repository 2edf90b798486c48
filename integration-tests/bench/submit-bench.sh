#!/usr/bin/env bash
# transfer-scheduler submission benchmark (not part of the test run): Rucio-shaped jobs of 1,000 and 10,000 files
# posted to the packaged scheduler (API-only, embedded PostgreSQL), after warm-up; median and best of each and the
# 10,000-file time against ten times the 1,000-file time of the same run. Results: docs/benchmarks.md.
#   integration-tests/bench/submit-bench.sh [rounds=9] [warm-up rounds=6]
# FERRY_BENCH_SERVICE_JVM_ARGS adds JVM options to the scheduler (a JFR recording, say).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# The scheduler and the bench are (re)built when a source is newer than the last build.
stamp=integration-tests/target/submit-bench.stamp
if [ ! -f "$stamp" ] || [ -n "$(find pom.xml services/pom.xml services/lib services/transfer-scheduler integration-tests/pom.xml \
    integration-tests/src -newer "$stamp" -type f -not -path '*/target/*' -print -quit)" ]; then
  ./mvnw -B -q -DskipTests package -pl services/transfer-scheduler,integration-tests -am
  touch "$stamp"
fi
exec java -Xmx1g -Dferry.root="$root" -Dferry.service.jvm-args="-Xms512m -Xmx1g ${FERRY_BENCH_SERVICE_JVM_ARGS:-}" \
  -cp "integration-tests/target/classes:integration-tests/target/lib/*" io.ferry.bench.SubmitBenchmark "$@"
