/**
 * Node options the browser worker runs with, wherever it runs (deploy/Dockerfile sets the same,
 * which test/deploy/dockerfile.spec.ts checks; `make start` and the benchmarks use this): a small
 * young generation, 2 MB semi-spaces instead of 16. The worker's garbage is short-lived DevTools
 * protocol traffic; with the default its heap grew by 30-40 MB while busy (bench 4: PSS per
 * concurrent job 116 -> 90 MB at concurrency 1, jobs per minute unchanged).
 */
export const WORKER_NODE_OPTIONS = '--max-semi-space-size=2';
