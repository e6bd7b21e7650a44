import { DynamicModule, Global, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { declareAppLabelAlias } from './framework/resource/app-label-aliases';
import { AppConfig } from '../common/config/app-config';
import { apiVersionHeader } from './framework/http/api-version';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiTokenResolver } from '../common/auth/api-token-resolver';
import { JobsModule } from '../common/jobs/jobs.module';
import { AuthModule } from '../modules/auth/auth.module';
import { DeviceDecommissioning, DeviceInventory } from './dcim/device-inventory';
import { configureTemplateRendering, MAX_CONCURRENT_RENDERS } from './extras/config-templates/config-template-renderer';
import { EventRulesDispatcher } from './extras/event-rules.dispatcher';
import { TaggedItemEntity } from './extras/tagged-item.entity';
import { ObjectPermissions } from './framework/permissions/object-permissions';
import { ChangeLogWriter } from './framework/resource/change-log.writer';
import { OBJECT_EVENT_SUBSCRIBERS, ObjectEventSink, ObjectEventSubscriber } from './framework/resource/object-events';
import { resourceControllers } from './framework/resource/resource-controller.factory';
import { buildEntityClasses, EntityClass } from './framework/resource/resource-entities';
import { ResourceInputReader } from './framework/resource/resource-input.reader';
import {
  PLATFORM_RESOURCES,
  RESOURCE_BINDINGS,
  ResourceBindings,
  ResourceRegistry,
  STORED_RESOURCES,
} from './framework/resource/resource-registry';
import { ResourceSerializer } from './framework/resource/resource-serializer';
import { ResourceService } from './framework/resource/resource.service';
import { ResourceActions } from './framework/resource/resource-actions';
import { ResourceAccess } from './framework/resource/resource-access';
import { ResourceChangeRecorder } from './framework/resource/resource-change-recorder';
import { ResourceDeleteCollector } from './framework/resource/resource-delete-collector';
import { ResourceQuery } from './framework/resource/resource-query';
import { ResourceWriter } from './framework/resource/resource-writer';
import { PLATFORM_RESOURCE_DEFINITIONS } from './platform-resources';
import { PlatformRootController } from './platform-root.controller';
import { PlatformStatus } from './platform-status';
import { ApiTokenEntity } from './users/api-token.entity';
import { ApiTokensController } from './users/api-tokens.controller';
import { ApiTokensService } from './users/api-tokens.service';
import { JobChangeLog } from './plugins/job-change-log';
import { PluginJobs } from './plugins/plugin-jobs';
import type { PluginDefinition } from './plugins/plugin-declaration';
import { PluginSet } from './plugins/plugin-set';
import { PluginsRootController } from './plugins/plugins-root.controller';
import { PluginRouteRunner, pluginRoutesController, pluginUrlRoutesController } from './plugins/plugin-routes';

const entitiesByPluginList = new WeakMap<readonly PluginDefinition[], EntityClass[]>();

/**
 * Every table of the platform and of its available plugins, mounted or not, for the data source and
 * the migration generator. Built once per list: TypeORM keeps the classes' metadata globally.
 */
function platformEntities(plugins: PluginSet): EntityClass[] {
  let entities = entitiesByPluginList.get(plugins.available);
  if (!entities) {
    entities = [
      ...buildEntityClasses([...PLATFORM_RESOURCE_DEFINITIONS, ...plugins.availableResources()]),
      TaggedItemEntity,
      ApiTokenEntity,
    ];
    entitiesByPluginList.set(plugins.available, entities);
  }
  return entities;
}

/** The mounted plugins' subscribers, each with its plugin's settings, in PLUGINS order. */
function pluginSubscribers(plugins: PluginSet): ObjectEventSubscriber[] {
  return plugins.mounted.flatMap(({ plugin, settings }) =>
    (plugin.subscribers ?? []).map((subscriber) => ({
      name: `${plugin.name}: ${subscriber.name}`,
      objectTypes: subscriber.objectTypes,
      handle: (manager, event) => subscriber.handle(manager, event, { settings }),
    })),
  );
}

