// What other tools (the `platform` command) reuse of the development stack. Scripts (start, test,
// migrate) are entry points with side effects and are not exported.
export { prepareInfrastructure, type Infrastructure } from './infrastructure.js';
export { dataDir, repoRoot } from './paths.js';
export { loadOrCreateSecrets, type DevSecrets } from './secrets.js';
export { createDatabase, withDatabase } from './services.js';
