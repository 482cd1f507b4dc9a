import type { AgentLog, BrowserSession } from '@suite/browser-agent';
import { browserRequestsBlocked } from '@suite/telemetry';

const MAX_LOGGED_BLOCKS = 50;

/**
 * Puts the network side of a job's browser into its log: what the policy cannot enforce here
 * (hosted browsers), and every request or navigation it blocked, with the rule and the setting.
 */
export function reportNetwork(session: BrowserSession, log: AgentLog): { stop: () => void } {
  const network = session.network;
  if (!network) return { stop: () => undefined };
  for (const limit of network.limits)
    log.write({ outcome: 'info', level: 'warn', action: 'network', message: limit });
  let logged = 0;
  const stop = network.onBlocked((blocked) => {
    browserRequestsBlocked.inc({ rule: blocked.rule });
    logged += 1;
    if (logged > MAX_LOGGED_BLOCKS) {
      if (logged === MAX_LOGGED_BLOCKS + 1)
        log.write({
          outcome: 'info',
          level: 'warn',
          action: 'network',
          message: `more requests were blocked; only the first ${MAX_LOGGED_BLOCKS} are logged (the summary has the count)`,
        });
      return;
    }
    log.write({
      outcome: 'info',
      level: 'error',
      action: 'network',
      url: blocked.target,
      message: `blocked ${blocked.target}: ${blocked.message}`,
    });
  });
  return { stop };
}

/** The summary, with a sentence on what the network policy blocked during the run. */
export function summaryWithBlocks(summary: string, session: BrowserSession, log: AgentLog): string {
  const blocked = session.network?.blocked ?? [];
  const first = blocked[0];
  if (!first) return summary;
  const count =
    blocked.length === 1 ? '1 request or navigation' : `${blocked.length} requests or navigations`;
  return log.redactText(
    `${summary.replace(/\s+$/, '')} The browser network policy blocked ${count}; the first, ${first.target}: ${first.message}.`,
  );
}
