// The `platform` command as a library, for tools and tests that drive it in-process.
export { CliError, USAGE_EXIT_CODE } from './cli-error.js';
export { runDev } from './dev/dev-command.js';
export {
  DEFAULT_DATABASE,
  DEFAULT_PORT,
  DEV_HELP,
  parseDevOptions,
  type DevOptions,
} from './dev/dev-options.js';
export { CLIENT_PATH } from './dev/dev-proxy.server.js';
export { customIdpOf, readEnvFile, smtpOf, type CustomIdp, type SmtpSettings } from './dev/env-file.js';
export { mailSummary } from './dev/mail-summary.js';
export { collectProjectFiles, isDeployedPath, type ProjectFiles } from './dev/project-files.js';
export { runTenants, TENANTS_HELP } from './tenants/tenants-command.js';
