#!/usr/bin/env bash
# Starts a standalone ZooKeeper for the lab's ZooKeeper lock and prints its connect string (the only
# line on stdout); installs Debian's zookeeper package (3.8, ~15 s and ~45 packages the first time)
# when it is missing (needs root). Java must be on the machine.
#   ensure-zookeeper.sh [start] [--port N] [--owner PID]   a new ZooKeeper on 127.0.0.1 (a free port unless
#                                                          --port), config and data under .data/zookeeper-<port>;
#                                                          with --owner it stops itself once that process has exited
#   ensure-zookeeper.sh stop <connect string|port>         stops it and deletes its directory
# With ZOOKEEPER_CONNECT set and answering, start starts nothing and prints it. Never touches Redis.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER=zookeeper
# shellcheck source=local-server.sh
. "$ROOT/infra/scripts/local-server.sh"

ZOOKEEPER_JAR=/usr/share/java/zookeeper.jar
# Debian's jar names its dependencies in its manifest; a logger binding is the one thing it leaves out
# (without one the server's own errors, such as a port it cannot bind, are silently dropped).
SLF4J_SIMPLE=/usr/share/java/slf4j-simple.jar

# `srvr` over bash's own TCP (no nc or zkCli needed), one of the four-letter words the config allows.
# True once the server serves requests, not merely listens. The read has a time limit: a command that
# arrives while the server is still starting may never see its socket closed (3.8.0 fails closing it).
serving() { # port
  local reply
  reply=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf srvr >&3 && timeout 2 cat <&3) 2>/dev/null) || true
  [[ $reply == *'Mode: standalone'* ]]
}

# tickTime is ZooKeeper's unit of time: sessions are checked for expiry once a tick, and a client may
# ask for a session as short as minSessionTimeout. 200 ms ticks and 400 ms sessions let the tests see
# a dead holder's node vanish within a second; the lock's clients choose their own timeout above it.
write_config() { # dir port
  cat >"$1/zoo.cfg" <<EOF
tickTime=200
minSessionTimeout=400
maxSessionTimeout=30000
dataDir=$1/data
clientPort=$2
clientPortAddress=127.0.0.1
# The admin server would take port 8080; the four-letter words are enough to tell it is up.
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok,stat,cons,dump
EOF
}

stop() { # connect string or port
  local port=${1##*:}
  stop_server "$DATA/zookeeper-$port" zookeeper.pid
}

start() { # owner pid or "", port or ""
  local owner=$1 wanted=$2 port dir pid classpath
  if [ -n "${ZOOKEEPER_CONNECT:-}" ]; then
    local first=${ZOOKEEPER_CONNECT%%,*}
    serving "${first##*:}" || { say "ZOOKEEPER_CONNECT=$ZOOKEEPER_CONNECT is set but does not answer"; exit 1; }
    echo "$ZOOKEEPER_CONNECT"
    return 0
  fi
  command -v java >/dev/null || { say "java is not on PATH: ZooKeeper needs a Java runtime (apt-get install -y default-jre-headless)"; exit 1; }
  [ -f "$ZOOKEEPER_JAR" ] || apt_install zookeeper
  [ -f "$ZOOKEEPER_JAR" ] || { say "the zookeeper package is installed but $ZOOKEEPER_JAR is missing"; exit 1; }
  classpath=$ZOOKEEPER_JAR
  [ -f "$SLF4J_SIMPLE" ] && classpath=$classpath:$SLF4J_SIMPLE
  if [ -n "$wanted" ] && answers "$wanted"; then
    say "port $wanted on 127.0.0.1 is taken: ZooKeeper cannot start there"
    exit 1
  fi
  for _ in 1 2 3; do # a port taken between the check and ZooKeeper's bind: try another (unless asked for one)
    port=${wanted:-$(free_port)}
    dir=$DATA/zookeeper-$port
    rm -rf "$dir" && mkdir -p "$dir/data"
    write_config "$dir" "$port"
    # A small heap, the serial collector and the quick JIT tier: a test server up in about a second.
    setsid java -Xms32m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
      -cp "$classpath" org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg" \
      >"$dir/zookeeper.log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$dir/zookeeper.pid"
    if came_up serving "$port" "$pid" 150; then
      [ -z "$owner" ] || stop_with_owner "$owner" "$pid" "$ROOT/infra/scripts/ensure-zookeeper.sh" "$port"
      say "ZooKeeper (pid $pid) serves 127.0.0.1:$port, config and data in $dir"
      echo "127.0.0.1:$port"
      return 0
    fi
    say "ZooKeeper did not come up on 127.0.0.1:$port; its log ends:"
    tail -n 5 "$dir/zookeeper.log" >&2 || true
    stop "$port"
    [ -z "$wanted" ] || break
  done
  say "ZooKeeper could not be started; see the log lines above"
  exit 1
}

case "${1:-start}" in
  start)
    shift $(($# > 0 ? 1 : 0))
    owner="" port=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --owner) owner=${2:?--owner needs a pid} && shift 2 ;;
        --port) port=${2:?--port needs a port} && shift 2 ;;
        *) say "unknown option $1" && exit 2 ;;
      esac
    done
    start "$owner" "$port"
    ;;
  stop) stop "${2:?stop needs the connect string or port that start printed}" ;;
  *)
    say "usage: ensure-zookeeper.sh [start [--port N] [--owner PID]] | stop <connect string|port>"
    exit 2
    ;;
esac
