#!/usr/bin/env bash
# ./ferry cluster test: setup -> images -> cluster up -> helm install of charts/ferry (values only) -> checks ->
# teardown (always: on success, failure or Ctrl-C). One result line per check, one timing line per step; exit 0 only
# if every check passed. FERRY_CLUSTER_CHECKS="a b" runs only those checks (default: all, in order a..f);
# KEEP_CLUSTER=1 leaves the cluster up; FERRY_CLUSTER_REUSE=1 runs the checks against a cluster left up.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
rm -f "$W/logs/timings"
T_START=$(date +%s)
RESULTS="$W/logs/results"; : > "$RESULTS"
CHECKS="${FERRY_CLUSTER_CHECKS:-a b c d e f}"
R=$(date +%H%M%S)   # in every path a run writes, so reruns against a kept cluster find no earlier files
NS=ferry
SE_NS=ferry-se
CLI_JAR=$(ls "$ROOT"/services/cli/target/ferry-cli-*.jar 2>/dev/null | grep -v original | head -1 || true)

finish() {
  local rc=$?
  trap - EXIT INT TERM
  [ "${KEEP_CLUSTER:-}" = 1 ] || step teardown "$HERE/cluster.sh" down || rc=1
  echo "---- results"; cat "$RESULTS"
  echo "---- steps"; cat "$W/logs/timings" 2>/dev/null
  local failed; failed=$(grep -c '^FAIL' "$RESULTS" || true)
  local passed; passed=$(grep -c '^PASS' "$RESULTS" || true)
  [ "$failed" = 0 ] && [ "$passed" -gt 0 ] || rc=1
  echo "total $(( $(date +%s) - T_START ))s, $passed passed, $failed failed, rc=$rc"
  exit $rc
}
trap finish EXIT
trap 'log "interrupted"; exit 130' INT TERM

result() {  # result CHECK PASS|FAIL|SKIP TEXT
  printf '%s %s %s\n' "$2" "$1" "$3" | tee -a "$RESULTS" >&2
}
kn() { in_ns kubectl -n "$NS" "$@"; }
svc_ip() { in_ns kubectl -n "${2:-$NS}" get svc "$1" -o jsonpath='{.spec.clusterIP}'; }
curl_ns() { in_ns curl -sS --max-time 10 "$@"; }
ferry_cli() {  # the ferry command, run in the cluster's namespace against the Services
  in_ns env BEARER_TOKEN="$USER_TOKEN" FERRY_SCHEDULER_URL="$SCHED_URL" FERRY_AGGREGATOR_URL="$AGG_URL" \
    FERRY_RESOLVER_URL="$RESOLVER_URL" java -jar "$CLI_JAR" "$@"
}
token() { java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dferry.root="$ROOT" \
  -cp "$ROOT/integration-tests/target/classes:$ROOT/integration-tests/target/lib/*" io.ferry.stack.FerryCli token "$@"; }

build() {
  local s need=0
  for s in $SERVICES; do [ -f "$ROOT/services/$s/target/quarkus-app/quarkus-run.jar" ] || need=1; done
  [ -n "$CLI_JAR" ] || need=1
  [ -f "$ROOT/integration-tests/target/classes/io/ferry/stack/FerryCli.class" ] || need=1
  [ $need = 0 ] && { log "build: services, CLI and launcher are built"; return 0; }
  (cd "$ROOT" && ./mvnw -B -q -DskipTests -Dquarkus.kubernetes.deploy=false package)
  CLI_JAR=$(ls "$ROOT"/services/cli/target/ferry-cli-*.jar | grep -v original | head -1)
}

# Two WebDAV storage elements (nginx) in their own namespace, Services on port 80.
storage_elements() {
  in_ns kubectl create namespace "$SE_NS" >/dev/null
  local se
  for se in se-a se-b; do
    in_ns kubectl -n "$SE_NS" apply -f - >/dev/null <<YAML
apiVersion: apps/v1
kind: Deployment
metadata: {name: $se}
spec:
  replicas: 1
  selector: {matchLabels: {app: $se}}
  template:
    metadata: {labels: {app: $se}}
    spec:
      automountServiceAccountToken: false
      securityContext: {runAsNonRoot: true, runAsUser: 101, runAsGroup: 101, seccompProfile: {type: RuntimeDefault}}
      containers:
        - name: webdav
          image: localhost/ferry/webdav:test
          imagePullPolicy: Never
          ports: [{name: http, containerPort: 8080}]
          readinessProbe: {httpGet: {path: /healthz, port: http}, periodSeconds: 2}
          securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: {drop: [ALL]}}
          volumeMounts: [{name: srv, mountPath: /srv}]
      volumes: [{name: srv, emptyDir: {}}]
