# syntax=docker/dockerfile:1
#
# One Dockerfile for every app; pick the app with --build-arg APP:
#   docker build --build-arg APP=gateway -t ghcr.io/referral-incentive-service/gateway:dev .
# APP: gateway, referral-service, fraud-service, reward-service,
#      incentive-service, catalog-marketplace-service, webhook-service.

# Node 24, the current LTS (Node 20 is past its end of life); the code also
# runs on Node 20.6+ (package.json engines), which CI on this repository uses.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: install all dependencies and bundle every app -------------------
# APP is only declared after the bundle step, so everything up to and
# including `npm run build` is one cached stage shared by all seven images.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY . .
RUN npm run build
ARG APP
RUN test -n "$APP" || { echo "set the app: --build-arg APP=<app>" >&2; exit 1; }; \
    test -f "dist/apps/$APP/main.js" || { \
      echo "dist/apps/$APP/main.js not built; APP must be one of: $(ls dist/apps | tr '\n' ' ')" >&2; exit 1; }
# What the image carries, staged so one COPY takes it: the app's bundle, and
# for the gateway the operator dashboard's built files it serves
# (dist/apps/dashboard), when this version builds them.
RUN mkdir -p /out/dist/apps && cp -r "dist/apps/$APP" /out/dist/apps/ && \
    if [ "$APP" = gateway ] && [ -d dist/apps/dashboard ]; then cp -r dist/apps/dashboard /out/dist/apps/; fi

# --- production dependencies only (the bundles keep node_modules external) --
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

# --- runtime ----------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ARG APP
LABEL org.opencontainers.image.title="referral-incentive-service ${APP}"
# APP is kept as an environment variable so CMD can find the bundle at run time.
ENV NODE_ENV=production \
    APP=${APP}
WORKDIR /app
# Files stay owned by root: the app only reads them (and runs with a
# read-only root filesystem in Kubernetes).
COPY --from=deps /app/node_modules ./node_modules
# package.json is the nearest one to the bundle, so Node resolves modules and
# the module type exactly as in the repository.
COPY package.json ./
COPY --from=build /out/dist ./dist
# The image's `node` user (uid/gid 1000).
USER node
# The app's port is set per deployment (PORT); /metrics is on METRICS_PORT
# (gateway 9464, the services 9465-9470), never on the public port.
# sh -c so ${APP} expands at run time; exec makes node PID 1 so it gets SIGTERM.
CMD ["/bin/sh", "-c", "exec node dist/apps/${APP}/main.js"]
