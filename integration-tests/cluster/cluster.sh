#!/usr/bin/env bash
# ./ferry cluster up|down|status|kubectl ARGS|helm ARGS|test
# A single-node Kubernetes 1.20 (binaries from setup.sh) with containerd, inside its own network namespace with no
# route out: etcd, kube-apiserver, -controller-manager, -scheduler, kubelet, kube-proxy, bridge CNI and a dnsmasq
# stand-in for cluster DNS. Its state lives in $W/run and is removed by `down`, which also stops every process,
# unmounts what the kubelet and containerd mounted and removes the namespace and the pods' cgroups.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VETH_HOST=ferryk8s0
VETH_NODE=ferryk8s1
CNI_NET=ferry-cluster
CGROUP_PARENT=ferry-kubepods

start() {   # start NAME CMD...: a background process in the namespace, pid in $RUN/pids/NAME, output in $RUN/logs/NAME.log
  local name="$1"; shift
  # the process writes its own pid, then becomes CMD (the same pid: nothing forks in between)
  nsenter --net="/run/netns/$NETNS" sh -c 'echo $$ > "$0"; exec "$@"' "$RUN/pids/$name" "$@" > "$RUN/logs/$name.log" 2>&1 < /dev/null &
  local n
  for n in $(seq 1 50); do [ -s "$RUN/pids/$name" ] && return 0; sleep 0.1; done
  die "$name did not start"
}
wait_for() {  # wait_for SECONDS WHAT CMD...
  local deadline=$(( $(date +%s) + $1 )) what="$2"; shift 2
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || die "timed out waiting for $what"
    sleep 0.5
  done
}

certs() {
  local p="$RUN/pki"; mkdir -p "$p"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=kube-apiserver" -keyout "$p/apiserver.key" -out "$p/apiserver.crt" \
    -addext "subjectAltName=IP:$NODE_IP,IP:10.96.0.1,IP:127.0.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,digitalSignature,keyEncipherment,keyCertSign" \
    -addext "extendedKeyUsage=serverAuth" 2>/dev/null
  openssl genrsa -out "$p/sa.key" 2048 2>/dev/null
  openssl rsa -in "$p/sa.key" -pubout -out "$p/sa.pub" 2>/dev/null
  # one token per component; all of them cluster admins: a throw-away test cluster
  : > "$p/tokens.csv"
  local c
  for c in admin kube-controller-manager kube-scheduler kubelet kube-proxy; do
    local t; t=$(openssl rand -hex 16)
    echo "$t,$c,$c,\"system:masters\"" >> "$p/tokens.csv"
    cat > "$RUN/$c.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters: [{name: ferry, cluster: {server: "https://127.0.0.1:6443", certificate-authority: "$p/apiserver.crt"}}]
users: [{name: $c, user: {token: "$t"}}]
contexts: [{name: ferry, context: {cluster: ferry, user: $c, namespace: default}}]
current-context: ferry
KC
  done
  cp "$RUN/admin.kubeconfig" "$RUN/kubeconfig"
}

containerd_config() {
  mkdir -p "$RUN/containerd" "$RUN/cni/net.d" "$RUN/cni/ipam" "$RUN/cni/cache"
  cat > "$RUN/containerd/config.toml" <<TOML
version = 2
root = "$RUN/containerd/root"
state = "$RUN/containerd/state"
[grpc]
  address = "$RUN/containerd/containerd.sock"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "localhost/pause:local"
  disable_apparmor = true
  # the sandbox withholds CAP_SYS_RESOURCE: runc must not lower oom_score_adj (else every pod fails to start)
  restrict_oom_score_adj = true
  # pods' network namespaces under the state directory, not /run/netns
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        Root = "$RUN/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$RUN/cni/net.d"
TOML
  cat > "$RUN/cni/net.d/10-ferry.conflist" <<JSON
{"cniVersion": "0.4.0", "name": "$CNI_NET", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}], "dataDir": "$RUN/cni/ipam"}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
JSON
}

