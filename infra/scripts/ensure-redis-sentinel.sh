#!/usr/bin/env bash
# Starts a Redis master, one replica and three Sentinels watching them (master name lab-master, quorum 2)
# for the failover pitfall, and prints the Sentinels' addresses as one comma-separated line (the only
# line on stdout: REDIS_SENTINELS). Installs Debian's redis-sentinel package when it is missing (root).
#   ensure-redis-sentinel.sh [start] [--owner PID] [--master-port M --master-behind P]
#       all on free 127.0.0.1 ports, data under .data/redis-sentinel-<pid>-<n>/<role>-<port>; a master down
#       for 500 ms is failed over, so a failover takes about 1–3 s; with --owner all stop once that process exits.
#       --master-behind P: the master listens on M, but the replica and the Sentinels reach it at
#       127.0.0.1:P, a TCP proxy the caller already runs from P to M (a test that holds the replication
#       stream back there). Sentinel must know the master by the address the replica replicates from:
#       otherwise it "fixes" the replica to replicate from the master directly, around the proxy.
#   ensure-redis-sentinel.sh kill-master <addresses>   SIGKILLs the group's first master (a crash, no shutdown save)
#   ensure-redis-sentinel.sh stop <addresses>          stops them all and deletes their data
# With REDIS_SENTINELS set and its Sentinels answering, start starts nothing and prints it.
# Never touches the machine's Redis on 6379.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER=redis-sentinel
# shellcheck source=local-server.sh
. "$ROOT/infra/scripts/local-server.sh"
SELF=$ROOT/infra/scripts/ensure-redis-sentinel.sh
MASTER_NAME=lab-master

ask() { redis-cli -h 127.0.0.1 -p "$1" --raw "${@:2}" 2>/dev/null; }
pongs() { [ "$(ask "$1" PING)" = PONG ]; }

# Runs one server (redis-server or a Sentinel) in <dir> and waits for its PONG; names it when it fails.
# A redis-server (master or replica) runs under `supervise`, seen by the group at <seen-as>.
run() { # what dir port seen-as-or-"" args...
  local what=$1 dir=$2 port=$3 seen=$4 pid
  shift 4
  [ "$port" != 6379 ] || { say "refusing port 6379: the machine's own Redis"; return 1; }
  mkdir -p "$dir"
  if [ -n "$seen" ]; then
    setsid bash "$SELF" supervise "$dir" "$seen" "$@" </dev/null >/dev/null 2>&1 &
    echo "$!" >"$dir/supervisor.pid"
  else
    setsid "$@" </dev/null >/dev/null 2>&1 &
    echo "$!" >"$dir/redis.pid"
  fi
  pid=$!
  came_up_or_killed "$what" pongs "$port" "$pid" 50 "$dir/redis.log"
}

redis_args() { # dir port
  echo --bind 127.0.0.1 --port "$2" --dir "$1" --save '' --appendonly no --daemonize no --logfile "$1/redis.log" \
    --repl-diskless-sync yes --repl-diskless-sync-delay 0
}

# Starts one member of the group in <group>/<role>-<port>, on <port> or else a free port, and prints the
# port. A free port can still be taken before the bind (the probe only sees listeners, not another
# process's outgoing connection on an ephemeral port): then another one.
start_member() { # group role port-or-"" replicate-from [seen-as]
  local group=$1 role=$2 wanted=$3 from=$4 seen_as=${5:-} port dir
  for _ in 1 2 3 4 5; do
    port=${wanted:-$(free_port)}
    dir=$group/$role-$port
    mkdir -p "$dir"
    case $role in
      # shellcheck disable=SC2046 # redis_args is a word list
      master) run "redis master" "$dir" "$port" "${seen_as:-$port}" redis-server $(redis_args "$dir" "$port") && { echo "$port"; return 0; } ;;
      # shellcheck disable=SC2046
      replica) run "redis replica" "$dir" "$port" "$port" redis-server $(redis_args "$dir" "$port") --replicaof 127.0.0.1 "$from" \
        && { echo "$port"; return 0; } ;;
      sentinel)
        write_sentinel_config "$dir" "$port" "$from"
        run "redis-sentinel" "$dir" "$port" "" redis-sentinel "$dir/sentinel.conf" && { echo "$port"; return 0; }
        ;;
    esac
    [ -z "$wanted" ] && grep -q 'Address already in use' "$dir/redis.log" 2>/dev/null || return 1
    rm -rf "$dir"
  done
  return 1
}

