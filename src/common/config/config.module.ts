import { DynamicModule, Global, Module } from '@nestjs/common';
import { EgressPolicy } from '../http/egress-policy';
import { AppConfig } from './app-config';

/** Makes the one validated {@link AppConfig}, and the egress policy it sets, injectable everywhere. */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: EgressPolicy, useValue: new EgressPolicy(config.egress) },
      ],
      exports: [AppConfig, EgressPolicy],
    };
  }
}
