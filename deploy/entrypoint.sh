#!/bin/sh
# Container entrypoint. BITINA_ROLE=coordinator runs SCENARIO over BITINA_MEMBERS members as
# their seed; BITINA_ROLE=member joins BITINA_SEED; BITINA_ROLE=statefulset picks by the pod's
# ordinal (pod 0 coordinates, the others join it). Without BITINA_ROLE the arguments go to bitina.
# BITINA_CREDENTIALS names the cluster's credentials (a mounted secret, made once with
# `bitina credentials FILE`); bitina reads it itself. BITINA_INSECURE=1 runs over plain TCP instead.
set -eu
JAVA="java ${BITINA_JAVA_OPTS:--Xmx2g -XX:+UseParallelGC} -jar /opt/bitina/bitina-node.jar"
HOST="${BITINA_HOST:-$(hostname -f 2>/dev/null || hostname)}"
PORT="${BITINA_PORT:-25520}"
ROLE="${BITINA_ROLE:-}"
if [ "$ROLE" = "statefulset" ]; then
  # the name the others use must be the name this member calls itself: pod.service, as in the seed
  HOST="${BITINA_HOST:-$(hostname).${BITINA_SERVICE:-bitina}}"
  case "$(hostname)" in *-0) ROLE=coordinator ;; *) ROLE=member ;; esac
fi
case "$ROLE" in
  coordinator) exec $JAVA run "${BITINA_SCENARIO:?}" --members "${BITINA_MEMBERS:?}" --host "$HOST" --port "$PORT" --quiet \
                 --report "${BITINA_REPORT:-/tmp/report.json}" ${BITINA_INSECURE:+--insecure} ;;
  member) exec $JAVA node --host "$HOST" --port "$PORT" --seed "${BITINA_SEED:?}" ${BITINA_INSECURE:+--insecure} ;;
  *) exec $JAVA "$@" ;;
esac
