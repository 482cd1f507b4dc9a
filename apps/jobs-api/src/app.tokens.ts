export const JOBS_API_CONFIG = Symbol('JOBS_API_CONFIG');
