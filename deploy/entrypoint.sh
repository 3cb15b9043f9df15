#!/bin/sh
# Container entrypoint (deploy/Dockerfile). By BITINA_ROLE:
#   coordinator  runs BITINA_SCENARIO over BITINA_MEMBERS members as their seed, on BITINA_HOST
#                (default: the host name); the report goes to $BITINA_OUT/report.json (default
#                /out, a volume), and the tables to $BITINA_OUT/csv; exit code: the run's
#   member       joins BITINA_SEED (HOST:PORT) and runs the devices placed on it until stopped;
#                BITINA_EXIT_WITH_SEED=1: until the coordinator leaves (exit 0) or is lost (exit 1);
#                BITINA_STAY=1: the container stays after a member that ended well, until stopped (Compose)
#   job          a pod of a Kubernetes indexed Job (JOB_COMPLETION_INDEX): index 0 is the
#                coordinator, the others members that exit with it; each calls itself
#                $(hostname).$BITINA_SERVICE, its DNS name under the Job's headless service
# Without BITINA_ROLE the arguments go to bitina (`run FILE`, `validate FILE`, `--help`).
# `entrypoint.sh health` is the HEALTHCHECK: a member is ready once it is up in the cluster
# (it writes /tmp/bitina-ready), a coordinator once its seed port listens.
# BITINA_REPORT_TO_LOG=1 also prints the report to standard output between two marker lines
# (for clusters where the log is where a result is read). BITINA_CREDENTIALS names the
# cluster's credentials (a mounted secret, made once with `bitina credentials FILE`); bitina
# reads it itself. BITINA_INSECURE=1 runs over plain TCP instead.
set -eu
APP=/opt/bitina
READY=/tmp/bitina-ready
PORT="${BITINA_PORT:-25520}"
OUT="${BITINA_OUT:-/out}"
ROLE="${BITINA_ROLE:-}"
HOST="${BITINA_HOST:-$(hostname)}"
if [ "$ROLE" = "job" ]; then
  # the name the others use must be the name this member calls itself: pod.service, as in the seed
  HOST="${BITINA_HOST:-$(hostname).${BITINA_SERVICE:-bitina}}"
  if [ "${JOB_COMPLETION_INDEX:?an indexed Job sets it}" = 0 ]; then ROLE=coordinator; else ROLE=member; BITINA_EXIT_WITH_SEED=1; fi
fi

if [ "${1:-}" = health ]; then
  case "$ROLE" in
    member) exec test -f "$READY" ;;
    # the seed's port in LISTEN state (0A) in /proc/net/tcp*: the port in hex
    *) exec grep -qi ":$(printf '%04X' "$PORT") [0-9A-F:]* 0A " /proc/net/tcp /proc/net/tcp6 ;;
  esac
fi

# a role's command is made here: the image's CMD (--help) is for runs without a role
[ -z "$ROLE" ] || set --
# shellcheck disable=SC2086 # BITINA_JAVA_OPTS is a list of options
set -- java ${BITINA_JAVA_OPTS:--Xmx2g -XX:+UseParallelGC} -cp "$APP/lib/*:$APP/app/*" org.bitina.node.Main "$@"

# runs "$@" as a child, passing a stop (TERM, INT) on to it; its exit code in rc
supervise() {
  "$@" &
  pid=$!
  trap 'kill -TERM "$pid" 2>/dev/null' TERM INT
  set +e
  wait "$pid"; rc=$?
  while kill -0 "$pid" 2>/dev/null; do wait "$pid"; rc=$?; done
  set -e
}

case "$ROLE" in
  coordinator)
    set -- "$@" run "${BITINA_SCENARIO:?}" --members "${BITINA_MEMBERS:?}" --host "$HOST" --port "$PORT" --quiet \
      --report "$OUT/report.json" --csv "$OUT/csv" ${BITINA_INSECURE:+--insecure}
    if [ -z "${BITINA_REPORT_TO_LOG:-}" ]; then exec "$@"; fi
    # stay the parent to print the report after the run; pass a stop on to the run
    supervise "$@"
    if [ -f "$OUT/report.json" ]; then
      echo "----- bitina report (JSON) -----"
      cat "$OUT/report.json"; echo   # the report ends without a newline
      echo "----- end of bitina report -----"
    fi
    exit "$rc" ;;
  member)
    set -- "$@" node --host "$HOST" --port "$PORT" --seed "${BITINA_SEED:?}" --ready-file "$READY" \
      ${BITINA_EXIT_WITH_SEED:+--exit-with-seed} ${BITINA_INSECURE:+--insecure}
    if [ -z "${BITINA_STAY:-}" ]; then exec "$@"; fi
    # Compose: the coordinator lets its members go before it writes the report, and `up --exit-code-from
    # coordinator` stops every container as soon as one exits, so a member that exited first cut the
    # coordinator off before its report (seen in CI). Stay until stopped; a failed member still exits.
    supervise "$@"
    [ "$rc" = 0 ] || exit "$rc"
    trap 'exit 0' TERM INT
    while :; do sleep 1; done ;;
  '') exec "$@" ;;
  *) echo "entrypoint: BITINA_ROLE must be coordinator, member or job, not '$ROLE'" >&2; exit 2 ;;
esac
