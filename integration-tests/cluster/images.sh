#!/usr/bin/env bash
# ./ferry images [--load]: OCI images of the four services and of the test cluster's helpers, built without a
# registry or a daemon (debootstrap + buildah), written as OCI archives to $W/images/*.tar:
#   localhost/ferry/<service>:<tag>-<variant>  variant jvm (target/quarkus-app of `./mvnw package`) or native
#                                              (target/*-runner and target/lib/*.so of a native build);
#                                              FERRY_IMAGE_VARIANT=native|jvm, FERRY_IMAGE_TAG (default appVersion)
#   docker.io/library/postgres:15.10           PostgreSQL stand-in for the chart's in-cluster database (Debian's 15)
#   localhost/ferry/webdav:test                nginx WebDAV storage element for test jobs
#   localhost/pause:local                      the pod sandbox, Kubernetes' own pause.c
# The Debian root filesystems (debootstrap) are cached in $W/base; delete them to pick up Debian updates.
# --load imports the archives into the running test cluster's containerd.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

IMAGES="$W/images"
BUILD="$W/build"
MIRROR="${FERRY_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
mkdir -p "$IMAGES" "$BUILD" "$W/base"
export CONTAINERS_REGISTRIES_CONF=/dev/null
BUILDAH=(buildah --storage-driver vfs --root "$W/buildah/root" --runroot "$W/buildah/runroot")
POLICY=/usr/share/containers/policy.json
[ -f /etc/containers/policy.json ] && POLICY=/etc/containers/policy.json