/** The mounted plugins' hooks, by object type, and the settings their models' code sees. */
function resourceBindings(plugins: PluginSet): ResourceBindings {
  return {
    hooks: plugins.mounted.flatMap(({ plugin, settings }) =>
      (plugin.hooks ?? []).flatMap((hooks) => hooks.objectTypes.map((objectType) => ({ objectType, hooks, settings }))),
    ),
    settings: new Map(
      plugins.mounted.flatMap(({ plugin, settings }) => plugin.resources.map((resource) => [resource.objectType, settings] as const)),
    ),
  };
}

/**
 * The NetBox-style platform: one generic controller per declared resource plus the API root,
 * tokens, permissions, change log and event rules. Global so that the authentication guard can
 * resolve platform tokens.
 */
@Global()
@Module({})
export class PlatformModule implements NestModule {
  constructor(private readonly config: AppConfig) {
    const { concurrency, queueSize, perRequester } = config.templateRendering;
    configureTemplateRendering({ concurrency: concurrency ?? MAX_CONCURRENT_RENDERS, queueSize, perRequester });
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(apiVersionHeader(this.config.apiV1Str)).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }

  /** The platform with the given plugins mounted (see PluginSet.select). */
  static forRoot(plugins: PluginSet): DynamicModule {
    const served = [...PLATFORM_RESOURCE_DEFINITIONS, ...plugins.mountedResources()];
    // An available plugin's upstream labels name its models, served or not (a left-out one's are then unknown types).
    for (const plugin of plugins.available) {
      for (const alias of plugin.appLabelAliases ?? []) declareAppLabelAlias(alias, plugin.name);
    }
    return {
      module: PlatformModule,
      imports: [TypeOrmModule.forFeature(platformEntities(plugins)), AuthModule, JobsModule],
      controllers: [
        ApiTokensController,
        PlatformRootController,
        PluginsRootController,
        // Before the models' controllers: a route's first segment may be a model's path (`closures/{device_id}/fiber-claims`).
        ...plugins.mounted.flatMap((mounted) => pluginRoutesController(mounted) ?? []),
        ...plugins.mounted.flatMap((mounted) => pluginUrlRoutesController(mounted) ?? []),
        ...served.flatMap(resourceControllers),
      ],
      providers: [
        { provide: PluginSet, useValue: plugins },
        { provide: PLATFORM_RESOURCES, useValue: served },
        { provide: STORED_RESOURCES, useValue: [...PLATFORM_RESOURCE_DEFINITIONS, ...plugins.availableResources()] },
        PluginJobs,
        JobChangeLog,
        ResourceRegistry,
        ResourceSerializer,
        ResourceInputReader,
        ObjectPermissions,
        ChangeLogWriter,
        ResourceQuery,
        ResourceAccess,
        ResourceChangeRecorder,
        ResourceWriter,
        ResourceDeleteCollector,
        ResourceService,
        ResourceActions,
        PluginRouteRunner,
        PlatformStatus,
        ApiTokensService,
        { provide: ApiTokenResolver, useExisting: ApiTokensService },
        EventRulesDispatcher,
        DeviceInventory,
        DeviceDecommissioning,
        {
          provide: OBJECT_EVENT_SUBSCRIBERS,
          inject: [EventRulesDispatcher, DeviceDecommissioning],
          useFactory: (eventRules: EventRulesDispatcher, decommissioning: DeviceDecommissioning): ObjectEventSubscriber[] => [
            eventRules,
            decommissioning,
            ...pluginSubscribers(plugins),
          ],
        },
        ObjectEventSink,
        { provide: RESOURCE_BINDINGS, useValue: resourceBindings(plugins) },
      ],
      exports: [ApiTokenResolver, ResourceRegistry, ResourceService, ResourceSerializer, PluginSet, DeviceInventory, DeviceDecommissioning],
    };
  }
}
