#!/usr/bin/env bash
# Starts a standalone etcd for the lab's etcd lock and prints its client endpoint (the only line on
# stdout); installs Debian's etcd-server package when etcd is missing (needs root).
#   ensure-etcd.sh [start] [--owner PID]   a new etcd on free 127.0.0.1 ports, data under .data/etcd-<port>;
#                                          with --owner it stops itself once that process has exited
#   ensure-etcd.sh stop <endpoint|port>    stops it and deletes its data directory
# With ETCD_ENDPOINTS set and answering, start starts nothing and prints it. Never touches Redis.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER=etcd
# shellcheck source=local-server.sh
. "$ROOT/infra/scripts/local-server.sh"

# etcd's /health over bash's own TCP: no curl or etcdctl needed. True once the single member has
# elected itself leader and serves requests.
healthy() { # port
  local reply
  reply=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && cat <&3) 2>/dev/null) || return 1
  [[ $reply == *'"health":"true"'* ]]
}

# etcd 3.4 refuses to start on architectures it does not officially support (only amd64 and ppc64le)
# unless ETCD_UNSUPPORTED_ARCH names Go's name for the one it runs on; naming a supported one is harmless.
go_arch() {
  case "$(dpkg --print-architecture 2>/dev/null || uname -m)" in
    amd64 | x86_64) echo amd64 ;;
    arm64 | aarch64) echo arm64 ;;
    ppc64el | ppc64le) echo ppc64le ;;
    armhf | armel) echo arm ;;
    i386) echo 386 ;;
    *) uname -m ;;
  esac
}

stop() { # endpoint or port
  stop_server "$DATA/etcd-${1##*:}" etcd.pid
}

start() { # owner pid or ""
  local owner=$1 client peer dir pid
  if [ -n "${ETCD_ENDPOINTS:-}" ]; then
    local first=${ETCD_ENDPOINTS%%,*}
    healthy "${first##*:}" || { say "ETCD_ENDPOINTS=$ETCD_ENDPOINTS is set but does not answer"; exit 1; }
    echo "$ETCD_ENDPOINTS"
    return 0
  fi
  command -v etcd >/dev/null || apt_install etcd-server
  command -v etcd >/dev/null || { say "etcd-server installed but no etcd on PATH"; exit 1; }
  for _ in 1 2 3; do # a port taken between the check and etcd's bind: try other ports
    client=$(free_port)
    peer=$(free_port)
    [ "$client" != "$peer" ] || continue
    dir=$DATA/etcd-$client
    rm -rf "$dir" && mkdir -p "$dir"
    ETCD_UNSUPPORTED_ARCH=$(go_arch) setsid etcd --name lab --data-dir "$dir/data" \
      --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
      --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
      --initial-cluster "lab=http://127.0.0.1:$peer" --initial-cluster-state new \
      >"$dir/etcd.log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$dir/etcd.pid"
    if came_up healthy "$client" "$pid" 100; then
      [ -z "$owner" ] || stop_with_owner "$owner" "$pid" "$ROOT/infra/scripts/ensure-etcd.sh" "$client"
      say "etcd (pid $pid) answers on 127.0.0.1:$client, peer port $peer, data in $dir"
      echo "http://127.0.0.1:$client"
      return 0
    fi
    say "etcd did not come up on 127.0.0.1:$client (peer $peer); its log ends:"
    tail -n 5 "$dir/etcd.log" >&2 || true
    stop "$client"
  done
  say "etcd could not be started; see the log lines above"
  exit 1
}

case "${1:-start}" in
  start)
    owner=""
    if [ "${2:-}" = --owner ]; then owner=${3:?--owner needs a pid}; fi
    start "$owner"
    ;;
  stop) stop "${2:?stop needs the endpoint or port that start printed}" ;;
  *)
    say "usage: ensure-etcd.sh [start [--owner PID]] | stop <endpoint|port>"
    exit 2
    ;;
esac