---
apiVersion: v1
kind: Service
metadata: {name: $se}
spec:
  selector: {app: $se}
  ports: [{name: http, port: 80, targetPort: http}]
YAML
  done
}

install_ferry() {
  in_ns kubectl create namespace "$NS" >/dev/null
  # the in-cluster PostgreSQL's volume: a plain hostPath PersistentVolume (no provisioner on this cluster)
  mkdir -p "$RUN/pv/postgresql"; chown 999:999 "$RUN/pv/postgresql"; chmod 700 "$RUN/pv/postgresql"
  in_ns kubectl apply -f - >/dev/null <<YAML
apiVersion: v1
kind: PersistentVolume
metadata: {name: ferry-postgresql}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  hostPath: {path: $RUN/pv/postgresql, type: Directory}
YAML
  # What NOTES.txt asks for: the service tokens and the issuer's public key (here the checkout's dev issuer, whose
  # tokens `./ferry token` mints). The database roles and the storage-token key the chart makes itself.
  local s scope args=()
  for s in transfer-scheduler tcp-profiles handle-resolver; do
    scope=service; [ "$s" = transfer-scheduler ] && scope="service rates:write"
    args+=(--from-literal="$s=$(token --sub "service:$s" --scope "$scope" --hours 48)")
  done
  kn create secret generic ferry-service-tokens "${args[@]}" >/dev/null
  kn create configmap ferry-jwt-public-key --from-file=public.pem="$ROOT/.ferry/keys/jwt-public.pem" >/dev/null
  cat > "$RUN/values-test.yaml" <<YAML
# the values this cluster needs: local JVM images (no registry, never pulled), time to start, small CPU requests
# (2 cores hold the release, a rolling update's surge and three scheduler replicas)
image: {registry: localhost, variant: $FERRY_VARIANT, tag: "$FERRY_TAG", pullPolicy: Never}
# JVM starts on a 2-core machine that also builds: up to a few minutes
probes: {startupTimeoutSeconds: 300}
services:
  transferScheduler: {resources: {requests: {cpu: 50m}}}
  tcpProfiles: {resources: {requests: {cpu: 50m}}}
  handleResolver: {resources: {requests: {cpu: 50m}}}
  rateAggregator: {resources: {requests: {cpu: 50m}}}
postgresql: {resources: {requests: {cpu: 50m}}}
YAML
  in_ns helm install ferry "$ROOT/charts/ferry" -n "$NS" --server-side=false -f "$RUN/values-test.yaml" > "$RUN/logs/helm-install.log" 2>&1 \
    || { cat "$RUN/logs/helm-install.log" >&2; return 1; }
  storage_elements
  wait_ready 300
}

