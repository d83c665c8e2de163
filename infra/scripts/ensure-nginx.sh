#!/usr/bin/env bash
# Makes sure Debian's nginx is installed (every lab's gateway: apps/launcher/src/lab/edge.ts runs it with
# compose's config rendered for the lab) and prints its path, the only line on stdout. Installs nginx-light when missing (needs root); starts nothing.
set -euo pipefail

NGINX=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)
if [ -z "$NGINX" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "ensure-nginx: nginx missing and not root; install with: sudo apt-get install -y nginx-light" >&2
    exit 1
  fi
  [ -n "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ] || apt-get -o DPkg::Lock::Timeout=300 update -qq >&2
  # No service start: policy-rc.d would be the Debian way; the package's own start fails harmlessly without systemd.
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq nginx-light >&2
  NGINX=/usr/sbin/nginx
fi
echo "$NGINX"
