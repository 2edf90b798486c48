# Shared settings of the cluster scripts (sourced, not run).
# Everything the scripts make lives under $W ($FERRY_CLUSTER_WORK, default ~/.cache/ferry/cluster) and is reused by
# the next run: the Kubernetes binaries, the debootstrap base, the image archives.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/integration-tests/cluster"
W="${FERRY_CLUSTER_WORK:-$HOME/.cache/ferry/cluster}"
mkdir -p "$W/logs"
# The cluster's network namespace: a veth pair gives the node an address, there is no default route, so nothing
# in it (pods, Service IPs, image pulls) can send a packet off this machine.
NETNS="${FERRY_CLUSTER_NETNS:-ferry-k8s}"
NODE_IP=10.250.0.1
HOST_IP=10.250.0.2
NODE_NAME=ferry-node
POD_CIDR=10.244.0.0/24
SVC_CIDR=10.96.0.0/24
K8S_VERSION=1.20.2
KUBE_BINARIES="kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy"
BIN="$W/bin"
RUN="$W/run"              # state of a running cluster (wiped at teardown)
export KUBECONFIG="$W/run/kubeconfig"
export PATH="$BIN:$PATH"
# images: tag of the Ferry images (the chart's appVersion unless FERRY_IMAGE_TAG), variant jvm or native
FERRY_TAG="${FERRY_IMAGE_TAG:-$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$ROOT/charts/ferry/Chart.yaml")}"
FERRY_VARIANT="${FERRY_IMAGE_VARIANT:-jvm}"
SERVICES="transfer-scheduler tcp-profiles handle-resolver rate-aggregator"

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }
# step NAME CMD...: runs CMD, prints how long it took (and records it in $W/logs/timings)
step() {
  local name="$1" t0 rc=0; shift
  t0=$(date +%s)
  log "== $name"
  "$@" || rc=$?
  local dt=$(( $(date +%s) - t0 ))
  printf 'STEP %-28s %4ds rc=%d\n' "$name" "$dt" "$rc" | tee -a "$W/logs/timings" >&2
  return $rc
}
# in_ns CMD...: run CMD inside the cluster's network namespace (nsenter: `ip netns exec` remounts /sys and hides
# the cgroup tree from the kubelet)
in_ns() { nsenter --net="/run/netns/$NETNS" "$@"; }
kc() { kubectl --kubeconfig "$KUBECONFIG" "$@"; }
