import 'reflect-metadata';
import { bootstrapHttpApp, exitOnBootFailure } from '@suite/nest-core';
import { startTelemetry } from '@suite/telemetry';
import { AppModule } from './app.module.js';
import { registerDashboardAssets } from './dashboard/dashboard-assets.js';
import { UserExceptionFilter } from './http/user-exception.filter.js';
import { loadProjectHostConfig } from './project-host.config.js';

const config = loadProjectHostConfig();
startTelemetry({
  serviceName: process.env.OTEL_SERVICE_NAME ?? 'project-host',
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
bootstrapHttpApp(AppModule.forRoot(config), {
  service: 'project-host',
  host: config.HOST,
  port: config.PORT,
  bodyLimit: 64 * 1024,
  configure: async (app) => {
    app.useGlobalFilters(new UserExceptionFilter());
    await registerDashboardAssets(app);
  },
}).catch(exitOnBootFailure('project-host'));
