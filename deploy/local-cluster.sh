#!/usr/bin/env bash
# N member JVMs on loopback on this machine, over TLS with credentials made for the run (or
# --credentials FILE, or --insecure): member 0 runs the coordinator and is the seed,
# members 1..N-1 are started beside it, their logs go to a run folder, and all of them stop
# after the run, on failure or on Ctrl-C.
#   deploy/local-cluster.sh FILE.conf N [bitina run options...]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
file="$1"; n="$2"; shift 2
exec "$ROOT/bitina" run "$file" --jvms "$n" "$@"