kubelet_config() {
  echo "nameserver $NODE_IP" > "$RUN/resolv.conf"
  cat > "$RUN/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: cgroupfs
cgroupRoot: /$CGROUP_PARENT
cgroupsPerQOS: true
failSwapOn: false
authentication: {anonymous: {enabled: true}, webhook: {enabled: false}}
authorization: {mode: AlwaysAllow}
clusterDNS: [$NODE_IP]
clusterDomain: cluster.local
resolvConf: $RUN/resolv.conf
evictionHard: {memory.available: "200Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
serializeImagePulls: false
maxPods: 60
YAML
}

up() {
  [ -e "/run/netns/$NETNS" ] && die "namespace $NETNS exists: a cluster is up (./ferry cluster down first)"
  for b in $KUBE_BINARIES helm; do [ -x "$BIN/$b" ] || die "$BIN/$b missing: ./ferry cluster setup"; done
  rm -rf "$RUN"; mkdir -p "$RUN/pids" "$RUN/logs"
  # what exists before, so `down` removes only what the cluster added
  [ -d /var/log/pods ] && touch "$RUN/had-var-log-pods"
  [ -d /run/containerd ] && touch "$RUN/had-run-containerd"
  [ -d /var/lib/cni ] && touch "$RUN/had-var-lib-cni"
  { ls /run/netns 2>/dev/null || true; } | sort > "$RUN/netns-before"

  log "network namespace $NETNS: node $NODE_IP, no default route"
  ip netns add "$NETNS"
  ip link add "$VETH_HOST" type veth peer name "$VETH_NODE"
  ip link set "$VETH_NODE" netns "$NETNS"
  ip link set "$VETH_HOST" up
  in_ns ip link set lo up
  in_ns ip addr add "$NODE_IP/24" dev "$VETH_NODE"
  in_ns ip link set "$VETH_NODE" up
  # Service IPs are reached from the namespace's own processes (the checks, kubectl port-less calls) through kube-proxy
  in_ns ip route add "$SVC_CIDR" dev "$VETH_NODE" src "$NODE_IP"
  in_ns sysctl -qw net.ipv4.ip_forward=1
  in_ns sysctl -qw net.bridge.bridge-nf-call-iptables=1 2>/dev/null || true
  in_ns sysctl -qw net.ipv4.conf.all.route_localnet=1

  certs; containerd_config; kubelet_config
  start containerd containerd --config "$RUN/containerd/config.toml"
  start etcd etcd --name ferry --data-dir "$RUN/etcd" --listen-client-urls http://127.0.0.1:2379 \
    --advertise-client-urls http://127.0.0.1:2379 --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster ferry=http://127.0.0.1:2380
  wait_for 30 "etcd" in_ns curl -sf http://127.0.0.1:2379/health
  local p="$RUN/pki"
  start kube-apiserver "$BIN/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 --bind-address=0.0.0.0 --secure-port=6443 \
    --advertise-address="$NODE_IP" --insecure-port=0 --tls-cert-file="$p/apiserver.crt" --tls-private-key-file="$p/apiserver.key" \
    --token-auth-file="$p/tokens.csv" --authorization-mode=Node,RBAC --service-account-key-file="$p/sa.pub" \
    --service-account-signing-key-file="$p/sa.key" --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-cluster-ip-range="$SVC_CIDR" --kubelet-preferred-address-types=InternalIP --allow-privileged=true \
    --enable-admission-plugins=NodeRestriction --profiling=false
  wait_for 60 "kube-apiserver" in_ns kubectl --kubeconfig "$KUBECONFIG" get --raw /readyz
  start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig="$RUN/kube-controller-manager.kubeconfig" \
    --service-account-private-key-file="$p/sa.key" --root-ca-file="$p/apiserver.crt" --controllers='*,-csrsigning' \
    --leader-elect=false --port=0 --use-service-account-credentials=false --profiling=false
  start kube-scheduler "$BIN/kube-scheduler" --kubeconfig="$RUN/kube-scheduler.kubeconfig" --leader-elect=false --port=0
  wait_for 30 "containerd" test -S "$RUN/containerd/containerd.sock"
  "$HERE/images.sh" load 2>"$RUN/logs/images-load.log" || { cat "$RUN/logs/images-load.log" >&2; die "image import failed"; }
  # the kubelet's cgroup root, in every hierarchy (cpuset's needs its CPUs and memory nodes filled in)
  local h
  for h in /sys/fs/cgroup/*/; do mkdir -p "$h$CGROUP_PARENT" 2>/dev/null || true; done
  if [ -d "/sys/fs/cgroup/cpuset/$CGROUP_PARENT" ]; then
    cat /sys/fs/cgroup/cpuset/cpuset.cpus > "/sys/fs/cgroup/cpuset/$CGROUP_PARENT/cpuset.cpus"
    cat /sys/fs/cgroup/cpuset/cpuset.mems > "/sys/fs/cgroup/cpuset/$CGROUP_PARENT/cpuset.mems"
  fi
  start kubelet "$BIN/kubelet" --config="$RUN/kubelet.yaml" --kubeconfig="$RUN/kubelet.kubeconfig" \
    --container-runtime=remote --container-runtime-endpoint="unix://$RUN/containerd/containerd.sock" \
    --root-dir="$RUN/kubelet" --volume-plugin-dir="$RUN/kubelet-plugins" --cert-dir="$RUN/kubelet-pki" \
    --node-ip="$NODE_IP" --hostname-override="$NODE_NAME" --pod-infra-container-image=localhost/pause:local
  start kube-proxy "$BIN/kube-proxy" --kubeconfig="$RUN/kube-proxy.kubeconfig" --proxy-mode=iptables \
    --cluster-cidr=10.244.0.0/16 --hostname-override="$NODE_NAME" --conntrack-max-per-core=0 \
    --conntrack-tcp-timeout-established=0 --conntrack-tcp-timeout-close-wait=0
  mkdir -p "$RUN/dns"; : > "$RUN/dns/hosts"
  start dnsmasq dnsmasq --keep-in-foreground --conf-file=/dev/null --no-resolv --no-hosts --addn-hosts="$RUN/dns/hosts" \
    --listen-address="$NODE_IP" --bind-interfaces --local=/cluster.local/ --user=root --group=root --pid-file= --cache-size=0
  # dns-sync sends dnsmasq SIGHUP: only once dnsmasq has its handler (it answers on port 53)
  wait_for 20 "dnsmasq" sh -c "nsenter --net=/run/netns/$NETNS ss -lun | grep -q '$NODE_IP:53 '"
  start dns-sync python3 "$HERE/dns-sync.py" "$RUN/dns/hosts" "$RUN/pids/dnsmasq"
  wait_for 60 "node $NODE_NAME Ready" sh -c "nsenter --net=/run/netns/$NETNS kubectl --kubeconfig $KUBECONFIG get node $NODE_NAME -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
  in_ns kubectl get nodes -o wide >&2
}

# every pid of the processes the cluster started: its own (pid files), containerd's shims and the containers
cluster_pids() {
  local f pid
  for f in "$RUN"/pids/*; do [ -f "$f" ] && pid=$(cat "$f") && [ -d "/proc/$pid" ] && echo "$pid"; done
  # shims are started with our socket's address on their command line
  for pid in $(ls /proc | grep -E '^[0-9]+$'); do
    { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | grep -qF -- "-address $RUN/containerd/containerd.sock" && echo "$pid"
  done
  container_pids
}
container_pids() {
  [ -d "/sys/fs/cgroup/pids/$CGROUP_PARENT" ] && find "/sys/fs/cgroup/pids/$CGROUP_PARENT" -name cgroup.procs -exec cat {} + 2>/dev/null
  return 0
}

down() {
  [ -d "$RUN" ] || { [ -e "/run/netns/$NETNS" ] || { log "no cluster"; return 0; }; }
  log "teardown"
  local pid n
  # the kubelet first (it would restart what is killed), then the containers, then the rest
  [ -f "$RUN/pids/kubelet" ] && kill "$(cat "$RUN/pids/kubelet")" 2>/dev/null || true
  [ -f "$RUN/pids/dns-sync" ] && kill "$(cat "$RUN/pids/dns-sync")" 2>/dev/null || true
  for n in 1 2 3 4 5; do
    for pid in $(container_pids); do kill -9 "$pid" 2>/dev/null || true; done
    [ -z "$(container_pids)" ] && break; sleep 0.5
  done
  for pid in $(cluster_pids); do kill "$pid" 2>/dev/null || true; done
  for n in $(seq 1 20); do [ -z "$(cluster_pids)" ] && break; sleep 0.5; done
  for pid in $(cluster_pids); do kill -9 "$pid" 2>/dev/null || true; done
  sleep 0.5
  # mounts under $RUN (volumes, overlay roots, pods' netns, shm), deepest first
  local m
  for n in 1 2 3; do
    for m in $(awk -v r="$RUN/" 'index($2, r) == 1 {print $2}' /proc/self/mounts | sort -r); do umount -l "$m" 2>/dev/null || true; done
  done
  # pods' namespaces, had containerd put them in /run/netns (they are under the state dir normally)
  if [ -f "$RUN/netns-before" ]; then
    for m in $({ ls /run/netns 2>/dev/null || true; } | grep '^cni-' | sort | comm -13 "$RUN/netns-before" -); do ip netns delete "$m" 2>/dev/null || true; done
  fi
  ip netns delete "$NETNS" 2>/dev/null || true
  ip link delete "$VETH_HOST" 2>/dev/null || true
  # cgroups the kubelet made (its root /$CGROUP_PARENT), in every hierarchy, deepest first
  local h
  for h in /sys/fs/cgroup/*/; do
    [ -d "$h$CGROUP_PARENT" ] && find "$h$CGROUP_PARENT" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
  # files the kubelet 1.20, libcni and containerd put outside $RUN
  [ -f "$RUN/had-var-log-pods" ] || rm -rf /var/log/pods
  [ -f "$RUN/had-run-containerd" ] || rm -rf /run/containerd
  if [ -f "$RUN/had-var-lib-cni" ]; then rm -f /var/lib/cni/results/$CNI_NET-*; else rm -rf /var/lib/cni; fi
  # keep the logs of the last run, drop the rest
  rm -rf "$W/logs/last-cluster"; mkdir -p "$W/logs/last-cluster"; cp -r "$RUN/logs/." "$W/logs/last-cluster/" 2>/dev/null || true
  rm -rf "$RUN" 2>/dev/null || { sleep 2; rm -rf "$RUN" || true; }
  local left=""
  [ -e "/run/netns/$NETNS" ] && left+=" netns"
  awk -v r="$RUN/" 'index($2, r) == 1' /proc/self/mounts | grep -q . && left+=" mounts"
  ls -d /sys/fs/cgroup/*/$CGROUP_PARENT >/dev/null 2>&1 && left+=" cgroups"
  [ -n "$left" ] && { log "teardown left:$left"; return 1; }
  log "teardown: nothing left"
}

status() {
  [ -e "/run/netns/$NETNS" ] || { echo "cluster: down"; return 1; }
  in_ns kubectl get nodes,pods -A -o wide
}

cmd="${1:-}"; shift || true
case "$cmd" in
  setup) "$HERE/setup.sh" "$@" ;;
  up) up ;;
  down) down ;;
  status) status ;;
  kubectl) in_ns kubectl "$@" ;;
  helm) in_ns helm "$@" ;;
  sh) in_ns "${@:-bash}" ;;
  test) exec "$HERE/test.sh" "$@" ;;
  *) echo "usage: ./ferry cluster setup|up|down|status|kubectl ARGS|helm ARGS|sh [CMD]|test" >&2; exit 2 ;;
esac