wait_ready() {  # every pod of both namespaces Ready
  local deadline=$(( $(date +%s) + $1 ))
  until [ -n "$(kn get pods -o name 2>/dev/null)" ]; do sleep 1; done
  while :; do
    local notready
    notready=$(in_ns kubectl get pods -n "$NS" -o json 2>/dev/null | python3 -c '
import json,sys
for p in json.load(sys.stdin)["items"]:
    c=[x for x in p["status"].get("conditions",[]) if x["type"]=="Ready"]
    if not c or c[0]["status"]!="True": print(p["metadata"]["name"])')
    notready+=$(in_ns kubectl get pods -n "$SE_NS" -o jsonpath='{range .items[*]}{.metadata.name} {.status.containerStatuses[0].ready}{"\n"}{end}' | awk '$2!="true"{print " "$1}')
    [ -z "$notready" ] && return 0
    [ "$(date +%s)" -lt "$deadline" ] || { log "not ready: $notready"; in_ns kubectl get pods -A -o wide >&2; return 1; }
    sleep 2
  done
}

endpoints() {
  SCHED_URL="http://$(svc_ip ferry-transfer-scheduler):8081"
  AGG_URL="http://$(svc_ip ferry-rate-aggregator):8084"
  RESOLVER_URL="http://$(svc_ip ferry-handle-resolver):8083"
  PROFILES_URL="http://$(svc_ip ferry-tcp-profiles):8082"
  SE_A_IP=$(svc_ip se-a "$SE_NS"); SE_B_IP=$(svc_ip se-b "$SE_NS")
  USER_TOKEN=$(token --vo atlas --scope "transfer:read transfer:submit transfer:admin" --hours 4)
}

# ---- check a: every pod Ready, and each service's probes answer as docs/deploying.md says
check_a() {
  local ok=1 msg="" s pod ip port path code
  in_ns kubectl get pods -A -o wide > "$RUN/logs/pods.txt"
  for s in $SERVICES; do
    pod=$(kn get pods -l "app.kubernetes.io/name=$s" -o jsonpath='{.items[0].metadata.name}')
    ip=$(kn get pod "$pod" -o jsonpath='{.status.podIP}')
    port=$(kn get pod "$pod" -o jsonpath='{.spec.containers[0].ports[0].containerPort}')
    for path in started live ready; do
      code=$(curl_ns -o "$RUN/logs/health-$s-$path.json" -w '%{http_code}' "http://$ip:$port/q/health/$path" || true)
      grep -q '"status": *"UP"' "$RUN/logs/health-$s-$path.json" 2>/dev/null || code="$code(not UP)"
      [ "$code" = 200 ] || { ok=0; msg+=" $s/$path=$code"; }
    done
    # readiness checks the database, liveness does not (a database outage must not restart the pods)
    grep -qi 'database\|postgres' "$RUN/logs/health-$s-ready.json" || { ok=0; msg+=" $s/ready-has-no-db-check"; }
    grep -qi 'database\|postgres' "$RUN/logs/health-$s-live.json" && { ok=0; msg+=" $s/live-checks-the-db"; }
  done
  local restarts; restarts=$(kn get pods -o jsonpath='{range .items[*]}{.metadata.name}={.status.containerStatuses[0].restartCount} {end}')
  local n; n=$(kn get pods --no-headers | wc -l)
  [ $ok = 1 ] && result a PASS "all $n pods of $NS and the 2 SE pods Ready; started/live/ready UP on all 4 services, ready has the DB checks, live has none; restarts: $restarts" \
              || result a FAIL "$msg; restarts: $restarts"
}

# put_files SE DIR N SIZE_KIB: N random files to SE's DIR (through its Service), copies kept in $RUN/data/DIR
put_files() {
  local ip="$1" dir="$2" n="$3" kib="$4" i
  mkdir -p "$RUN/data/$dir"
  for i in $(seq 1 "$n"); do
    head -c "$((kib * 1024))" /dev/urandom > "$RUN/data/$dir/f$i"
    curl_ns --max-time 60 -fsS -T "$RUN/data/$dir/f$i" "http://$ip/$dir/f$i" || return 1
  done
}
# same_files SE DIR N: each file on SE byte-identical to the copy kept
same_files() {  # same_files SE DIR N [KEPT_DIR]
  local ip="$1" dir="$2" n="$3" kept="${4:-$2}" i bad=0
  for i in $(seq 1 "$n"); do
    curl_ns --max-time 60 -fsS -o "$RUN/data/got" "http://$ip/$dir/f$i" && cmp -s "$RUN/data/got" "$RUN/data/$kept/f$i" || { log "differs: $dir/f$i"; bad=1; }
  done
  return $bad
}
job_state() { curl_ns -H "Authorization: Bearer $USER_TOKEN" "$SCHED_URL/jobs/$1" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("job_state",""))'; }
await_job() {  # await_job JOB SECONDS: its final state
  local deadline=$(( $(date +%s) + $2 )) st
  while :; do
    st=$(job_state "$1" 2>/dev/null || true)
    case "$st" in FINISHED|FAILED|FINISHEDDIRTY|CANCELED) echo "$st"; return 0 ;; esac
    [ "$(date +%s)" -lt "$deadline" ] || { echo "TIMEOUT($st)"; return 0; }
    sleep 1
  done
}
submit_list() {  # submit_list FILE [args]: the job id (ferry submit)
  local f="$1"; shift
  ferry_cli submit -f "$f" -o json "$@" | python3 -c 'import json,sys; d=json.load(sys.stdin); print((d[0] if isinstance(d,list) else d)["job_id"])'
}
register_ses() {
  local se
  for se in se-a se-b; do
    ferry_cli se put "${se^^}" --json "{\"site\":\"SITE-${se^^}\",\"baseUrls\":{\"http\":\"http://$se.$SE_NS.svc.cluster.local\"},\"access\":{\"open\":true}}" >/dev/null
  done
}

