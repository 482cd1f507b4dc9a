import { Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { SUITE_VERSION } from '@suite/config';
import { createMainClient, type MainClient } from '@suite/db';
import { ConfigValueModule, WorkerCoreModule } from '@suite/nest-core';
import { PushConfigRepository } from '@suite/push-delivery';
import { PushDeliveryConsumer } from './push-delivery.consumer.js';
import { PUSH_WORKER_CONFIG, type PushWorkerConfig } from './push-worker.config.js';

/** The main database, opened once and closed after the consumer stopped. */
@Injectable()
class MainDatabase implements OnApplicationShutdown {
  constructor(readonly db: MainClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.$disconnect();
  }
}

@Module({})
export class PushWorkerModule {
  static forRoot(config: PushWorkerConfig): DynamicModule {
    return {
      module: PushWorkerModule,
      imports: [
        ConfigValueModule.forRoot(PUSH_WORKER_CONFIG, config),
        WorkerCoreModule.forRoot('push-worker', SUITE_VERSION, config),
      ],
      providers: [
        { provide: MainDatabase, useFactory: () => new MainDatabase(createMainClient(config.DATABASE_URL)) },
        {
          provide: PushConfigRepository,
          inject: [MainDatabase],
          useFactory: (main: MainDatabase) => new PushConfigRepository(main.db),
        },
        PushDeliveryConsumer,
      ],
    };
  }
}
