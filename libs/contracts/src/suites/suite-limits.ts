/** Limits of `POST /v1/suites` (string_too_long, too_long, … past them). */
export const SUITE_NAME_MAX_LENGTH = 100;
export const SUITE_TESTS_MAX = 100;
export const SUITE_TEST_TITLE_MAX_LENGTH = 200;
export const SUITE_TEST_STEPS_MAX = 100;
export const SUITE_STEP_MAX_LENGTH = 2_000;
export const SUITE_URL_MAX_LENGTH = 2_000;
export const SUITE_TAGS_MAX = 20;
export const SUITE_TAG_MAX_LENGTH = 50;
export const SUITE_SCHEDULE_MAX_LENGTH = 100;
export const SUITE_TEST_TIMEOUT_MAX_SECONDS = 3_600;
/** Suites one owner may keep. */
export const SUITES_PER_OWNER_MAX = 200;
/** `GET /v1/suites/{id}/runs?limit=`. */
export const SUITE_RUNS_LIMIT_DEFAULT = 20;
export const SUITE_RUNS_LIMIT_MAX = 100;
