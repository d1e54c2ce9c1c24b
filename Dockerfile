# syntax=docker/dockerfile:1
# The crawler service image: one image for every role (serve --role api|worker|all).

# --- build: install with the lock file, compile TypeScript to dist/, drop dev dependencies ---
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
# The caller's CLI (src/cli) runs on the built client package, committed in client/dist.
COPY client/package.json ./client/package.json
COPY client/dist ./client/dist
COPY src ./src
RUN npx tsc -p tsconfig.build.json
RUN npm prune --omit=dev

# --- runtime: Debian's ffmpeg (preview clips) and chromium (logins, in-page signing), as a non-root user ---
FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg chromium ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/bin/chromium \
    CRAWLER_DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=8080
# /data and /clips exist and belong to the user so that named volumes mounted there start out writable by it.
RUN groupadd --system crawler \
 && useradd --system --gid crawler --home-dir /home/crawler --create-home --shell /usr/sbin/nologin crawler \
 && mkdir -p /data /clips \
 && chown crawler:crawler /data /clips
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The web console's static files (/console), read beside dist/.
COPY console ./console
COPY --from=build /app/client ./client
USER crawler
EXPOSE 8080
# Every role answers /v1/health (a worker answers nothing else).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "dist/main.js"]
CMD ["serve", "--role", "all"]
