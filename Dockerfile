# syntax=docker/dockerfile:1

# --- build: compile TypeScript with the full dependency set
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# --- prod-deps: runtime dependencies only (no tsx, TypeScript, test or bench tooling: the image runs dist/)
FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: compiled code, migrations, runtime dependencies, non-root user
# Migrations run at every start. To run them on their own (before a rolling update), and for the
# operator's commands, the CLI is on the PATH:
#   docker compose run --rm app media-publishing-service db migrate
#   docker compose run --rm app media-publishing-service media create --name "Daily Planet" --locales en,fr
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data \
    STORAGE_DIR=/app/data/storage
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node migrations ./migrations
COPY --chown=node:node package.json ./
COPY --chown=node:node bin ./bin
RUN mkdir -p /app/data && chown node:node /app/data \
    && ln -s /app/bin/media-publishing-service.js /usr/local/bin/media-publishing-service
USER node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# SIGTERM reaches node directly (exec form), which drains requests and closes the pool.
CMD ["node", "dist/main.js"]
