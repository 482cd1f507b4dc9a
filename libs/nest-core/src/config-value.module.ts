import { Module, type DynamicModule } from '@nestjs/common';

/** Makes an app's validated config injectable everywhere under its token. */
@Module({})
export class ConfigValueModule {
  static forRoot(token: symbol, value: unknown): DynamicModule {
    return {
      module: ConfigValueModule,
      global: true,
      providers: [{ provide: token, useValue: value }],
      exports: [token],
    };
  }
}
