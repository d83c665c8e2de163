# Sourced by the ensure-<server>.sh scripts that start a lab server of their own (etcd, ZooKeeper, Redis groups):
# the free port, the Debian install and the owner watch, written once. Expects SERVER (its name in
# messages) and ROOT (the repository) to be set by the script that sources it.

DATA=$ROOT/.data

say() { echo "ensure-$SERVER: $*" >&2; }
answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Below the kernel's ephemeral range: a port there can be free of listeners yet be the local end of
# some process's outgoing connection, and the server's bind then fails (seen: "Address already in use").
# The first port the kernel hands out as a client's ephemeral port.
ephemeral_low() {
  local low=32768
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || true
  echo "$low"
}

free_port() {
  local port low high
  low=$(ephemeral_low)
  high=$((low > 21000 ? low - 1 : 49999))
  for _ in $(seq 1 50); do
    port=$((20000 + RANDOM % (high - 20000 + 1)))
    answers "$port" || { echo "$port"; return 0; }
  done
  say "no free port found in 20000-$high"
  return 1
}

port_of() { local port=${1##*:}; [[ $port =~ ^[0-9]+$ ]] || { say "not an address or port: $1"; exit 2; }; echo "$port"; }

# A group given by its variable (REDLOCK_NODES, REDIS_SENTINELS) is used as it is, never started: prints
# it when each of its addresses answers the sourcing script's pongs, exits naming the first that does not;
# false when the variable is unset, so the script starts a group of its own.
given_group() { # variable
  local name=$1 value address
  value=${!name:-}
  [ -n "$value" ] || return 1
  for address in ${value//,/ }; do
    pongs "$(port_of "$address")" || { say "$name=$value is set but $address does not answer PING"; exit 1; }
  done
  echo "$value"
}

apt_install() { # package...
  if [ "$(id -u)" != 0 ]; then
    say "$SERVER is missing and this is not root; install with: sudo apt-get install -y $*"
    exit 1
  fi
  say "installing $* from Debian's packages (first start only)"
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ] || apt-get -o DPkg::Lock::Timeout=300 update -qq
  # policy-rc.d or no systemd keeps the package's own service from starting; the lab starts its own.
  # The lock timeout: another install (a lab starting several servers at once) is waited for, not failed on.
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null || { say "apt-get install $* failed"; exit 1; }
}

# Polls `<check> <port>` every 0.1 s, at most `tries` times, while the server's process lives; true once
# the check passes (the server came up).
came_up() { # check port pid tries
  for _ in $(seq 1 "$4"); do
    "$1" "$2" && return 0
    kill -0 "$3" 2>/dev/null || break
    sleep 0.1
  done
  "$1" "$2"
}

# Waits (came_up) for a server just started to answer `<check> <port>`; when it does not, says so with the
# end of its log, kills it and fails.
came_up_or_killed() { # what check port pid tries log
  came_up "$2" "$3" "$4" "$5" && return 0
  say "$1 on 127.0.0.1:$3 did not answer; its log ends:"
  tail -n 5 "$6" >&2 2>/dev/null || true
  kill -9 "$4" 2>/dev/null || true
  return 1
}

# Stops the server (`<script> stop <port>`) once the owner is gone, however it ended (Ctrl-C, a crashed
# test run), or once the server itself has exited.
stop_with_owner() { # owner-pid server-pid script port
  setsid bash -c 'while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done; exec bash "$3" stop "$4"' \
    _ "$1" "$2" "$3" "$4" >/dev/null 2>&1 </dev/null &
}

# Ends the server whose pid is in <dir>/<pidfile>, politely then not, and deletes its directory.
stop_server() { # dir pidfile
  local pid
  if [ -f "$1/$2" ]; then
    pid=$(cat "$1/$2")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$1"
}
