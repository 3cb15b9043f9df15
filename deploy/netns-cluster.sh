#!/usr/bin/env bash
# Runs a scenario over N cluster members, each in its own network namespace, joined by veth
# pairs to one bridge: the members talk over real interfaces, and one can be cut off.
# Needs root and iproute2 (`ip netns`); tc netem is not used.
#
#   deploy/netns-cluster.sh run FILE.conf N [--cut-at SECONDS:I] [bitina run options...]
#       member 0 (namespace bitina-m0, 10.77.0.10) runs the coordinator and is the seed;
#       members 1..N-1 run `bitina node`. With --cut-at S:I, member I's link goes down S
#       seconds after it started its devices (E4: the split brain resolver downs it, the run ends saying so).
#       The members talk TLS with $BITINA_CREDENTIALS if set, else with credentials made for
#       this run (`bitina credentials`, in a folder of its own, removed after the run).
#   deploy/netns-cluster.sh cut I     take member I's link down (from another shell)
#   deploy/netns-cluster.sh clean     remove the namespaces and the bridge
#
# Java: BITINA_CP (a class path) if set, else emulator-node/target/bitina-node.jar.
# BITINA_NET (default 10.77.0) is the /24 the members use; BITINA_NETNS (default bitina) prefixes
# the names of namespaces, links and the bridge, so that two runs can share a machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NET="${BITINA_NET:-10.77.0}"
P="${BITINA_NETNS:-bitina}"
BR="${P}-br0"
PORT=25520
HEAP="${BITINA_MEMBER_HEAP:-2g}"

java_cmd() {
  if [ -n "${BITINA_CP:-}" ]; then
    echo "java -Xmx$HEAP -XX:+UseParallelGC -cp $BITINA_CP org.bitina.node.Main"
  else
    echo "java -Xmx$HEAP -XX:+UseParallelGC -jar $ROOT/emulator-node/target/bitina-node.jar"
  fi
}

clean() {
  for ns in $(ip netns list | awk -v p="${P}-m" 'index($1, p) == 1 {print $1}'); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns"
  done
  # a namespace the kernel has not finished tearing down keeps its veth peers: delete them here
  for l in $(ip -br link | awk -v p="${P}v" 'index($1, p) == 1 {split($1, a, "@"); print a[1]}'); do
    ip link del "$l" 2>/dev/null || true
  done
  ip link del "$BR" 2>/dev/null || true
}

up() {
  local n="$1"
  ip link add "$BR" type bridge
  ip link set "$BR" up
  for i in $(seq 0 $((n - 1))); do
    local ns="${P}-m$i"
    ip netns add "$ns"
    ip link add "${P}v$i" type veth peer name eth0 netns "$ns"
    ip link set "${P}v$i" master "$BR" up
    ip -n "$ns" addr add "$NET.$((10 + i))/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
  done
}

cut() {
  ip link set "${P}v$1" down
  echo "netns-cluster: member $1 cut off" >&2
}

case "${1:-}" in
  run)
    file="$2"; n="$3"; shift 3
    cut_at=""
    cutter=""
    if [ "${1:-}" = "--cut-at" ]; then cut_at="$2"; shift 2; fi
    JAVA="$(java_cmd)"
    creds_dir="$(mktemp -d)"
    clean
    trap 'clean; rm -rf "$creds_dir"' EXIT
    creds="${BITINA_CREDENTIALS:-}"
    if [ -z "$creds" ]; then
      creds="$creds_dir/credentials.p12"
      $JAVA credentials "$creds" --days 1 > /dev/null
    fi
    up "$n"
    pids=()
    for i in $(seq 1 $((n - 1))); do
      BITINA_LOG_LEVEL=INFO ip netns exec "${P}-m$i" $JAVA node --host "$NET.$((10 + i))" --port "$PORT" --seed "$NET.10:$PORT" --credentials "$creds" \
        > "${BITINA_LOG_DIR:-/tmp}/${P}-member-$i.log" 2>&1 &
      pids+=("$!")
    done
    if [ -n "$cut_at" ]; then
      victim="${cut_at##*:}"
      # the run is under way once the member's log says it runs its devices; then S more seconds
      (for _ in $(seq 1 1500); do
         grep -q "devices of run" "${BITINA_LOG_DIR:-/tmp}/${P}-member-$victim.log" 2>/dev/null && break
         sleep 0.2
       done
       sleep "${cut_at%%:*}"; cut "$victim") &
      cutter=$!
    fi
    set +e
    ip netns exec "${P}-m0" $JAVA run "$file" --members "$n" --host "$NET.10" --port "$PORT" --credentials "$creds" "$@"
    rc=$?
    set -e
    # a cut that has not happened yet must not outlive this run
    [ -n "${cutter:-}" ] && kill "$cutter" 2>/dev/null || true
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
    exit "$rc"
    ;;
  cut) cut "$2" ;;
  clean) clean ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