# Runs a member's redis-server in the foreground, again each time it exits while its directory lives (a
# failover fault SHUTDOWNs the master): once the Sentinels name another master than <seen-as>, so the
# failover happens first, and then as that master's replica, empty (no persistence), as an operator
# would bring a failed master back. The group can then fail over again.
supervise() { # dir seen-as redis-server args...
  local dir=$1 seen=$2 group sentinel master="" replicaof=()
  shift 2
  group=$(dirname "$dir")
  while [ -d "$dir" ]; do
    [ -z "$master" ] || replicaof=(--replicaof 127.0.0.1 "$master")
    "$@" "${replicaof[@]}" </dev/null >/dev/null 2>&1 &
    echo "$!" >"$dir/redis.pid"
    wait "$!" || true
    while [ -d "$dir" ]; do
      master=""
      for sentinel in "$group"/sentinel-*; do
        [ -d "$sentinel" ] && master=$(ask "${sentinel##*-}" SENTINEL get-master-addr-by-name "$MASTER_NAME" | tail -n 1) && [ -n "$master" ] && break
      done
      [ -n "$master" ] && [ "$master" != "$seen" ] && break
      sleep 0.2
    done
  done
}

# Sentinel rewrites its config file as it learns the group, so each gets a file of its own.
write_sentinel_config() { # dir port master-port
  cat >"$1/sentinel.conf" <<EOF
bind 127.0.0.1
port $2
dir $1
daemonize no
logfile $1/redis.log
sentinel monitor $MASTER_NAME 127.0.0.1 $3 2
# Short on purpose: a master silent for 500 ms is down, so the pitfall shows within seconds.
sentinel down-after-milliseconds $MASTER_NAME 500
# Also how long a Sentinel waits before trying again after a split vote (twice this).
sentinel failover-timeout $MASTER_NAME 2000
sentinel parallel-syncs $MASTER_NAME 1
EOF
}

field() { # name, then "name\nvalue\n…" pairs on stdin
  awk -v name="$1" 'prev == name { print; exit } { prev = $0 }'
}

# True once every Sentinel names <master-port> as the master, knows the other two and sees one replica up.
agreed() { # master-port sentinel-ports...
  local master=$1 port info
  shift
  for port in "$@"; do
    [ "$(ask "$port" SENTINEL get-master-addr-by-name "$MASTER_NAME" | tail -n 1)" = "$master" ] || return 1
    info=$(ask "$port" SENTINEL master "$MASTER_NAME") || return 1
    [ "$(field num-other-sentinels <<<"$info")" = 2 ] && [ "$(field num-slaves <<<"$info")" = 1 ] || return 1
    [[ $(field flags <<<"$info") == master ]] || return 1
    [ "$(ask "$port" SENTINEL replicas "$MASTER_NAME" | field master-link-status)" = ok ] || return 1
  done
}

# Called as group=$(group_of ...) only; prints nothing for a group already gone.
group_of() { # addresses
  local dirs=("$DATA"/redis-sentinel-*/sentinel-"$(port_of "${1%%,*}")")
  [ -d "${dirs[0]}" ] && dirname "${dirs[0]}"
  return 0
}

stop_group() { # group directory; gone already is no error (the owner watch may come after)
  local group=$1 dir
  [[ $group == "$DATA"/redis-sentinel-* ]] || { say "refusing to delete $group"; exit 1; }
  [ -d "$group" ] || return 0
  # The supervisors first, or one would start its server again.
  for dir in "$group"/*/; do [ -f "$dir/supervisor.pid" ] && kill -9 "$(cat "$dir/supervisor.pid")" 2>/dev/null; done
  for dir in "$group"/*/; do [ -d "$dir" ] && stop_server "${dir%/}" redis.pid; done
  rm -rf "$group"
}

