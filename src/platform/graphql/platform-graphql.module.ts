import { unwrapResolverError } from '@apollo/server/errors';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import { DynamicModule, Module } from '@nestjs/common';
import { GraphQLModule } from '@nestjs/graphql';
import type { Request } from 'express';
import { GraphQLError } from 'graphql';
import { DataSource } from 'typeorm';
import type { AuthenticatedRequest } from '../../common/auth/current-principal.decorator';
import { PlatformAccessDenied, PlatformAuthenticator } from '../../common/auth/platform-authenticator';
import { DatabaseUnavailableError } from '../../common/errors/common-errors';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { AuthModule } from '../../modules/auth/auth.module';
import { ResourceRegistry } from '../framework/resource/resource-registry';
import { ResourceService } from '../framework/resource/resource.service';
import { PluginSet } from '../plugins/plugin-set';
import { GRAPHQL_PATH, GraphqlExplorerController } from './graphql-explorer.controller';
import { GraphqlLoaders } from './graphql-loaders';
import { buildGraphqlSchema, GraphqlContext } from './graphql-schema.factory';
import { maxComplexityRule, maxDepthRule } from './query-limits';

const MAX_DEPTH = 10;
/** Fields × list sizes: a full page of 1000 objects with a few nested lists fits; unbounded fan-out does not. */
const MAX_COMPLEXITY = 100_000;
/** Assumed size of a nested list without its own pagination (tags, many-to-many sets). */
const NESTED_LIST_SIZE = 10;

/**
 * The platform's read-only GraphQL API at `/graphql/` (Apollo through @nestjs/graphql), with the
 * schema generated from the resource declarations. Every request is authenticated like the REST
 * API (a credential is required; refusals are NetBox's 403) before Apollo sees it.
 */
@Module({})
export class PlatformGraphqlModule {
  static forRoot(): DynamicModule {
    return {
      module: PlatformGraphqlModule,
      imports: [
        AuthModule,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          imports: [AuthModule],
          inject: [ResourceRegistry, ResourceService, DataSource, PlatformAuthenticator, PluginSet],
          useFactory: (
            registry: ResourceRegistry,
            resources: ResourceService,
            dataSource: DataSource,
            authenticator: PlatformAuthenticator,
            plugins: PluginSet,
          ) => ({
            path: GRAPHQL_PATH,
            schema: buildGraphqlSchema(
              registry.definitions,
              plugins.mounted.flatMap(({ plugin }) => (plugin.graphqlQueries ? [plugin.graphqlQueries] : [])),
            ),
            playground: false,
            graphiql: false,
            introspection: true,
            includeStacktraceInErrorResponses: false,
            // A resolver's database failure keeps its partial-data 200, but says what happened without internals.
            formatError: (formatted, error) =>
              isDatabaseUnavailable(unwrapResolverError(error))
                ? { message: new DatabaseUnavailableError().message, path: formatted.path, extensions: { code: 'SERVICE_UNAVAILABLE' } }
                : formatted,
            validationRules: [maxDepthRule(MAX_DEPTH), maxComplexityRule(MAX_COMPLEXITY, NESTED_LIST_SIZE)],
            context: async ({ req }: { req: Request }): Promise<GraphqlContext> => {
              const request = req as AuthenticatedRequest;
              try {
                request.principal ??= await authenticator.authenticate(req.header('authorization'), 'GET');
              } catch (error) {
                if (isDatabaseUnavailable(error)) throw databaseUnavailableGraphqlError();
                if (!(error instanceof PlatformAccessDenied)) throw error;
                // Apollo turns this into an HTTP 403 with a GraphQL error body.
                throw new GraphQLError(error.message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
              }
              return { loaders: new GraphqlLoaders(dataSource.manager, resources, registry, request.principal) };
            },
          }),
        }),
      ],
      controllers: [GraphqlExplorerController],
    };
  }
}

/** The REST API's 503 for a database that is down or does not answer, as Apollo's HTTP error. */
function databaseUnavailableGraphqlError(): GraphQLError {
  const unavailable = new DatabaseUnavailableError();
  return new GraphQLError(unavailable.message, {
    extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503, headers: new Map(Object.entries(unavailable.headers())) } },
  });
}
