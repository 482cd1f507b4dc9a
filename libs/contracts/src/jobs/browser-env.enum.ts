/** Where the browser of a job runs. */
export enum BrowserEnv {
  /** Chromium started by the worker itself. */
  LocalBrowser = 'local_browser',
  /** A browser of a hosted provider, driven over a CDP websocket. */
  HostedBrowser = 'hosted_browser',
}

/** The spec states the rule as a pattern, and pydantic reports it as one (string_pattern_mismatch). */
export const BROWSER_ENV_PATTERN = /^(local_browser|hosted_browser)$/;
