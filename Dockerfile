# syntax=docker/dockerfile:1

# Build: install everything, compile with the Swagger plugin, then keep only production modules.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci: the lock has no entries for other platforms' optional native builds (DEVELOPERS.md).
RUN npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.cli.json nest-cli.json ./
# The command-line tool's client is generated from the spec at build time.
COPY openapi openapi
COPY src src
COPY web web
COPY migrations migrations
COPY scripts scripts
COPY bench bench
COPY test/support test/support
RUN npm run build && npm prune --omit=dev

# Run: non-root, migrations run at start-up before the server listens.
FROM node:20-bookworm-slim
# A font for the text of PNG board pictures (coordinates, captions).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
# glibc malloc keeps its trim threshold fixed (as npm start does; docs/configuration.md): 28-50 MB less resident when idle in npm run bench rss.
# Closed by default: without API_KEYS the image refuses to start, unless OPEN_ARCHIVE=true says so on purpose.
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data MALLOC_TRIM_THRESHOLD_=131072 OPEN_ARCHIVE=false
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
# HTTP (API, viewer, Dots WebSocket bridge) and the Dots server's TCP port.
EXPOSE 3000 7777
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
