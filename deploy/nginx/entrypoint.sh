#!/bin/sh
# The proxy image's entry point: fills deploy/nginx/portal.conf.template with the PORTAL_* variables (only
# those: nginx's own $variables stay) and replaces itself with nginx in the foreground, so the container's
# stop signal (SIGQUIT: finish requests in flight) reaches nginx. Extra arguments go to nginx (-t: test).
set -eu
: "${PORTAL_UPSTREAM_SERVERS:?must list the API instances, e.g. "server api:8080 max_fails=1 fail_timeout=5s;"}"
: "${PORTAL_LISTEN:?must say where nginx listens, e.g. "listen 8080;"}"
: "${PORTAL_WEB_ROOT:?must name the built SPA folder}"
: "${PORTAL_INVOICE_DIR:?must name the invoice store (the API instances' INVOICE_DIR)}"
: "${PORTAL_MAX_BODY:?must be the largest upload, e.g. 10m (MAX_INVOICE_BYTES)}"
# The bucket's origin when the instances keep invoices in one (INVOICE_STORE=s3://...); with a shared folder
# nothing is sent there, and an address that refuses every connection keeps the template valid.
export PORTAL_INVOICE_STORE_ORIGIN="${PORTAL_INVOICE_STORE_ORIGIN:-http://127.0.0.1:9}"
home=${PORTAL_NGINX_HOME:-/etc/nginx/portal}
run=${PORTAL_NGINX_RUN:-/tmp/nginx}
mkdir -p "$run"
envsubst '$PORTAL_LISTEN $PORTAL_UPSTREAM_SERVERS $PORTAL_WEB_ROOT $PORTAL_INVOICE_DIR $PORTAL_INVOICE_STORE_ORIGIN $PORTAL_MAX_BODY' \
  < "$home/portal.conf.template" > "$run/portal.conf"
exec nginx -c "$home/nginx.conf" -g 'daemon off;' "$@"
