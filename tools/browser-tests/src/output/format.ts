import type { TestStatus } from '../run/run-result.js';

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m${String(Math.round((ms % 60_000) / 1_000)).padStart(2, '0')}s`;
}

export const STATUS_ICON: Record<TestStatus, string> = {
  passed: '✓',
  failed: '✗',
  flaky: '~',
  interrupted: '-',
};

/** One line, cut to `width` characters with an ellipsis. */
export function fit(text: string, width: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - 1))}…`;
}

export function progressBar(done: number, total: number, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}
