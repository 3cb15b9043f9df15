#!/usr/bin/env bash
# Builds the bitina image and runs bitina in containers on this machine, with Podman (E8):
#   1. a Debian base image with a Java 17 runtime, made with debootstrap from the Debian mirror
#      apt uses here (cached in $BITINA_BASE_CACHE, default /var/cache/bitina, keyed by what it
#      holds; made again when missing), then the image from deploy/Dockerfile on it;
#   2. compose: deploy/compose.yaml with podman-compose, Fig. 1 over three containers; the
#      exit code is the coordinator's (0; and 2 for a scenario the image lacks), the report
#      comes out of the compose volume and verifies;
#   3. kube: the three pods of the indexed Job in deploy/k8s/bitina.yaml, rendered by
#      deploy/k8s/kube-play-pods.py and run with `podman kube play`, the seed found by its DNS
#      name bitina-0.bitina; the report is read from the coordinator's log and verifies, the
#      members exit 0 after the coordinator leaves;
#   4. loss: three plain `podman run` containers on a long scenario; one member is killed
#      (`podman kill`) mid-run: the run ends failed, naming that member and its devices.
# Also measured and written to $OUT/figures.txt: the image size, the time from `podman run` to
# a member's "up" line, each scenario's wall time.
# Every container, pod, network, volume and image tag it makes starts with $P and is removed
# by name at the end, also on failure. Containers talk only on the internal networks made here.
#
#   deploy/podman-test.sh          all of the above; exit 0 only when all of it passed
#   deploy/podman-test.sh check    exit 0 when containers can run here, else 77 saying why
#   deploy/podman-test.sh base     make (or find) the Debian base and print its tar file
#
# The jars: BITINA_CP (a class path, as the JUnit test passes it: what it names is staged in
# the image's layout) or else the built ones (mvn -B -DskipTests package).
# BITINA_PODMAN_OUT (default target/podman-test): reports and figures. BITINA_PODMAN_PREFIX
# (default bitina-tPID): the names' prefix. BITINA_DEBIAN_MIRROR: another mirror.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CONTAINERS_CONF="$ROOT/deploy/podman/containers.conf"
P="${BITINA_PODMAN_PREFIX:-bitina-t$$}"
OUT="${BITINA_PODMAN_OUT:-$ROOT/target/podman-test}"
CACHE="${BITINA_BASE_CACHE:-/var/cache/bitina}"
UID_IN_IMAGE=10001
JAVA_OPTS="${BITINA_CONTAINER_JAVA_OPTS:--Xmx1g -XX:+UseParallelGC}"
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3   # Debian's: python3-yaml comes with podman-compose
# the base: what debootstrap installs, and how it is trimmed; the cache key is made from this
SUITE=bookworm
PACKAGES=openjdk-17-jre-headless
TRIM="usr/share/doc usr/share/man usr/share/locale var/cache/apt var/lib/apt/lists"

