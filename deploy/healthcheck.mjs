// Container health probe for the suite's images (Docker HEALTHCHECK and compose `healthcheck`).
//
//   node /app/deploy/healthcheck.mjs PORT          # HTTP apps: GET http://127.0.0.1:$PORT/health
//   node /app/deploy/healthcheck.mjs HEALTH_PORT   # the workers: their health/metrics listener
//
// The argument names the environment variable that holds the port, so the probe follows whatever
// port the container was configured with. Exit 0 when /health answers 2xx within the timeout, 1
// otherwise. A port of 0 means the listener is disabled (the worker's HEALTH_PORT=0): nothing to
// probe, so the probe reports healthy and says so. No curl/wget needed: the images have Node.
const variable = process.argv[2] ?? 'PORT';
const port = process.env[variable];
const path = process.env.HEALTHCHECK_PATH || '/health';
const timeoutMs = Number(process.env.HEALTHCHECK_TIMEOUT_MS || 4000);

if (!port || !/^\d+$/.test(port)) {
  console.error(`healthcheck: ${variable} is ${port === undefined ? 'unset' : `"${port}"`}, not a port`);
  process.exit(1);
}
if (port === '0') {
  console.log(`healthcheck: ${variable}=0, the health listener is disabled`);
  process.exit(0);
}

const url = `http://127.0.0.1:${port}${path}`;
try {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const body = (await res.text()).slice(0, 300);
  if (!res.ok) {
    console.error(`healthcheck: ${url} answered ${res.status}: ${body}`);
    process.exit(1);
  }
  console.log(`healthcheck: ${url} answered ${res.status}: ${body}`);
  process.exit(0);
} catch (error) {
  console.error(`healthcheck: ${url} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
