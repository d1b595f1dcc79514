# One image for both services; the command picks: the api by default, mail-ingest with
#   node --conditions=tempbox-compiled --max-semi-space-size=4 apps/mail-ingest/dist/main.js
# (docker-compose.yml runs both). Build context: the repository root.

# --- build: install everything, compile, then keep each app's production dependencies only ---
FROM node:20-bookworm-slim AS build
# better-sqlite3 and argon2 compile from source for Node 20.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
RUN npm i -g pnpm@10.34.9
WORKDIR /src
COPY . .
RUN pnpm install --frozen-lockfile
# JavaScript for api, mail-ingest and the packages they use (tsc, src/ → dist/; each app's entries then bundled into
# one file each by scripts/bundle-app.mjs), and the web app (vite).
RUN pnpm build
# Each app with its own node_modules of production dependencies, our packages as their dist/ only. The layout mirrors
# the repository (apps/api, apps/mail-ingest, apps/web/dist), so paths the code takes from its own location hold.
# --legacy: pnpm 10 otherwise wants injectWorkspacePackages for the whole workspace.
RUN pnpm --filter @tempbox/api deploy --prod --legacy /out/apps/api \
 && pnpm --filter @tempbox/mail-ingest deploy --prod --legacy /out/apps/mail-ingest \
 && mkdir -p /out/apps/web && cp -r apps/web/dist /out/apps/web/dist

# --- runtime: Node and the compiled apps, no compiler, no pnpm, no TypeScript ---
FROM node:20-bookworm-slim
# MALLOC_ARENA_MAX: glibc's malloc would keep an arena for each busy thread; two serve mail-ingest's threads with
# ~10 MB less resident memory and no measured cost (docs/operations.md).
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    SMTP_HOST=0.0.0.0 \
    SMTP_PORT=2525 \
    DATABASE_PATH=/data/tempbox.sqlite \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /out /app
# The unprivileged `node` user of the base image; it may write the data folder (SQLite, local secrets) and the api's
# IP-data cache, nothing else.
RUN mkdir -p /data /app/apps/api/node_modules/.cache && chown node:node /data /app/apps/api/node_modules/.cache
USER node
VOLUME /data
EXPOSE 3000 2525
# Readiness of the api (database, mail-ingest's heartbeat, change feed), as load balancers see it. mail-ingest
# serves no HTTP: docker-compose.yml gives it a check of its own.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--conditions=tempbox-compiled", "--max-semi-space-size=4", "apps/api/dist/server.js"]