# rootfs NAME PACKAGES: a debootstrap'd Debian bookworm as $W/base/NAME.tar (cached)
rootfs() {
  local name="$1" include="$2" dir="$W/base/$1.rootfs"
  [ -s "$W/base/$name.tar" ] && return 0
  log "debootstrap $name ($include), about a minute"
  rm -rf "$dir"
  debootstrap --variant=minbase ${include:+--include="$include"} bookworm "$dir" "$MIRROR" > "$W/logs/debootstrap-$name.log" 2>&1 \
    || { tail -20 "$W/logs/debootstrap-$name.log" >&2; die "debootstrap $name failed"; }
  # no apt lists or caches in an image
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin "$dir"/var/cache/apt/archives/*.deb
  tar -C "$dir" --numeric-owner -cf "$W/base/$name.tar.part" .
  mv "$W/base/$name.tar.part" "$W/base/$name.tar"
  rm -rf "$dir"
}

# bud NAME CONTEXT DOCKERFILE: build NAME with buildah and write it to $IMAGES/<file>.tar (name kept in the archive)
bud() {
  local name="$1" ctx="$2" file="$3" archive="$IMAGES/$(echo "$1" | tr '/:' '__').tar"
  "${BUILDAH[@]}" bud --quiet --isolation oci --runtime "$(command -v runc)" --network host --signature-policy "$POLICY" \
    --layers=false -f "$file" -t "$name" "$ctx" > "$W/logs/bud-$(basename "$archive" .tar).log" 2>&1 \
    || { tail -20 "$W/logs/bud-$(basename "$archive" .tar).log" >&2; die "buildah bud $name failed"; }
  rm -f "$archive"
  "${BUILDAH[@]}" push --quiet --signature-policy "$POLICY" "$name" "oci-archive:$archive:$name" >/dev/null
  log "image $name -> $archive ($(du -m "$archive" | cut -f1) MB)"
}

base_image() {   # NAME TARBALL: FROM scratch + the root filesystem, in the local buildah store only
  local name="$1" tarball="$2"
  if "${BUILDAH[@]}" images -q "$name" >/dev/null 2>&1 && [ "$("${BUILDAH[@]}" inspect -f '{{.ImageCreatedBy}}' "$name" 2>/dev/null)" != x ] \
     && [ "$W/buildah/$name.stamp" -nt "$tarball" ] 2>/dev/null; then return 0; fi
  local ctx="$BUILD/$(echo "$name" | tr '/:' '__')"; mkdir -p "$ctx"
  ln -f "$tarball" "$ctx/rootfs.tar" 2>/dev/null || cp "$tarball" "$ctx/rootfs.tar"
  printf 'FROM scratch\nADD rootfs.tar /\nENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8\n' > "$ctx/Dockerfile"
  "${BUILDAH[@]}" bud --quiet --isolation oci --runtime "$(command -v runc)" --network host --signature-policy "$POLICY" \
    --layers=false -f "$ctx/Dockerfile" -t "$name" "$ctx" > "$W/logs/bud-base.log" 2>&1 || { tail "$W/logs/bud-base.log" >&2; die "base $name"; }
  rm -f "$ctx/rootfs.tar"
  mkdir -p "$(dirname "$W/buildah/$name.stamp")"; touch "$W/buildah/$name.stamp"
}

# The chart runs every service with runAsUser 1001 and a read-only root filesystem, /tmp an emptyDir: the images
# keep files readable by all, write nothing outside /tmp, and pass JAVA_OPTS_APPEND (the chart's javaOptions) on.
service_images() {
  local svc ctx q
  if [ "$FERRY_VARIANT" = jvm ]; then
    rootfs jre openjdk-17-jre-headless
    base_image localhost/ferry/base-jre:bookworm "$W/base/jre.tar"
  else
    rootfs native "ca-certificates"
    base_image localhost/ferry/base-native:bookworm "$W/base/native.tar"
  fi
  for svc in $SERVICES; do
    local name="localhost/ferry/$svc:$FERRY_TAG-$FERRY_VARIANT" archive
    archive="$IMAGES/$(echo "$name" | tr '/:' '__').tar"
    ctx="$ROOT/services/$svc"
    if [ "$FERRY_VARIANT" = jvm ]; then
      q="$ctx/target/quarkus-app/quarkus-run.jar"
      [ -f "$q" ] || die "$q is missing: ./mvnw -B -DskipTests package first"
      [ -s "$archive" ] && [ "$archive" -nt "$q" ] && { log "image $name: up to date"; continue; }
      cat > "$BUILD/Dockerfile.$svc" <<DOCKERFILE
FROM localhost/ferry/base-jre:bookworm
COPY target/quarkus-app/lib/ /deployments/lib/
COPY target/quarkus-app/*.jar /deployments/
COPY target/quarkus-app/app/ /deployments/app/
COPY target/quarkus-app/quarkus/ /deployments/quarkus/
ENV JAVA_APP_JAR=/deployments/quarkus-run.jar JAVA_OPTS="-Dquarkus.http.host=0.0.0.0 -Djava.util.logging.manager=org.jboss.logmanager.LogManager" JAVA_OPTS_APPEND=""
USER 185
WORKDIR /deployments
ENTRYPOINT ["/bin/sh", "-c", "exec java \$JAVA_OPTS \$JAVA_OPTS_APPEND -jar \$JAVA_APP_JAR \"\$@\"", "java"]
DOCKERFILE
    else
      q=$(ls "$ctx"/target/*-runner 2>/dev/null | head -1)
      [ -n "$q" ] || die "$ctx/target/*-runner is missing: build the native executables first (-Dnative)"
      [ -s "$archive" ] && [ "$archive" -nt "$q" ] && { log "image $name: up to date"; continue; }
      # the executable and the JDK libraries it loads (target/lib/*.so, e.g. libawt) side by side
      mkdir -p "$ctx/target/image-lib"; rm -f "$ctx/target/image-lib"/*
      cp "$q" "$ctx/target/image-lib/application"
      ls "$ctx"/target/lib/*.so >/dev/null 2>&1 && cp "$ctx"/target/lib/*.so "$ctx/target/image-lib/"
      cat > "$BUILD/Dockerfile.$svc" <<DOCKERFILE
FROM localhost/ferry/base-native:bookworm
COPY target/image-lib/ /work/
USER 185
WORKDIR /work
ENV LD_LIBRARY_PATH=/work
ENTRYPOINT ["/work/application", "-Dquarkus.http.host=0.0.0.0"]
DOCKERFILE
    fi
    bud "$name" "$ctx" "$BUILD/Dockerfile.$svc"
  done
}

postgres_image() {
  local name=docker.io/library/postgres:15.10 archive="$IMAGES/docker.io_library_postgres_15.10.tar"
  [ -s "$archive" ] && [ "$archive" -nt "$HERE/images/postgres-entrypoint.sh" ] && { log "image $name: up to date"; return 0; }
  rootfs postgres postgresql-15
  base_image localhost/ferry/base-postgres:bookworm "$W/base/postgres.tar"
  local ctx="$BUILD/postgres"; mkdir -p "$ctx"; cp "$HERE/images/postgres-entrypoint.sh" "$ctx/docker-entrypoint.sh"
  cat > "$ctx/Dockerfile" <<'DOCKERFILE'
FROM localhost/ferry/base-postgres:bookworm
# uid/gid 999 as in the official image (the chart runs it as 999; initdb wants a passwd entry for its uid)
RUN groupmod -g 999 postgres && usermod -u 999 -g 999 postgres \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R 999:999 /var/lib/postgresql /var/run/postgresql /etc/postgresql /var/log/postgresql
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
USER 999
EXPOSE 5432
ENTRYPOINT ["/bin/sh", "/usr/local/bin/docker-entrypoint.sh"]
DOCKERFILE
  bud "$name" "$ctx" "$ctx/Dockerfile"
}

webdav_image() {
  local name=localhost/ferry/webdav:test archive="$IMAGES/localhost_ferry_webdav_test.tar"
  [ -s "$archive" ] && [ "$archive" -nt "$HERE/images/webdav-nginx.conf" ] && { log "image $name: up to date"; return 0; }
  rootfs webdav nginx-light
  base_image localhost/ferry/base-webdav:bookworm "$W/base/webdav.tar"
  local ctx="$BUILD/webdav"; mkdir -p "$ctx"; cp "$HERE/images/webdav-nginx.conf" "$ctx/nginx.conf"
  cat > "$ctx/Dockerfile" <<'DOCKERFILE'
FROM localhost/ferry/base-webdav:bookworm
COPY nginx.conf /etc/ferry-webdav/nginx.conf
USER 101
EXPOSE 8080
ENTRYPOINT ["/bin/sh", "-c", "mkdir -p /srv/www /srv/tmp && exec /usr/sbin/nginx -e stderr -c /etc/ferry-webdav/nginx.conf -p /srv"]
DOCKERFILE
  bud "$name" "$ctx" "$ctx/Dockerfile"
}

pause_image() {
  local name=localhost/pause:local archive="$IMAGES/localhost_pause_local.tar"
  [ -s "$archive" ] && return 0
  local ctx="$BUILD/pause"; mkdir -p "$ctx"
  tar xzf "$W"/src/dl/kubernetes_*.orig.tar.gz -C "$ctx" --strip-components=4 --wildcards '*/build/pause/linux/pause.c'
  gcc -Os -static -o "$ctx/pause" "$ctx/pause.c"
  printf 'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n' > "$ctx/Dockerfile"
  bud "$name" "$ctx" "$ctx/Dockerfile"
}

# load: every archive into the cluster's containerd (k8s.io namespace), names as in the archives
load() {
  local sock="$RUN/containerd/containerd.sock" f
  [ -S "$sock" ] || die "the test cluster is not running (no $sock)"
  for f in "$IMAGES"/*.tar; do
    ctr -a "$sock" -n k8s.io images import --all-platforms "$f" >/dev/null || die "import $f"
  done
  ctr -a "$sock" -n k8s.io images ls -q | grep -v '^sha256' >&2
}

what="${1:-all}"
case "$what" in
  services) service_images ;;
  postgres) postgres_image ;;
  webdav) webdav_image ;;
  pause) pause_image ;;
  all|--load) pause_image; service_images; postgres_image; webdav_image
    "${BUILDAH[@]}" rm --all >/dev/null 2>&1 || true ;;
  load) load ;;
  *) die "usage: images.sh [all|services|postgres|webdav|pause|load] [--load]" ;;
esac
for a in "$@"; do [ "$a" = --load ] && load; done
exit 0
