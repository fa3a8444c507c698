#!/bin/sh
# The proxy image's entry point: fills deploy/nginx/portal.conf.template with the PORTAL_* variables (only
# those: nginx's own $variables stay) and replaces itself with nginx in the foreground, so the container's
# stop signal (SIGQUIT: finish requests in flight) reaches nginx. Extra arguments go to nginx (-t: test).
#
# The instances: PORTAL_UPSTREAM_SERVERS lists them as upstream lines, or PORTAL_UPSTREAM_RESOLVE names a DNS
# name and port (a Kubernetes headless Service, compose's service name) whose every address becomes a line.
# nginx 1.22 (Debian 12) reads a name once, at start; so the name is read again every
# PORTAL_UPSTREAM_RESOLVE_SECONDS and nginx reloaded when the addresses changed: new instances get traffic,
# gone ones none, and kept-alive connections to old ones end with the old workers.
set -eu
: "${PORTAL_LISTEN:?must say where nginx listens, e.g. "listen 8080;"}"
: "${PORTAL_WEB_ROOT:?must name the built SPA folder}"
: "${PORTAL_INVOICE_DIR:?must name the invoice store (the API instances' INVOICE_DIR)}"
: "${PORTAL_MAX_BODY:?must be the largest upload, e.g. 10m (MAX_INVOICE_BYTES)}"
if [ -z "${PORTAL_UPSTREAM_SERVERS:-}" ] && [ -z "${PORTAL_UPSTREAM_RESOLVE:-}" ]; then
  echo 'PORTAL_UPSTREAM_SERVERS (e.g. "server api:8080 max_fails=1 fail_timeout=5s;") or PORTAL_UPSTREAM_RESOLVE (e.g. api:8080) must name the API instances' >&2
  exit 1
fi
# The bucket's origin when the instances keep invoices in one (INVOICE_STORE=s3://...); with a shared folder
# nothing is sent there, and an address that refuses every connection keeps the template valid.
export PORTAL_INVOICE_STORE_ORIGIN="${PORTAL_INVOICE_STORE_ORIGIN:-http://127.0.0.1:9}"
# nginx's masked access log: on the container's output beside its error log, unless a file is named.
export PORTAL_ACCESS_LOG="${PORTAL_ACCESS_LOG:-/dev/stdout}"
# /scim/ from SCIM_TOKEN_NETWORKS alone (the instances' own setting, comma-separated CIDR): one allow line each,
# then deny all; empty: any network. Anything but addresses and networks is refused, never written into nginx.
scim_allow() {
  networks=$(printf '%s' "${SCIM_TOKEN_NETWORKS:-}" | tr -d ' \t')
  if [ -z "$networks" ]; then
    echo '    # SCIM_TOKEN_NETWORKS is empty: the directory may call from any network.'
    return
  fi
  case "$networks" in
    *[!0-9A-Fa-f.:/,]*)
      echo "SCIM_TOKEN_NETWORKS must be addresses or networks (CIDR), comma-separated: $networks" >&2
      exit 1
      ;;
  esac
  printf '%s\n' "$networks" | tr ',' '\n' | sed '/^$/d; s/.*/    allow &;/'
  echo '    deny all;'
}
PORTAL_SCIM_ALLOW=$(scim_allow)
export PORTAL_SCIM_ALLOW
home=${PORTAL_NGINX_HOME:-/etc/nginx/portal}
run=${PORTAL_NGINX_RUN:-/tmp/nginx}
mkdir -p "$run"

# One upstream line per address of PORTAL_UPSTREAM_RESOLVE, IPv4 and IPv6 (in brackets), sorted; none resolved
# yet (a first install, every instance still starting): one line that is never tried, so nginx starts and
# answers its 503 page meanwhile. nginx re-resolves an upstream itself (`server … resolve`) only from 1.27.3;
# the image's Debian nginx is 1.22, so this loop does it (docs/decisions/0114-platform-details.md).
peers() {
  name=${PORTAL_UPSTREAM_RESOLVE%:*}
  port=${PORTAL_UPSTREAM_RESOLVE##*:}
  lines=$(getent ahosts "$name" 2>/dev/null | awk '{ print $1 }' | sort -u |
    sed -e '/:/s/.*/[&]/' -e "s/.*/  server &:$port max_fails=1 fail_timeout=5s;/") || true
  echo "${lines:-  server 127.0.0.1:9 down;}"
}

render() {
  envsubst '$PORTAL_LISTEN $PORTAL_SCIM_ALLOW $PORTAL_UPSTREAM_SERVERS $PORTAL_WEB_ROOT $PORTAL_INVOICE_DIR $PORTAL_INVOICE_STORE_ORIGIN $PORTAL_MAX_BODY $PORTAL_ACCESS_LOG' \
    < "$home/portal.conf.template" > "$run/portal.conf.next"
  mv "$run/portal.conf.next" "$run/portal.conf"
}

if [ -n "${PORTAL_UPSTREAM_RESOLVE:-}" ]; then
  PORTAL_UPSTREAM_SERVERS=$(peers)
  export PORTAL_UPSTREAM_SERVERS
fi
render

if [ -n "${PORTAL_UPSTREAM_RESOLVE:-}" ] && [ "$#" -eq 0 ]; then
  # Runs beside nginx until nginx is gone: $$ is this shell's process id, which exec hands to nginx.
  (
    interval=${PORTAL_UPSTREAM_RESOLVE_SECONDS:-5}
    while sleep "$interval"; do
      kill -0 $$ 2>/dev/null || exit 0
      next=$(peers)
      if [ "$next" != "$PORTAL_UPSTREAM_SERVERS" ]; then
        PORTAL_UPSTREAM_SERVERS=$next
        export PORTAL_UPSTREAM_SERVERS
        render
        echo "portal-nginx: instances now $(echo "$next" | awk '{ print $2 }' | tr '\n' ' ')" >&2
        nginx -c "$home/nginx.conf" -s reload || true
      fi
    done
  ) &
fi
exec nginx -c "$home/nginx.conf" -g 'daemon off;' "$@"