monitor_finished() {  # the scheduler's monitor: files FINISHED on SE-A -> SE-B in the last hour
  curl_ns -H "Authorization: Bearer $USER_TOKEN" "$SCHED_URL/monitor/api/overview?window=1h" | python3 -c '
import json,sys; print(sum(l["counts"]["finished"] for l in json.load(sys.stdin).get("links",[]) if l.get("source_se")=="SE-A" and l.get("dest_se")=="SE-B"))' 2>/dev/null || echo 0
}
# ---- check b: the ferry command submits a job between the two in-cluster SEs; bytes identical; seen by the
# aggregator (/links) and the scheduler's monitor
check_b() {
  local n=5 job st t0
  register_ses || { result b FAIL "ferry se put failed"; return; }
  put_files "$SE_A_IP" atlas/b$R "$n" 1024 || { result b FAIL "could not write the source files to se-a"; return; }
  for i in $(seq 1 $n); do echo "http://se-a.$SE_NS.svc.cluster.local/atlas/b$R/f$i http://se-b.$SE_NS.svc.cluster.local/atlas/b$R/f$i"; done > "$RUN/data/b.list"
  local agg0 mon0
  agg0=$(curl_ns -H "Authorization: Bearer $USER_TOKEN" "$AGG_URL/links?window=1h" | python3 -c '
import json,sys; print(sum(r.get("filesDone",0) for r in json.load(sys.stdin).get("rows",[]) if r.get("source")=="SE-A" and r.get("destination")=="SE-B"))' 2>/dev/null || echo 0)
  mon0=$(monitor_finished)
  t0=$(date +%s)
  job=$(submit_list "$RUN/data/b.list" --verify-checksum) || { result b FAIL "ferry submit failed"; return; }
  ferry_cli watch "$job" --plain > "$RUN/logs/watch-b.log" 2>&1 || true
  st=$(await_job "$job" 120)
  local dt; dt=$(( $(date +%s) - t0 ))
  local ok=1 msg="job $job $st in ${dt}s"
  [ "$st" = FINISHED ] || ok=0
  if same_files "$SE_B_IP" atlas/b$R "$n"; then msg+=", $n files byte-identical on se-b"; else ok=0; msg+=", files differ"; fi
  # the aggregator gets the transfer records from the scheduler's outbox: its SE-A -> SE-B row counts them
  local seen=0 k done_agg=0 done_mon=0
  for k in $(seq 1 30); do
    done_agg=$(curl_ns -H "Authorization: Bearer $USER_TOKEN" "$AGG_URL/links?window=1h" | python3 -c '
import json,sys; print(sum(r.get("filesDone",0) for r in json.load(sys.stdin).get("rows",[]) if r.get("source")=="SE-A" and r.get("destination")=="SE-B"))' 2>/dev/null || echo 0)
    [ "$done_agg" -ge $((agg0 + n)) ] && { seen=1; break; }
    sleep 1
  done
  [ $seen = 1 ] && msg+=", aggregator /links SE-A->SE-B filesDone $agg0 -> $done_agg (${k}s)" || { ok=0; msg+=", aggregator /links SE-A->SE-B filesDone $agg0 -> $done_agg, not +$n"; }
  done_mon=$(monitor_finished)
  [ "$done_mon" -ge $((mon0 + n)) ] && msg+=", monitor overview SE-A->SE-B finished $mon0 -> $done_mon" || { ok=0; msg+=", monitor overview finished $mon0 -> $done_mon, not +$n"; }
  [ $ok = 1 ] && result b PASS "$msg" || result b FAIL "$msg"
}

# link_max SRC DST MAX: the link's limit through the scheduler's /links
link_max() {  # (the SEs registered first: a check may run alone)
  register_ses >/dev/null 2>&1 || true
  curl_ns -f -X PUT -H "Authorization: Bearer $USER_TOKEN" -H 'Content-Type: application/json' \
    -d "{\"min_active\":1,\"max_active\":$3}" "$SCHED_URL/links/$1/$2" >/dev/null
}
slow_job() {  # slow_job NAME N KIB: N files of KIB KiB from se-a's rate-limited /slow/NAME/ (256 KiB/s) to se-b's /in/NAME/; job id
  put_files "$SE_A_IP" "slow/$1" "$2" "$3" || return 1
  for i in $(seq 1 "$2"); do echo "http://se-a.$SE_NS.svc.cluster.local/slow/$1/f$i http://se-b.$SE_NS.svc.cluster.local/in/$1/f$i"; done > "$RUN/data/$1.list"
  submit_list "$RUN/data/$1.list" --nostreams 1 2>/dev/null || submit_list "$RUN/data/$1.list"
}
record() { in_ns python3 "$HERE/sample.py" record "$SCHED_URL" "$USER_TOKEN" "$1" "$RUN/logs/samples-$2.jsonl" "${3:-600}"; }
await_active() {  # await_active JOB N SECONDS: at least N files ACTIVE
  local deadline=$(( $(date +%s) + $3 ))
  until [ "$(curl_ns -H "Authorization: Bearer $USER_TOKEN" "$SCHED_URL/jobs/$1/files" | python3 -c 'import json,sys; print(sum(1 for f in json.load(sys.stdin) if f["file_state"]=="ACTIVE"))')" -ge "$2" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1; sleep 0.5
  done
}
# successful PUTs per file on se-b (its access log): exactly one each
puts_once() {  # puts_once DIR N
  in_ns kubectl -n "$SE_NS" logs deploy/se-b > "$RUN/logs/se-b-access.log" 2>/dev/null || true
  python3 - "$RUN/logs/se-b-access.log" "/$1/" "$2" <<'PY'
import sys, collections
log, prefix, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ok = collections.Counter(); tries = collections.Counter()
for line in open(log):
    p = line.split()
    if len(p) >= 3 and p[0] == "PUT" and p[1].startswith(prefix):
        tries[p[1]] += 1
        if p[2] in ("201", "204"): ok[p[1]] += 1
files = [f"{prefix}f{i}" for i in range(1, n + 1)]
twice = [f for f in files if ok[f] > 1]; never = [f for f in files if ok[f] == 0]
print(f"PUTs completed: {sum(ok.values())} for {n} files, attempts {sum(tries.values())}; twice: {twice or 'none'}; never: {never or 'none'}")
sys.exit(1 if twice or never else 0)
PY
}

# ---- check c: helm upgrade to a new image tag while a job of rate-limited files runs
check_c() {
  # long enough (3 rounds of 24 s copies) for the rolling update to replace the scheduler while the job runs
  local n=9 kib=6144 base job t0 st dt tag2="${FERRY_TAG}-upgrade" s
  link_max SE-A SE-B 3 || true
  # the same images under a second tag: the upgrade replaces every pod
  for s in $SERVICES; do
    ctr -a "$RUN/containerd/containerd.sock" -n k8s.io images tag --force "localhost/ferry/$s:$FERRY_TAG-$FERRY_VARIANT" "localhost/ferry/$s:$tag2-$FERRY_VARIANT" >/dev/null
  done
  # undisturbed, the same shape first: its wall time is the baseline
  t0=$(date +%s); base=$(slow_job c0$R "$n" "$kib") || { result c FAIL "baseline submit failed"; return; }
  st=$(await_job "$base" 300); local t_base=$(( $(date +%s) - t0 ))
  t0=$(date +%s); job=$(slow_job c1$R "$n" "$kib") || { result c FAIL "submit failed"; return; }
  record "$job" c 600 & local rec=$!
  await_active "$job" 2 60 || true
  sleep 3
  local tu=$(date +%s)
  in_ns helm upgrade ferry "$ROOT/charts/ferry" -n "$NS" --server-side=false --reuse-values --set image.tag="$tag2" > "$RUN/logs/helm-upgrade.log" 2>&1 \
    || { cat "$RUN/logs/helm-upgrade.log" >&2; result c FAIL "helm upgrade failed"; return; }
  local rollout=0 d
  for d in $SERVICES; do kn rollout status "deploy/ferry-$d" --timeout=400s >/dev/null 2>&1 || rollout=1; done
  local t_rolled=$(( $(date +%s) - t0 ))
  st=$(await_job "$job" 600); dt=$(( $(date +%s) - t0 ))
  wait $rec || true
  local rolled; rolled=$(kn get deploy ferry-transfer-scheduler -o jsonpath='{.spec.template.spec.containers[0].image}')
  local msg="upgrade at +$((tu - t0))s to $tag2, all four Deployments rolled out at +${t_rolled}s; job $st in ${dt}s vs ${t_base}s undisturbed (+$((dt - t_base))s)" ok=1
  [ "$st" = FINISHED ] || ok=0
  [ $rollout = 0 ] || { ok=0; msg+="; rollout did not finish"; }
  [ "$t_rolled" -lt "$dt" ] || msg+="; (the job ended before the rollout did)"
  case "$rolled" in *"$tag2"*) ;; *) ok=0; msg+=" (not rolled: $rolled)";; esac
  same_files "$SE_B_IP" in/c1$R "$n" slow/c1$R && msg+="; $n files byte-identical" || { ok=0; msg+="; files differ or missing"; }
  local puts; puts=$(puts_once in/c1$R "$n") || ok=0; msg+="; $puts"
  [ $ok = 1 ] && result c PASS "$msg" || result c FAIL "$msg"
}

# ---- check d: the scheduler scaled 1 -> 3 replicas mid-job; the link's max_active holds at every sample
check_d() {
  local n=16 kib=3072 max=2 job st
  link_max SE-A SE-B "$max" || { result d FAIL "could not set the link's max_active"; return; }
  job=$(slow_job d$R "$n" "$kib") || { result d FAIL "submit failed"; return; }
  record "$job" d 600 & local rec=$!
  await_active "$job" 1 60 || true
  sleep 2
  in_ns helm upgrade ferry "$ROOT/charts/ferry" -n "$NS" --server-side=false --reuse-values \
    --set services.transferScheduler.replicas=3 > "$RUN/logs/helm-scale.log" 2>&1 || { cat "$RUN/logs/helm-scale.log" >&2; result d FAIL "helm upgrade (replicas 3) failed"; return; }
  local t_scale=$(date +%s) ready=""
  local deadline=$(( $(date +%s) + 300 ))   # two JVM starts on a busy 2-core node
  while [ "$(date +%s)" -lt "$deadline" ]; do
    ready=$(kn get deploy ferry-transfer-scheduler -o jsonpath='{.status.readyReplicas}')
    [ "$ready" = 3 ] && break; sleep 1
  done
  local t_ready; t_ready=$(date +%s)
  st=$(await_job "$job" 600); wait $rec || true
  local verdict; verdict=$(python3 "$HERE/sample.py" max-active "$RUN/logs/samples-d.jsonl" "$max" "$t_ready"); local vrc=$?
  local msg="$ready of 3 replicas Ready $((t_ready - t_scale))s after the upgrade; job $st; $verdict"
  [ $vrc = 0 ] && [ "$st" = FINISHED ] && [ "$ready" = 3 ] && result d PASS "$msg" || result d FAIL "$msg"
  link_max SE-A SE-B 10 || true
}

# ---- check e: a scheduler pod deleted mid-copy (SIGTERM); the files it held are ACTIVE again elsewhere within 10 s
check_e() {
  # as many files as the link runs at once (its optimizer starts at 2): a handed-back file finds a free slot
  local n=2 kib=12288 job st pod
  link_max SE-A SE-B 10 || true
  job=$(slow_job e$R "$n" "$kib") || { result e FAIL "submit failed"; return; }
  record "$job" e 600 & local rec=$!
  await_active "$job" "$n" 60 || true
  sleep 3
  # the replica holding copies (FTS3's /status/hosts: active files per replica, named after its pod)
  curl_ns -H "Authorization: Bearer $USER_TOKEN" "$SCHED_URL/status/hosts" > "$RUN/logs/hosts-e.json"
  pod=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1])); print(max(h, key=lambda k: h[k]["active"]) if h else "")' "$RUN/logs/hosts-e.json")
  local held; held=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1])); print(h.get(sys.argv[2],{}).get("active",0))' "$RUN/logs/hosts-e.json" "$pod")
  local replicas; replicas=$(kn get deploy ferry-transfer-scheduler -o jsonpath='{.status.readyReplicas}')
  local td; td=$(date +%s.%N)
  kn delete pod "$pod" --wait=false >/dev/null
  st=$(await_job "$job" 600); wait $rec || true
  local verdict; verdict=$(python3 "$HERE/sample.py" moved "$RUN/logs/samples-e.jsonl" "$td" 10 "$held"); local vrc=$?
  local msg="deleted $pod (of $replicas ready replicas) holding $held ACTIVE; job $st; $verdict"
  same_files "$SE_B_IP" in/e$R "$n" slow/e$R && msg+="; files byte-identical" || { vrc=1; msg+="; files differ"; }
  [ $vrc = 0 ] && [ "$st" = FINISHED ] && result e PASS "$msg" || result e FAIL "$msg"
}

