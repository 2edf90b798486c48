#!/usr/bin/env bash
# Builds Ferry's native executables, one after the other (a build takes about 4-6 GB and both cores):
#   integration-tests/native-toolchain/build-native.sh [module...]
# modules: services/transfer-scheduler services/tcp-profiles services/handle-resolver services/rate-aggregator
# (Quarkus, the usual -Dquarkus.native.enabled=true build) and services/cli (the ferry command: a picocli jar,
# given to native-image directly); default all five. Results: services/<name>/target/<name>-<version>-runner
# and services/cli/target/ferry, each with target/lib/ holding the JDK libraries it links (RUNPATH $ORIGIN/lib)
# when built with this folder's test toolchain.
#   FERRY_NATIVE_XMX       the image builder's heap (default 5g)
#   FERRY_NATIVE_OPTIMIZE  the builder's optimization level (-O<level>): unset keeps its default (2, what sites and
#                          the benchmarks get); "b" is the quick build mode CI uses to test the executables: the
#                          same analysis (most of a build's time), fewer compiler optimizations, a shorter compile
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

modules=("$@")
(( ${#modules[@]} )) || modules=(services/transfer-scheduler services/tcp-profiles services/handle-resolver services/rate-aggregator services/cli)
xmx="${FERRY_NATIVE_XMX:-5g}"
optimize=()
quarkus_optimize=()
if [[ -n "${FERRY_NATIVE_OPTIMIZE:-}" ]]; then
  optimize=("-O$FERRY_NATIVE_OPTIMIZE")
  quarkus_optimize=("-Dquarkus.native.additional-build-args=-O$FERRY_NATIVE_OPTIMIZE")
fi
home="$("$here/assemble-home.sh")"
echo "build-native: native-image home $home"

# Only the test toolchain's executables need the JDK's .so files beside them; a real GraalVM links them statically.
ship_runtime_libs() {
  local target="$1"
  if [[ -d "$home/lib/svm/runtime-libs" ]]; then
    mkdir -p "$target/lib"
    cp "$home"/lib/svm/runtime-libs/*.so "$target/lib/"
  fi
}

for module in "${modules[@]}"; do
  module="${module%/}"
  start=$(date +%s)
  if [[ "$module" == services/cli ]]; then
    ./mvnw -B -q -pl "$module" -am package -DskipTests
    jar="$(ls "$module"/target/ferry-cli-*.jar | grep -vE 'original|sources|javadoc' | head -1)"
    "$home/bin/native-image" -J-Xmx"$xmx" --no-fallback "${optimize[@]}" -jar "$jar" -o "$module/target/ferry"
  else
    ./mvnw -B -q -pl "$module" -am package -DskipTests -Dquarkus.native.enabled=true \
      -Dquarkus.native.graalvm-home="$home" -Dquarkus.native.native-image-xmx="$xmx" "${quarkus_optimize[@]}"
  fi
  ship_runtime_libs "$module/target"
  echo "build-native: $module built in $(( $(date +%s) - start )) s"
done
