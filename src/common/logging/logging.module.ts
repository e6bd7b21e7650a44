import { DynamicModule, Global, Module } from '@nestjs/common';
import { Logger } from 'pino';

/** Injection token of the process's root pino logger. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Global()
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: ROOT_LOGGER, useValue: logger }],
      exports: [ROOT_LOGGER],
    };
  }
}
