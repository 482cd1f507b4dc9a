/** Where a browser starts when the job names no `initial_url`: a public search engine's home page. */
export const DEFAULT_START_URL = 'https://duckduckgo.com/';

/** Instructions longer than this are rejected (string_too_long); no real test needs more. */
export const QUERY_MAX_LENGTH = 20_000;

/** `metadata` larger than this, serialised as UTF-8 JSON, is rejected (value_error). */
export const METADATA_MAX_BYTES = 64 * 1024;

/** `GET /v1/jobs?limit=`: default and bounds from the spec. */
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MIN = 1;
export const LIST_LIMIT_MAX = 200;