# ---- check f: the PostgreSQL pod killed: while it is away every service answers 503 with Retry-After (never 500, nor
# silence: a 5 s timeout counts as a failure); all Ready within 10 s of PostgreSQL being Ready again, none restarted
check_f() {
  # Through the Services there is nobody to answer while the database is away: readiness takes the pods out of the
  # endpoints (that is its job). Each service is asked on its pod's own address.
  local urls="" s path ip port out="$RUN/logs/answers-f.jsonl"
  for s in transfer-scheduler:/jobs rate-aggregator:/links tcp-profiles:/hosts "handle-resolver:/api/handles?prefix=10.1"; do
    path="${s#*:}"; s="${s%%:*}"
    ip=$(kn get pods -l "app.kubernetes.io/name=$s" -o jsonpath='{.items[0].status.podIP}')
    port=$(kn get pods -l "app.kubernetes.io/name=$s" -o jsonpath='{.items[0].spec.containers[0].ports[0].containerPort}')
    urls+=" http://$ip:$port$path"
  done
  : > "$out"
  # the pod killed (no grace): its IP goes with it, and the StatefulSet makes a new one that starts PostgreSQL again
  kn delete pod ferry-postgresql-0 --grace-period=0 --force >/dev/null 2>&1
  in_ns env TOKEN="$USER_TOKEN" python3 "$HERE/sample.py" answers "$out" $urls 8
  kn wait --for=condition=Ready pod/ferry-postgresql-0 --timeout=180s >/dev/null 2>&1 || true
  local tback; tback=$(date +%s.%N)
  local ready_after=""
  for k in $(seq 1 120); do
    if wait_ready 1 >/dev/null 2>&1; then ready_after=$(python3 -c "import time; print(round(time.time()-$tback,1))"); break; fi
    sleep 0.5
  done
  local verdict; verdict=$(python3 - "$out" <<'PY'
import json, sys, collections
by = collections.defaultdict(collections.Counter); bad = []
for l in open(sys.argv[1]):
    a = json.loads(l); u = a["url"].split("/")[2].split(":")[1] + "/" + a["url"].split("/", 3)[3].split("?")[0]
    key = f'{a["status"] or "timeout"}{"+RA" if a["retry_after"] else ""}'
    by[u][key] += 1
    # 200 once PostgreSQL is back is fine; a timeout, any other 5xx, or a 503 without Retry-After is not
    if a["status"] == 0 or (a["status"] >= 500 and (a["status"] != 503 or not a["retry_after"])): bad.append(u)
print("; ".join(f"{u}: {dict(c)}" for u, c in sorted(by.items())))
unseen = [u for u, c in by.items() if not any(k.startswith("503") for k in c)]
sys.exit(1 if bad or unseen or not by else 0)
PY
); local vrc=$?
  local restarts; restarts=$(kn get pods -o jsonpath='{range .items[*]}{.metadata.name}={.status.containerStatuses[0].restartCount} {end}')
  local msg="while away: $verdict; all Ready ${ready_after:-never}s after PostgreSQL was Ready; restarts: $restarts"
  [ $vrc = 0 ] && [ -n "$ready_after" ] && python3 -c "import sys; sys.exit(0 if $ready_after <= 10 else 1)" && result f PASS "$msg" || result f FAIL "$msg"
}

if [ "${FERRY_CLUSTER_REUSE:-}" = 1 ] && [ -e "/run/netns/$NETNS" ]; then
  log "FERRY_CLUSTER_REUSE=1: checks against the running cluster and release"
else
  step setup "$HERE/setup.sh" all
  step build build
  step images "$HERE/images.sh" all
  step cluster-up "$HERE/cluster.sh" up
  step helm-install install_ferry
fi
endpoints
for c in $CHECKS; do
  if declare -f "check_$c" >/dev/null; then step "check-$c" "check_$c" || result "$c" FAIL "the check itself failed"; else result "$c" SKIP "not implemented"; fi
done
