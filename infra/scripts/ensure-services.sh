#!/usr/bin/env bash
# Makes sure the local Redis and MySQL/MariaDB the lab uses answer; starts them if they are installed
# but down, installs them from Debian's packages if they are missing (needs root). Idempotent.
# Honors REDIS_HOST/REDIS_PORT and MYSQL_HOST/MYSQL_PORT; only local services are started.
# The lab connects to MariaDB as its own user (MYSQL_USER/MYSQL_PASSWORD, default oversell /
# oversell-lab), with rights on the oversell_% databases only; the script creates it when it cannot log
# in yet, through whatever root access works here (the unix socket as root first; MYSQL_SOCKET names
# another socket). Root itself is left as it is: a fresh install keeps Debian's socket-only root,
# which no one reaches over TCP.
set -euo pipefail

REDIS_HOST=${REDIS_HOST:-127.0.0.1}
REDIS_PORT=${REDIS_PORT:-6379}
MYSQL_HOST=${MYSQL_HOST:-127.0.0.1}
MYSQL_PORT=${MYSQL_PORT:-3306}
MYSQL_USER=${MYSQL_USER:-oversell}
MYSQL_PASSWORD=${MYSQL_PASSWORD-oversell-lab}
# The client reads MYSQL_HOST from the environment: for the socket it must be told localhost.
root_socket=(--protocol=SOCKET -h localhost ${MYSQL_SOCKET:+--socket="$MYSQL_SOCKET"})

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
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ] || apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
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
  if ! command -v mariadbd >/dev/null && [ ! -x /usr/sbin/mariadbd ]; then
    apt_install mariadb-server
  fi
  echo "ensure-services: starting mariadbd"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld 2>/dev/null || true
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  wait_for MariaDB "$MYSQL_HOST" "$MYSQL_PORT"
else
  echo "ensure-services: MySQL answers on $MYSQL_HOST:$MYSQL_PORT"
fi

lab_user_logs_in() {
  MYSQL_PWD="$MYSQL_PASSWORD" mariadb --protocol=TCP -h "$MYSQL_HOST" -P "$MYSQL_PORT" -u "$MYSQL_USER" -e 'SELECT 1' >/dev/null 2>&1
}

as_root() { # runs SQL from stdin as MariaDB's root: the unix socket as root, else root over TCP without a password
  local sql
  sql=$(cat)
  if [ "$(id -u)" = 0 ] && mariadb "${root_socket[@]}" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
    mariadb "${root_socket[@]}" -uroot <<<"$sql"
  elif command -v sudo >/dev/null && sudo -n mariadb "${root_socket[@]}" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
    sudo -n mariadb "${root_socket[@]}" -uroot <<<"$sql"
  elif MYSQL_PWD='' mariadb --protocol=TCP -h "$MYSQL_HOST" -P "$MYSQL_PORT" -uroot -e 'SELECT 1' >/dev/null 2>&1; then
    MYSQL_PWD='' mariadb --protocol=TCP -h "$MYSQL_HOST" -P "$MYSQL_PORT" -uroot <<<"$sql"
  else
    return 1
  fi
}

sql_string() { printf "'%s'" "$(printf '%s' "$1" | sed "s/\\\\/\\\\\\\\/g; s/'/''/g")"; }

if lab_user_logs_in; then
  echo "ensure-services: MySQL user $MYSQL_USER logs in"
elif [ "$MYSQL_HOST" != 127.0.0.1 ] && [ "$MYSQL_HOST" != localhost ]; then
  echo "ensure-services: MySQL user $MYSQL_USER cannot log in to $MYSQL_HOST:$MYSQL_PORT; create it there (see docs/operations.md, Security)" >&2
  exit 1
else
  echo "ensure-services: creating MySQL user $MYSQL_USER (rights on oversell_% only)"
  user=$(sql_string "$MYSQL_USER")
  password=$(sql_string "$MYSQL_PASSWORD")
  # PROCESS (global, read-only) lets the db-pessimistic test see lock waits in information_schema.innodb_trx.
  if ! as_root <<SQL; then
CREATE USER IF NOT EXISTS $user@'localhost' IDENTIFIED BY $password;
CREATE USER IF NOT EXISTS $user@'127.0.0.1' IDENTIFIED BY $password;
ALTER USER $user@'localhost' IDENTIFIED BY $password;
ALTER USER $user@'127.0.0.1' IDENTIFIED BY $password;
GRANT ALL PRIVILEGES ON \`oversell\\_%\`.* TO $user@'localhost';
GRANT ALL PRIVILEGES ON \`oversell\\_%\`.* TO $user@'127.0.0.1';
GRANT PROCESS ON *.* TO $user@'localhost';
GRANT PROCESS ON *.* TO $user@'127.0.0.1';
SQL
    echo "ensure-services: no root access to MariaDB here (tried the unix socket, sudo, root over TCP); create the user by hand:" >&2
    echo "  CREATE USER '$MYSQL_USER'@'127.0.0.1' IDENTIFIED BY '<password>'; GRANT ALL ON \`oversell\\_%\`.* TO '$MYSQL_USER'@'127.0.0.1'; GRANT PROCESS ON *.* TO '$MYSQL_USER'@'127.0.0.1';" >&2
    exit 1
  fi
  lab_user_logs_in || { echo "ensure-services: MySQL user $MYSQL_USER was created but still cannot log in" >&2; exit 1; }
fi