say() { echo "podman-test: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

# why containers cannot run here, or nothing
cannot_run() {
  [ "$(id -u)" = 0 ] || { echo "needs root (rootful Podman: network namespaces and debootstrap)"; return; }
  for t in podman runc podman-compose debootstrap; do
    command -v "$t" > /dev/null || { echo "needs $t (apt-get install podman runc podman-compose debootstrap)"; return; }
  done
  podman info > /dev/null 2>&1 || { echo "podman info fails: $(podman info 2>&1 | tail -1)"; return; }
}

# the Debian mirror apt uses here (deb822 .sources or sources.list), not the security archive
mirror() {
  if [ -n "${BITINA_DEBIAN_MIRROR:-}" ]; then echo "$BITINA_DEBIAN_MIRROR"; return; fi
  local m
  m="$(cat /etc/apt/sources.list.d/*.sources 2> /dev/null | awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}')"
  [ -n "$m" ] || m="$(awk '/^deb / {for (i = 2; i <= NF; i++) if ($i !~ /^\[/) {if ($i !~ /security/) print $i; break}}' \
                       /etc/apt/sources.list 2> /dev/null | head -1)"
  [ -n "$m" ] || fail "no Debian mirror in /etc/apt/sources.list*; set BITINA_DEBIAN_MIRROR"
  echo "$m"
}

base_key() { echo "$SUITE minbase $PACKAGES trim: $TRIM $(dpkg --print-architecture)" | sha256sum | cut -c1-16; }

# the base's tar file: from the cache, or made now (one maker at a time)
base_tar() {
  local tar
  tar="$CACHE/debian-$SUITE-java17-$(base_key).tar"
  mkdir -p "$CACHE"
  exec 9> "$CACHE/.lock"
  flock 9
  if [ ! -s "$tar" ]; then
    local dir m t0
    dir="$(mktemp -d "$CACHE/rootfs.XXXXXX")"
    m="$(mirror)"
    t0=$(date +%s)
    say "making the Debian base ($SUITE, $PACKAGES) from $m into $tar (once; about a minute)"
    debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$dir" "$m" > "$dir.log" 2>&1 \
      || { tail -20 "$dir.log" >&2; rm -rf "$dir" "$dir.log"; fail "debootstrap failed"; }
    for t in $TRIM; do rm -rf "${dir:?}/$t"; done
    tar -C "$dir" -cf "$tar.tmp" . && mv "$tar.tmp" "$tar"
    rm -rf "$dir" "$dir.log"
    say "base made in $(( $(date +%s) - t0 )) s"
  fi
  exec 9>&-
  echo "$tar"
}

# the image's build context, in the layout of the repository after `mvn package`
stage_context() {
  local ctx="$1"
  rm -rf "$ctx"
  mkdir -p "$ctx/emulator-node/target/lib" "$ctx/emulator-core/target" "$ctx/deploy"
  if [ -n "${BITINA_CP:-}" ]; then
    local jar="${JAVA_HOME:+$JAVA_HOME/bin/}jar" e
    command -v "$jar" > /dev/null || jar=jar
    IFS=: read -ra entries <<< "$BITINA_CP"
    for e in "${entries[@]}"; do
      case "$e" in
        */test-classes) ;;
        */emulator-core/target/classes) "$jar" cf "$ctx/emulator-core/target/emulator-core-classes.jar" -C "$e" . ;;
        */emulator-node/target/classes) "$jar" cf "$ctx/emulator-node/target/bitina-node.jar" -C "$e" . ;;
        */emulator-core-*.jar) cp "$e" "$ctx/emulator-core/target/" ;;
        *.jar) cp "$e" "$ctx/emulator-node/target/lib/" ;;
      esac
    done
  else
    [ -f "$ROOT/emulator-node/target/bitina-node.jar" ] || fail "no jar: run mvn -B -DskipTests package first (or set BITINA_CP)"
    # a node jar older than the sources (say the core alone was rebuilt) runs against a newer core: a
    # signature that changed only in its generics links and fails later (a Map<Mode, ..> read as
    # Map<String, ..>: "Mode cannot be cast to String" after the run), so stale jars are refused
    local j newer
    for j in "$ROOT/emulator-node/target/bitina-node.jar" "$ROOT"/emulator-core/target/emulator-core-*-SNAPSHOT.jar \
      "$ROOT"/emulator-node/target/lib/emulator-core-*.jar; do
      newer="$(find "$ROOT/pom.xml" "$ROOT/emulator-core/pom.xml" "$ROOT/emulator-node/pom.xml" \
        "$ROOT/emulator-core/src/main" "$ROOT/emulator-node/src/main" -newer "$j" -print -quit)"
      [ -z "$newer" ] || fail "stale jar $j ($newer is newer): run mvn -B -DskipTests package first (or set BITINA_CP)"
    done
    cp "$ROOT"/emulator-node/target/lib/*.jar "$ctx/emulator-node/target/lib/"
    cp "$ROOT"/emulator-core/target/emulator-core-*.jar "$ctx/emulator-core/target/"
    cp "$ROOT/emulator-node/target/bitina-node.jar" "$ctx/emulator-node/target/"
  fi
  cp -r "$ROOT/topology-configs" "$ctx/"
  cp "$ROOT/deploy/entrypoint.sh" "$ctx/deploy/"
  cp "$ROOT/.dockerignore" "$ctx/"
}

# names this run made: the prefix, then a separator (bitina-t12 must not take bitina-t123's)
ours() { grep "^\(localhost/\)\?$P[-_:]"; }

cleanup() {
  local rc=$?
  set +e
  for c in $(podman ps -a --format '{{.Names}}' | ours); do podman rm -f -t 0 "$c" > /dev/null 2>&1; done
  for p in $(podman pod ps --format '{{.Name}}' | ours); do podman pod rm -f -t 0 "$p" > /dev/null 2>&1; done
  for n in $(podman network ls --format '{{.Name}}' | ours); do podman network rm -f "$n" > /dev/null 2>&1; done
  for v in $(podman volume ls --format '{{.Name}}' | ours); do podman volume rm -f "$v" > /dev/null 2>&1; done
  for i in $(podman images --format '{{.Repository}}:{{.Tag}}' | ours); do podman rmi -f "$i" > /dev/null 2>&1; done
  # the kube pods' ConfigMap volumes and anything else left: say so, the next run must not find them
  local left
  left="$( (podman ps -a --format '{{.Names}}'; podman pod ps --format '{{.Name}}'; podman network ls --format '{{.Name}}';
           podman volume ls --format '{{.Name}}'; podman images --format '{{.Repository}}:{{.Tag}}') | ours)"
  [ -z "$left" ] || say "left behind (remove by hand): $left"
  rm -rf "$WORK"
  exit "$rc"
}

now_ms() { date +%s%3N; }

# waits until container $1's log has a line matching $2 (at most $3 seconds); prints the time
await_log() {
  local until=$(( $(date +%s) + $3 ))
  while ! podman logs "$1" 2>&1 | grep -q -- "$2"; do
    [ "$(podman inspect -f '{{.State.Running}}' "$1" 2> /dev/null)" = true ] || { podman logs "$1" 2>&1 | tail -20 >&2; fail "$1 ended before '$2'"; }
    [ "$(date +%s)" -lt "$until" ] || fail "$1: no '$2' within $3 s"
    sleep 0.1
  done
  now_ms
}

# waits for container $1 to end (at most $2 s) and prints its exit code
await_exit() {
  timeout "$2" podman wait "$1" 2> /dev/null || { podman logs "$1" 2>&1 | tail -20 >&2; fail "$1 did not end within $2 s"; }
}

# checks report $1: every job complete and verified, the devices over $2 members; prints a line
verify_report() {
  "$PY" - "$1" "$2" << 'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [j["name"] + "/" + j["mode"] + ": " + j["status"] + ", verified " + str(j["verified"]) for j in r["jobs"]
       if j["status"] != "complete" or not j["verified"]]
members = sorted(set(r["placement"].values()))
if bad or len(members) != int(sys.argv[2]):
    sys.exit("report %s: %s; devices on %s" % (sys.argv[1], "; ".join(bad) or "jobs fine", members))
print("%d jobs complete and verified, devices on %s" % (len(r["jobs"]), ", ".join(members)))
EOF
}

case "${1:-all}" in
  check)
    why="$(cannot_run)"
    if [ -n "$why" ]; then echo "podman-test: containers cannot run here: $why"; exit 77; fi
    exit 0 ;;
  base) base_tar; exit 0 ;;
  all) ;;
  *) sed -n '2,28p' "$0"; exit 2 ;;
esac

why="$(cannot_run)"
[ -z "$why" ] || { say "containers cannot run here: $why"; exit 77; }
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT/figures.txt"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/$P.XXXXXX")"
trap cleanup EXIT
trap 'exit 130' INT TERM
IMAGE="localhost/$P:latest"
BASE="localhost/$P-base:$(base_key)"
figure() { echo "$*" | tee -a "$OUT/figures.txt" >&2; }

# 1. the base and the image
t0=$(now_ms)
tar="$(base_tar)"
podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'ENV LANG=C.UTF-8' \
  "$tar" "$BASE" > /dev/null
stage_context "$WORK/context"
# docker format keeps the HEALTHCHECK; no intermediate images are kept (nothing to clean up)
podman build -q --format docker --layers=false --build-arg "BASE=$BASE" -f "$ROOT/deploy/Dockerfile" -t "$IMAGE" "$WORK/context" > /dev/null
podman run --rm --network none "$IMAGE" --help 2>&1 | grep -q "^Usage: bitina" || fail "the image does not run bitina"
[ "$(podman run --rm --network none --entrypoint id "$IMAGE" -u)" = "$UID_IN_IMAGE" ] || fail "the image does not run as user $UID_IN_IMAGE"
figure "image: $(( $(podman image inspect -f '{{.Size}}' "$IMAGE") / 1000000 )) MB ($IMAGE on $BASE), base and image ready in $(( ($(now_ms) - t0) / 1000 )) s"

# the run's credentials, made by the image itself (so owned by its user), read-only to it
mkdir -p "$WORK/creds" && chown "$UID_IN_IMAGE" "$WORK/creds"
podman run --rm --network none -v "$WORK/creds:/creds" "$IMAGE" credentials /creds/credentials.p12 --days 1 > /dev/null
chmod 0500 "$WORK/creds"

# 2. compose: Fig. 1 over three containers, the exit code from the coordinator
export BITINA_IMAGE="$IMAGE" BITINA_CREDENTIALS_FILE="$WORK/creds/credentials.p12" BITINA_JAVA_OPTS="$JAVA_OPTS"
export BITINA_SCENARIO=topology-configs/paper-fig1-allreduce.conf
t0=$(now_ms)
set +e
timeout 600 podman-compose -p "$P" -f "$ROOT/deploy/compose.yaml" up --no-build --exit-code-from coordinator > "$OUT/compose.log" 2>&1
rc=$?
set -e
figure "compose: Fig. 1 over three containers in $(( $(now_ms) - t0 )) ms (podman-compose up to its exit), exit $rc"
# on failure, the coordinator's own log and state too: podman-compose's attach has been seen to end with 255 and
# no coordinator output (twice in 5 CI runs, 2026-12), and its log alone cannot tell the run's end from podman's
compose_failed() {
  tail -30 "$OUT/compose.log" >&2
  echo "coordinator state: $(podman inspect -f 'exit {{.State.ExitCode}}, oom {{.State.OOMKilled}}, error "{{.State.Error}}", finished {{.State.FinishedAt}}' "${P}_coordinator_1" 2>&1)" >&2
  podman logs "${P}_coordinator_1" 2>&1 | tail -30 | sed 's/^/coordinator: /' >&2
  fail "$1"
}
podman cp "${P}_coordinator_1:/out/report.json" "$OUT/compose-report.json" 2> /dev/null || compose_failed "compose: no report"
[ "$rc" = 0 ] || compose_failed "compose: exit $rc"
v="$(verify_report "$OUT/compose-report.json" 3)" || fail "compose: the report does not verify"
say "compose: $v"
podman-compose -p "$P" -f "$ROOT/deploy/compose.yaml" down -v > /dev/null 2>&1 || true
# and a failing run's exit code comes out too: a scenario the image does not have is exit 2
set +e
BITINA_SCENARIO=topology-configs/no-such.conf timeout 300 podman-compose -p "$P" -f "$ROOT/deploy/compose.yaml" up --no-build \
  --exit-code-from coordinator > "$OUT/compose-bad.log" 2>&1
rc=$?
set -e
podman-compose -p "$P" -f "$ROOT/deploy/compose.yaml" down -v > /dev/null 2>&1 || true
[ "$rc" = 2 ] || { tail -30 "$OUT/compose-bad.log" >&2; fail "compose: a missing scenario gave exit $rc, not 2"; }
say "compose: a missing scenario's run exits 2 through podman-compose"

# 3. kube: the Job's three pods, the seed found as bitina-0.bitina
podman network create --internal "$P-kube" > /dev/null
t0=$(now_ms)
for i in 0 1 2; do
  "$PY" "$ROOT/deploy/k8s/kube-play-pods.py" "$ROOT/deploy/k8s/bitina.yaml" "$i" --image "$IMAGE" --secret-dir "$WORK/creds" \
    --prefix "$P-" --env "BITINA_JAVA_OPTS=$JAVA_OPTS" \
    --from-file "scenario.conf=$ROOT/topology-configs/paper-fig1-allreduce.conf" \
    --from-file "defaults.conf=$ROOT/topology-configs/defaults.conf" > "$WORK/pod-$i.yaml"
  podman kube play --network "$P-kube:alias=bitina-$i.bitina" "$WORK/pod-$i.yaml" > /dev/null
done
rc="$(await_exit "$P-bitina-0-bitina" 300)"
podman logs "$P-bitina-0-bitina" > "$OUT/kube-coordinator.log" 2>&1
sed -n '/^----- bitina report (JSON) -----$/,/^----- end of bitina report -----$/p' "$OUT/kube-coordinator.log" | sed '1d;$d' > "$OUT/kube-report.json"
figure "kube: Fig. 1 over three pods in $(( $(now_ms) - t0 )) ms (first kube play to the coordinator's exit), exit $rc"
[ "$rc" = 0 ] || { tail -30 "$OUT/kube-coordinator.log" >&2; fail "kube: the coordinator exited $rc"; }
v="$(verify_report "$OUT/kube-report.json" 3)" || fail "kube: the report in the log does not verify"
say "kube: $v"
for i in 1 2; do
  m="$(await_exit "$P-bitina-$i-bitina" 60)"
  [ "$m" = 0 ] || { podman logs "$P-bitina-$i-bitina" 2>&1 | tail -20 >&2; fail "kube: member $i exited $m after the coordinator left"; }
done
say "kube: both members exited 0 after the coordinator left (a Job completes)"
for i in 0 1 2; do podman kube down "$WORK/pod-$i.yaml" > /dev/null 2>&1 || true; done

# 4. loss: plain podman run; member 2 killed while the run is under way
podman network create --internal "$P-net" > /dev/null
mkdir -p "$WORK/loss-out" "$WORK/scenarios" && chown "$UID_IN_IMAGE" "$WORK/loss-out"
cp "$ROOT/topology-configs/defaults.conf" "$WORK/scenarios/"
cat > "$WORK/scenarios/loss.conf" << 'EOF'
# long enough in wall time (tens of seconds over three containers) for a kill mid-run
include "defaults"
topology { generator { kind = fat-tree, k = 4 } }
jobs = [{
  name = k4, kind = allreduce, members = all, tree { mode = auto, root = core-1 }
  data { elements = 4194304, type = float32, op = sum, chunk = 256, window = 4, seed = 3 }
  completion-timeout = 500ms
}]
EOF
common=(--network "$P-net" -v "$WORK/creds:/creds:ro" -e BITINA_CREDENTIALS=/creds/credentials.p12 -e "BITINA_JAVA_OPTS=$JAVA_OPTS")
podman run -d --name "$P-seed" --hostname seed --network-alias seed "${common[@]}" -v "$WORK/loss-out:/out" -v "$WORK/scenarios:/scenarios:ro" \
  -e BITINA_ROLE=coordinator -e BITINA_HOST=seed -e BITINA_SCENARIO=/scenarios/loss.conf -e BITINA_MEMBERS=3 "$IMAGE" > /dev/null
# the seed's health check passes once its port listens: then the members' start is timed alone
until=$(( $(date +%s) + 120 ))
until podman healthcheck run "$P-seed" > /dev/null 2>&1; do
  [ "$(date +%s)" -lt "$until" ] || { podman logs "$P-seed" 2>&1 | tail -20 >&2; fail "loss: the seed did not listen within 120 s"; }
  sleep 0.2
done
for i in 1 2; do
  t0=$(now_ms)
  podman run -d --name "$P-m$i" --hostname "m$i" --network-alias "m$i" "${common[@]}" -e BITINA_ROLE=member -e BITINA_LOG_LEVEL=INFO -e "BITINA_HOST=m$i" -e BITINA_SEED=seed:25520 \
    "$IMAGE" > /dev/null
  t1="$(await_log "$P-m$i" "bitina node: member .* up$" 120)"
  figure "member m$i up $(( t1 - t0 )) ms after podman run (the seed listening)"
  # the image's HEALTHCHECK (run by hand: this Podman schedules health checks through systemd, absent here)
  podman healthcheck run "$P-m$i" > /dev/null 2>&1 || fail "loss: member m$i is up but its health check fails"
done
await_log "$P-m2" "runs [0-9]* devices of run" 120 > /dev/null
sleep 2
[ "$(podman inspect -f '{{.State.Running}}' "$P-seed")" = true ] || fail "loss: the run ended before the kill; make the scenario longer"
t0=$(now_ms)
podman kill "$P-m2" > /dev/null
rc="$(await_exit "$P-seed" 120)"
figure "loss: the run ended $(( $(now_ms) - t0 )) ms after podman kill of member m2, exit $rc"
podman logs "$P-seed" > "$OUT/loss-coordinator.log" 2>&1
cp "$WORK/loss-out/report.json" "$OUT/loss-report.json" 2> /dev/null || fail "loss: no report on the host"
[ "$rc" = 1 ] || { tail -30 "$OUT/loss-coordinator.log" >&2; fail "loss: the coordinator exited $rc, not 1"; }
"$PY" - "$OUT/loss-report.json" << 'EOF' || fail "loss: the report does not name the member and its devices"
import json, re, sys
r = json.load(open(sys.argv[1]))
job = r["jobs"][0]
lost = "pekko://bitina@m2:25520"
devices = set(d for d, m in r["placement"].items() if m == lost)
note = job.get("note") or ""
said = re.search(re.escape(lost) + r" lost with (\d+) devices \[([^\]]*)\]", note)
named = set(x.strip() for x in said.group(2).split(",")) if said else set()
if job["status"] != "failed" or not said or int(said.group(1)) != len(devices) or not devices or not named <= devices:
    sys.exit("loss: job %s, note %r; m2 had %s" % (job["status"], note, sorted(devices)))
print("podman-test: loss: %s" % note, file=sys.stderr)
EOF
say "passed: compose, kube and loss (figures in $OUT/figures.txt)"
