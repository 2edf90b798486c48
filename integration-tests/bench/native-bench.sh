#!/usr/bin/env bash
# JVM against native executables on this machine, in one run (not part of the test run):
#   integration-tests/bench/native-bench.sh [requests=10000] [modes=jvm,native] [services=all four, comma-separated]
# Per service: exec to ready (/q/health/ready 200), RSS idle and after the requests; then the ferry command's
# wall time (--help, status) as a jar and as services/cli/target/ferry. Needs both builds: ./mvnw -DskipTests
# package (the jars) and integration-tests/native-toolchain/build-native.sh (the executables).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
cp="integration-tests/target/classes:integration-tests/target/lib/*"
java -Dferry.root="$root" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$cp" io.ferry.bench.NativeBenchmark "$@"

# The ferry command: median of 10 runs each.
median_ms() {
  local times=()
  for _ in $(seq 10); do
    local t0 t1
    t0=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 5p
}
cli_jar="$(ls integration-tests/target/lib/ferry-cli-*.jar 2>/dev/null | head -1 || true)"
echo "command            jvm_ms  native_ms"
for args in "--help" "status"; do
  jvm=-; native=-
  [[ -n "$cli_jar" ]] && jvm=$(median_ms java -cp "$cli_jar" io.ferry.cli.Main $args)
  [[ -x services/cli/target/ferry ]] && native=$(median_ms services/cli/target/ferry $args)
  printf 'ferry %-12s %6s  %9s\n' "$args" "$jvm" "$native"
done
