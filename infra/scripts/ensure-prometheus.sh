#!/usr/bin/env bash
# Starts a Prometheus of its own with the given config and prints its URL (the only line on stdout);
# installs Debian's prometheus package when Prometheus is missing (needs root). Tests use it to scrape a
# lab's instances with docker-compose's scrape config (infra/prometheus/prometheus.yml).
#   ensure-prometheus.sh start --config FILE [--owner PID]   a new Prometheus on a free 127.0.0.1 port,
#                                          data under .data/prometheus-<port>; with --owner it stops
#                                          itself once that process has exited
#   ensure-prometheus.sh stop <url|port>   stops it and deletes its data directory
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SERVER=prometheus
# shellcheck source=local-server.sh
. "$ROOT/infra/scripts/local-server.sh"

# Prometheus's readiness endpoint over bash's own TCP: true once it has loaded its config and its storage.
ready() { # port
  local reply
  reply=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /-/ready HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && cat <&3) 2>/dev/null) || return 1
  [[ $reply == 'HTTP/1.0 200'* || $reply == 'HTTP/1.1 200'* ]]
}

stop() { # url or port
  local port=${1##*:}
  stop_server "$DATA/prometheus-${port%%/*}" prometheus.pid
}

start() { # config owner-pid-or-""
  local config=$1 owner=$2 port dir pid
  [ -f "$config" ] || { say "no config file at $config"; exit 1; }
  command -v prometheus >/dev/null || apt_install prometheus
  command -v prometheus >/dev/null || { say "prometheus installed but not on PATH"; exit 1; }
  for _ in 1 2 3; do # a port taken between the check and Prometheus's bind: try another
    port=$(free_port)
    dir=$DATA/prometheus-$port
    rm -rf "$dir" && mkdir -p "$dir"
    setsid prometheus --config.file "$config" --storage.tsdb.path "$dir/data" \
      --web.listen-address "127.0.0.1:$port" --log.level warn \
      >"$dir/prometheus.log" 2>&1 </dev/null &
    pid=$!
    echo "$pid" >"$dir/prometheus.pid"
    if came_up ready "$port" "$pid" 150; then
      [ -z "$owner" ] || stop_with_owner "$owner" "$pid" "$ROOT/infra/scripts/ensure-prometheus.sh" "$port"
      say "prometheus (pid $pid) answers on 127.0.0.1:$port, config $config, data in $dir"
      echo "http://127.0.0.1:$port"
      return 0
    fi
    say "prometheus did not come up on 127.0.0.1:$port; its log ends:"
    tail -n 5 "$dir/prometheus.log" >&2 || true
    stop "$port"
  done
  say "prometheus could not be started; see the log lines above"
  exit 1
}

usage() {
  say "usage: ensure-prometheus.sh start --config FILE [--owner PID] | stop <url|port>"
  exit 2
}

case "${1:-}" in
  start)
    shift
    config="" owner=""
    while [ $# -gt 0 ]; do
      case "$1" in
        --config) config=${2:?--config needs a file} ;;
        --owner) owner=${2:?--owner needs a pid} ;;
        *) usage ;;
      esac
      shift 2
    done
    [ -n "$config" ] || usage
    start "$config" "$owner"
    ;;
  stop) stop "${2:?stop needs the url or port that start printed}" ;;
  *) usage ;;
esac
