#!/usr/bin/env bash
# Starts a Redis Cluster of three masters (no replicas, no persistence) for the segmented-cluster
# strategy and prints their addresses as one comma-separated line (the only line on stdout).
#   ensure-redis-cluster.sh [start] [--owner PID]   three cluster-enabled redis-servers on free 127.0.0.1
#       ports (ensure-redis-nodes.sh --cluster, data under .data/redis-nodes-<first port>/), joined by
#       redis-cli --cluster create; waits until every node says cluster_state:ok; the node table goes to stderr
#   ensure-redis-cluster.sh stop <addresses|one address>   stops them all, deletes their data
# With REDIS_CLUSTER_NODES set and the cluster answering cluster_state:ok, start starts nothing and prints it.
# Never touches the machine's Redis on 6379.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER=redis-cluster
# shellcheck source=local-server.sh
. "$ROOT/infra/scripts/local-server.sh"
NODES=$ROOT/infra/scripts/ensure-redis-nodes.sh

cluster_ok() { # host:port
  redis-cli -h "${1%:*}" -p "${1##*:}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'
}

start() { # owner
  local owner=$1 addresses address
  if [ -n "${REDIS_CLUSTER_NODES:-}" ]; then
    cluster_ok "${REDIS_CLUSTER_NODES%%,*}" || { say "REDIS_CLUSTER_NODES=$REDIS_CLUSTER_NODES is set but its cluster is not ok"; exit 1; }
    echo "$REDIS_CLUSTER_NODES"
    return 0
  fi
  # The nodes themselves: free ports, the retry on a port taken before the bind, the owner watch.
  addresses=$(REDLOCK_NODES='' bash "$NODES" start --nodes 3 --cluster ${owner:+--owner "$owner"}) || { say "the cluster's nodes could not be started; see the lines above"; exit 1; }
  # --cluster-replicas 0: three masters that split the 16384 slots; --cluster-yes accepts that layout.
  if ! redis-cli --cluster create ${addresses//,/ } --cluster-replicas 0 --cluster-yes >"$DATA/redis-cluster-create.log" 2>&1; then
    say "redis-cli --cluster create failed; its output ends:"
    tail -n 5 "$DATA/redis-cluster-create.log" >&2
    bash "$NODES" stop "$addresses"
    exit 1
  fi
  for address in ${addresses//,/ }; do
    for _ in $(seq 1 400); do # 20 s: the nodes agree on the slots through their cluster bus
      cluster_ok "$address" && continue 2
      sleep 0.05
    done
    say "redis cluster node $address never reached cluster_state:ok"
    bash "$NODES" stop "$addresses"
    exit 1
  done
  say "redis cluster of 3 masters ok on $addresses:"
  redis-cli -h 127.0.0.1 -p "${addresses##*:}" cluster nodes | awk '{print "  " $2, $3, $9}' >&2
  echo "$addresses"
}

case "${1:-start}" in
  start | --*)
    [ "${1:-}" != start ] || shift
    owner=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --owner) owner=${2:?--owner needs a pid}; shift 2 ;;
        *) say "unknown option $1"; exit 2 ;;
      esac
    done
    command -v redis-cli >/dev/null || apt_install redis-tools
    start "$owner"
    ;;
  stop) bash "$NODES" stop "${2:?stop needs the addresses that start printed}" ;;
  *)
    say "usage: ensure-redis-cluster.sh [start [--owner PID]] | stop <addresses>"
    exit 2
    ;;
esac
