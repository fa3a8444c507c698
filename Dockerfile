# syntax=docker/dockerfile:1
# The Parcel Invoice Portal's images. What CI proves about them: docs/decisions/0030-container-images-and-what-ci-proves.md;
# how they are pinned, signed and attested: docs/decisions/0113-sbom-signed-images-and-provenance.md.
#
#   docker build -t parcel-portal:1.0.0 \
#     --build-arg PORTAL_VERSION=$(node -p "require('./package.json').version") \
#     --build-arg PORTAL_REVISION=$(git rev-parse HEAD) .
#   docker build --target proxy -t parcel-portal-proxy:1.0.0 (same build arguments) .
#
# build   – the dev dependencies, `npm run build`, then the runtime folder (scripts/build-runtime.ts)
# runtime – (default) Node 24 slim with that folder only: the API, the CLI and the SPA, as a non-root user
# proxy   – nginx with deploy/nginx/portal.conf.template and the SPA's files, for the topology in deploy/

# Base images by tag and digest: the digest is what is pulled, the tag says what it is; Renovate replaces both
# (renovate.json, pinDigests). `npm run test:deploy` refuses a base image without its digest.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d
ARG PROXY_IMAGE=debian:bookworm-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Package files first: this layer (the install) is reused until a package file changes.
COPY package.json package-lock.json ./
COPY scripts/install-emulator.mjs scripts/
COPY packages/contract/package.json packages/contract/
COPY packages/dev-stack/package.json packages/dev-stack/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
# No package's install script runs in the build (the root one installs the Auth emulator, for development).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# The image's labels are these two arguments: scripts/lib/release.ts refuses a version that is not
# package.json's and a revision that is not a commit id, and compiles them into the server.
ARG PORTAL_VERSION
ARG PORTAL_REVISION
RUN if [ -z "$PORTAL_VERSION" ] || [ -z "$PORTAL_REVISION" ]; then \
      echo 'Pass --build-arg PORTAL_VERSION=<package.json version> --build-arg PORTAL_REVISION=$(git rev-parse HEAD)' >&2; \
      exit 1; \
    fi \
    && npm run build \
    && npx tsx scripts/build-runtime.ts /runtime

FROM ${NODE_IMAGE} AS runtime
ARG PORTAL_VERSION
ARG PORTAL_REVISION
LABEL org.opencontainers.image.title="Parcel Invoice Portal" \
      org.opencontainers.image.description="API, CLI and web app of the Parcel Invoice Portal" \
      org.opencontainers.image.version="${PORTAL_VERSION}" \
      org.opencontainers.image.revision="${PORTAL_REVISION}"
# The invoice store and any scratch space live under /data (a volume); nothing else is written, so the
# root file system may be read-only (/tmp as a tmpfs for Node).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    INVOICE_DIR=/data/invoices
WORKDIR /app
# Owned by root and not writable by the user the server runs as.
COPY --from=build /runtime /app
# The base image's `node` user (1000) owns the data folder, and group 0 may write it too (OpenShift runs the
# image as an arbitrary user of group 0). The server writes invoices world-readable (0644 in 0755 folders),
# so nginx's workers, another user, can send them from the same volume.
RUN mkdir -p /data/invoices && chown -R 1000:0 /data && chmod -R g=u /data
VOLUME ["/data"]
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 (exec form, no shell, no npm): SIGTERM reaches the server, which drains (SHUTDOWN_GRACE_MS).
# The CLI is the same entry point: `docker run … apps/api/dist/cli.js users list`.
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["apps/api/dist/server.js"]

FROM ${PROXY_IMAGE} AS proxy
ARG PORTAL_VERSION
ARG PORTAL_REVISION
LABEL org.opencontainers.image.title="Parcel Invoice Portal proxy" \
      org.opencontainers.image.description="nginx in front of the portal's API instances, with the built SPA" \
      org.opencontainers.image.version="${PORTAL_VERSION}" \
      org.opencontainers.image.revision="${PORTAL_REVISION}"
# The same Debian packages CI tests the configuration with (.ci/run).
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light libnginx-mod-http-brotli-static gettext-base \
    && rm -rf /var/lib/apt/lists/*
COPY deploy/nginx/nginx.conf deploy/nginx/portal.conf.template /etc/nginx/portal/
COPY --chmod=0755 deploy/nginx/entrypoint.sh /usr/local/bin/portal-nginx
COPY --from=build /runtime/apps/web/dist /srv/portal/web
# Listens on 8080 as www-data; the invoice store is mounted read-only at /data (as in the runtime image).
ENV PORTAL_LISTEN="listen 8080;" \
    PORTAL_WEB_ROOT=/srv/portal/web \
    PORTAL_INVOICE_DIR=/data/invoices \
    PORTAL_MAX_BODY=10m
USER www-data
EXPOSE 8080
# nginx finishes the requests in flight on SIGQUIT; SIGTERM would cut them.
STOPSIGNAL SIGQUIT
ENTRYPOINT ["portal-nginx"]
