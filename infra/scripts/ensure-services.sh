#!/usr/bin/env bash
# Makes sure the local Redis and MySQL/MariaDB the lab uses answer; starts them if they are installed
# but down, installs them from Debian's packages if they are missing (needs root). Idempotent.
# Honors REDIS_HOST/REDIS_PORT and MYSQL_HOST/MYSQL_PORT; only local services are started.
set -euo pipefail

REDIS_HOST=${REDIS_HOST:-127.0.0.1}
REDIS_PORT=${REDIS_PORT:-6379}
MYSQL_HOST=${MYSQL_HOST:-127.0.0.1}
MYSQL_PORT=${MYSQL_PORT:-3306}

answers() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for() { # name host port
  for _ in $(seq 1 60); do
    answers "$2" "$3" && { echo "ensure-services: $1 answers on $2:$3"; return 0; }
    sleep 0.5
  done
  echo "ensure-services: $1 did not come up on $2:$3" >&2
  return 1
}

apt_install() {
  if [ "$(id -u)" != 0 ]; then
    echo "ensure-services: $* missing and not root; install with: sudo apt-get install -y $*" >&2
    exit 1
  fi
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ] || apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if ! answers "$REDIS_HOST" "$REDIS_PORT"; then
  command -v redis-server >/dev/null || apt_install redis-server
  echo "ensure-services: starting redis-server on $REDIS_PORT"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no
  wait_for Redis "$REDIS_HOST" "$REDIS_PORT"
else
  echo "ensure-services: Redis answers on $REDIS_HOST:$REDIS_PORT"
fi

if ! answers "$MYSQL_HOST" "$MYSQL_PORT"; then
  fresh_install=false
  if ! command -v mariadbd >/dev/null && [ ! -x /usr/sbin/mariadbd ]; then
    apt_install mariadb-server
    fresh_install=true
  fi
  echo "ensure-services: starting mariadbd"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld 2>/dev/null || true
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  wait_for MariaDB "$MYSQL_HOST" "$MYSQL_PORT"
  if [ "$fresh_install" = true ]; then
    # Debian's MariaDB lets root in only through the unix socket; the lab connects over TCP as root
    # with an empty password (its documented local default), so allow that on this fresh install.
    mariadb -uroot -e "ALTER USER 'root'@'localhost' IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket; FLUSH PRIVILEGES;"
  fi
else
  echo "ensure-services: MySQL answers on $MYSQL_HOST:$MYSQL_PORT"
fi
