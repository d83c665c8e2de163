#!/usr/bin/env bash
# Starts N independent Redis masters for RedLock (no replication, no cluster: RedLock's premise) and
# prints their addresses as one comma-separated line (the only line on stdout).
#   ensure-redis-nodes.sh [start] [--nodes N] [--appendonly] [--appendfsync always|everysec] [--cluster] [--owner PID]
#       N (default 5) redis-servers on free 127.0.0.1 ports, data under .data/redis-nodes-<first port>/<port>;
#       no persistence unless --appendonly (AOF, fsync always unless --appendfsync says everysec); with
#       --owner they stop once that process exits; --cluster starts them cluster-enabled, not yet joined
#       (ensure-redis-cluster.sh joins them). The first node runs under libfaketime (Debian's faketime,
#       installed on first use) with its clock read from <its dir>/faketime ("+0": the real time), so the
#       clock-jump fault can step that node's wall clock by rewriting the file.
#   ensure-redis-nodes.sh stop <addresses|one address of the group>   stops them all, deletes their data
#   ensure-redis-nodes.sh stop-node <address>                         SIGKILLs that one node (a crash); its data stays
#   ensure-redis-nodes.sh start-node <address> [--empty]              starts it again on its port; --empty deletes
#       its data first (a restart without persistence); without --appendonly a node keeps nothing anyway
# With REDLOCK_NODES set and every address answering, start starts nothing and prints it.
# Never touches the machine's Redis on 6379.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER=redis-nodes
# shellcheck source=local-server.sh
. "$ROOT/infra/scripts/local-server.sh"
SELF=$ROOT/infra/scripts/ensure-redis-nodes.sh

# PING over bash's own TCP: true once the node serves commands (a loading node answers -LOADING).
pongs() { # port
  local reply
  reply=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'PING\r\n' >&3 && read -r -t 1 line <&3 && echo "$line") 2>/dev/null) || return 1
  [[ $reply == +PONG* ]]
}


# Called as dir=$(node_dir ...) only: a plain assignment, so set -e stops the script when it fails.
node_dir() { # port -> the node's directory, whichever group it belongs to
  local dirs=("$DATA"/redis-nodes-*/"$1")
  [ -d "${dirs[0]}" ] || { say "no redis node of the lab on port $1 (nothing under $DATA/redis-nodes-*/$1)"; exit 1; }
  echo "${dirs[0]}"
}

FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1

# The environment a node runs in: the group's first node (its faketime file written at the group's start)
# under libfaketime, the others as they are. libfaketime reads the file at every clock call
# (FAKETIME_NO_CACHE: a jump lands at once, not at the next cache refresh) and fakes the wall clock only
# (DONT_FAKE_MONOTONIC: an NTP step moves CLOCK_REALTIME, never CLOCK_MONOTONIC), which is the clock
# Redis 7 expires keys by (mstime(), gettimeofday). glibc is preloaded after it: Debian's redis-server
# is linked to jemalloc, whose start-up calls clock_gettime inside libfaketime's own start-up (dlsym ->
# calloc -> jemalloc -> clock_gettime) and hangs it (libfaketime issue #130); with libc's malloc found
# first, the node allocates with glibc and libfaketime starts.
node_env() { # dir
  if [ -f "$1/faketime" ]; then
    echo env "LD_PRELOAD=$FAKETIME_LIB:/lib/x86_64-linux-gnu/libc.so.6" "FAKETIME_TIMESTAMP_FILE=$1/faketime" FAKETIME_NO_CACHE=1 DONT_FAKE_MONOTONIC=1
  else
    echo env
  fi
}

# Starts the node in <dir> on <port> and waits for its PONG; says which node failed and why.
run_node() { # dir port
  local dir=$1 port=$2 appendonly appendfsync cluster pid
  appendonly=$(cat "$(dirname "$dir")/appendonly")
  appendfsync=$(cat "$(dirname "$dir")/appendfsync" 2>/dev/null || echo always)
  cluster=$(cat "$(dirname "$dir")/cluster" 2>/dev/null || echo no)
  [ "$port" != 6379 ] || { say "refusing port 6379: the machine's own Redis"; return 1; }
  # By its absolute path, with DEBUG from local clients: the node-restart fault restarts a node with DEBUG
  # CRASH-AND-RECOVER, which re-executes the binary by the path it was started with (and its environment).
  # shellcheck disable=SC2046
  setsid $(node_env "$dir") "$(command -v redis-server)" --bind 127.0.0.1 --port "$port" --dir "$dir" --save '' --appendonly "$appendonly" --appendfsync "$appendfsync" \
    --enable-debug-command local --cluster-enabled "$cluster" --cluster-config-file "$dir/nodes.conf" --cluster-node-timeout 2000 \
    --daemonize no --logfile "$dir/redis.log" </dev/null >>"$dir/redis.log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/redis.pid"
  # 20 s: a loaded machine (CI, several test runs) can take seconds to start one.
  came_up_or_killed "redis-server node" pongs "$port" "$pid" 200 "$dir/redis.log"
}