start() { # owner master-port master-behind
  local owner=$1 master=$2 behind=$3 group replica sentinels=() address addresses
  given_group REDIS_SENTINELS && return 0
  command -v redis-server >/dev/null || apt_install redis-server
  command -v redis-sentinel >/dev/null || apt_install redis-sentinel
  command -v redis-sentinel >/dev/null || { say "redis-sentinel installed but not on PATH"; exit 1; }
  group=$DATA/redis-sentinel-$$-$RANDOM
  rm -rf "$group" && mkdir -p "$group"
  failed() { stop_group "$group"; say "the Sentinel group could not be started; see the lines above"; exit 1; }
  master=$(start_member "$group" master "$master" "" "$behind") || failed
  [ -n "$behind" ] || behind=$master
  replica=$(start_member "$group" replica "" "$behind") || failed
  # Synced before the Sentinels start: their first INFO of the master then lists the replica (the next
  # one is 10 s later).
  for _ in $(seq 1 200); do
    ask "$replica" INFO replication | grep -q '^master_link_status:up' && break
    sleep 0.05
  done
  ask "$replica" INFO replication | grep -q '^master_link_status:up' \
    || { stop_group "$group"; say "redis replica 127.0.0.1:$replica did not sync from 127.0.0.1:$behind within 10 s"; exit 1; }
  for _ in 1 2 3; do
    address=$(start_member "$group" sentinel "" "$behind") || failed
    sentinels+=("$address")
  done
  if [ -n "$owner" ]; then
    setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; exec bash "$2" stop "$3"' \
      _ "$owner" "$SELF" "127.0.0.1:${sentinels[0]}" >/dev/null 2>&1 </dev/null &
  fi
  # Sentinels find each other through hello messages every 2 s: a failover needs a majority of them.
  for _ in $(seq 1 300); do
    agreed "$behind" "${sentinels[@]}" && break
    sleep 0.1
  done
  agreed "$behind" "${sentinels[@]}" || {
    stop_group "$group"
    say "the Sentinels did not agree on master 127.0.0.1:$behind with replica 127.0.0.1:$replica within 30 s"
    exit 1
  }
  addresses=$(printf '127.0.0.1:%s,' "${sentinels[@]}")
  say "master 127.0.0.1:$master (seen at :$behind), replica 127.0.0.1:$replica, Sentinels ${addresses%,} ($MASTER_NAME), data in $group"
  echo "${addresses%,}"
}

case "${1:-start}" in
  start | --*)
    [ "${1:-}" != start ] || shift
    owner="" master="" behind=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --owner) owner=${2:?--owner needs a pid}; shift 2 ;;
        --master-port) master=${2:?--master-port needs a port}; shift 2 ;;
        --master-behind) behind=${2:?--master-behind needs a port}; shift 2 ;;
        *) say "unknown option $1"; exit 2 ;;
      esac
    done
    [ -z "$behind" ] || [ -n "$master" ] || { say "--master-behind needs --master-port (the proxy's target)"; exit 2; }
    start "$owner" "$master" "$behind"
    ;;
  supervise)
    shift
    supervise "$@"
    ;;
  kill-master)
    group=$(group_of "${2:?kill-master needs the addresses that start printed}")
    dirs=("${group:-/nonexistent}"/master-*)
    [ -d "${dirs[0]}" ] || { say "no master of the lab under $group"; exit 1; }
    kill -9 "$(cat "${dirs[0]}/redis.pid")"
    port=${dirs[0]##*-}
    for _ in $(seq 1 100); do answers "$port" || exit 0; sleep 0.02; done
    say "master 127.0.0.1:$port still answers after SIGKILL"
    exit 1
    ;;
  stop)
    group=$(group_of "${2:?stop needs the addresses that start printed}")
    [ -z "$group" ] || stop_group "$group"
    ;;
  *)
    say "usage: ensure-redis-sentinel.sh [start [--owner PID] [--master-port M --master-behind P]] | kill-master <addresses> | stop <addresses>"
    exit 2
    ;;
esac