remove_group() { # .data/redis-nodes-<port>: stops its nodes, deletes it
  [[ $1 == "$DATA"/redis-nodes-* ]] || { say "refusing to delete $1"; exit 1; }
  for dir in "$1"/*/; do [ -d "$dir" ] && stop_server "${dir%/}" redis.pid; done
  rm -rf "$1"
}

stop_group() { # addresses or one address; a group already gone is no error (the owner watch may come after)
  local port node
  port=$(port_of "${1%%,*}")
  for node in "$DATA"/redis-nodes-*/"$port"; do
    [ -d "$node" ] && remove_group "$(dirname "$node")"
  done
  return 0
}

start() { # nodes appendonly owner cluster appendfsync
  local count=$1 appendonly=$2 owner=$3 cluster=$4 appendfsync=$5 group="" ports=() port addresses failures=0
  given_group REDLOCK_NODES && return 0
  command -v redis-server >/dev/null || apt_install redis-server
  command -v redis-server >/dev/null || { say "redis-server installed but not on PATH"; exit 1; }
  [ -f "$FAKETIME_LIB" ] || apt_install faketime
  [ -f "$FAKETIME_LIB" ] || { say "faketime installed but $FAKETIME_LIB is not there"; exit 1; }
  while [ ${#ports[@]} -lt "$count" ]; do
    port=$(free_port)
    [[ " ${ports[*]} " == *" $port "* ]] && continue
    # A cluster node also binds its bus on port + 10000: below the ephemeral range, and free too.
    if [ "$cluster" = yes ] && { [ $((port + 10000)) -ge "$(ephemeral_low)" ] || answers $((port + 10000)); }; then continue; fi
    if [ -z "$group" ]; then
      group=$DATA/redis-nodes-$port
      rm -rf "$group" && mkdir -p "$group"
      echo "$appendonly" >"$group/appendonly"
      echo "$cluster" >"$group/cluster"
      echo "$appendfsync" >"$group/appendfsync"
    fi
    mkdir -p "$group/$port"
    [ ${#ports[@]} -gt 0 ] || echo "+0" >"$group/$port/faketime"
    if run_node "$group/$port" "$port"; then
      ports+=("$port")
      continue
    fi
    # Most often the port was taken between the check and the bind (by a client's ephemeral port):
    # another port, twice more in all.
    rm -rf "${group:?}/$port"
    failures=$((failures + 1))
    if [ "$failures" -ge 3 ]; then
      remove_group "$group"
      say "redis nodes could not be started; see the lines above"
      exit 1
    fi
  done
  # Watches the owner only: a node stopped on purpose (stop-node) must not take the group with it.
  if [ -n "$owner" ]; then
    setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec bash "$2" stop "$3"' \
      _ "$owner" "$SELF" "${ports[0]}" >/dev/null 2>&1 </dev/null &
  fi
  addresses=$(printf '127.0.0.1:%s,' "${ports[@]}")
  say "$count redis nodes (appendonly $appendonly) answer on ${addresses%,}, data in $group"
  echo "${addresses%,}"
}

case "${1:-start}" in
  start | --*)
    [ "${1:-}" != start ] || shift
    nodes=5 appendonly=no owner="" cluster=no appendfsync=always
    while [ $# -gt 0 ]; do
      case "$1" in
        --nodes) nodes=${2:?--nodes needs a number}; shift 2 ;;
        --appendonly) appendonly=yes; shift ;;
        --appendfsync) appendfsync=${2:?--appendfsync needs always or everysec}; shift 2 ;;
        --cluster) cluster=yes; shift ;;
        --owner) owner=${2:?--owner needs a pid}; shift 2 ;;
        *) say "unknown option $1"; exit 2 ;;
      esac
    done
    [[ $nodes =~ ^[1-9][0-9]?$ ]] || { say "--nodes must be 1 to 99 (got $nodes)"; exit 2; }
    [[ $appendfsync =~ ^(always|everysec)$ ]] || { say "--appendfsync must be always or everysec (got $appendfsync)"; exit 2; }
    start "$nodes" "$appendonly" "$owner" "$cluster" "$appendfsync"
    ;;
  stop) stop_group "${2:?stop needs the addresses that start printed}" ;;
  stop-node)
    port=$(port_of "${2:?stop-node needs an address}")
    dir=$(node_dir "$port")
    kill -9 "$(cat "$dir/redis.pid")" 2>/dev/null || true
    for _ in $(seq 1 100); do answers "$port" || exit 0; sleep 0.02; done
    say "node 127.0.0.1:$port still answers after SIGKILL"
    exit 1
    ;;
  start-node)
    port=$(port_of "${2:?start-node needs an address}")
    dir=$(node_dir "$port")
    pongs "$port" && { say "node 127.0.0.1:$port is running; stop-node it first"; exit 1; }
    if [ "${3:-}" = --empty ]; then find "$dir" -mindepth 1 ! -name redis.log ! -name faketime -exec rm -rf {} +; fi
    run_node "$dir" "$port"
    ;;
  *)
    say "usage: ensure-redis-nodes.sh [start [--nodes N] [--appendonly] [--appendfsync always|everysec] [--cluster] [--owner PID]] | stop <addresses> | stop-node <address> | start-node <address> [--empty]"
    exit 2
    ;;
esac
