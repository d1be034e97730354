import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { AnyRouteDef } from './route.js';
import type { RecordEffect, VersionSource } from './effects.js';
import type { Permission } from '../permissions.js';

export type InterfaceName = 'backoffice' | 'reader' | 'public' | 'operator' | 'delivery';

export interface RouteEntry {
  interface: InterfaceName;
  operationId: string;
  method: string;
  url: string;
  permission: Permission | undefined;
  /** Reader routes: the scope the token must carry, or anonymous. */
  scope: string | undefined;
  anonymous: boolean;
  /** Reader routes that need no x-service-media-id (the token names the media: token endpoint, one-click unsubscribe). */
  mediaOptional: boolean;
  /** Reader routes about the signed-in reader: application tokens are refused. */
  readerRequired: boolean;
  hasUuidParam: boolean;
  /** Errors in another standard's shape than the envelope (the token endpoint: RFC 6749). */
  ownErrorFormat: boolean;
  /** The schemas the route declared (zod), which the OpenAPI document is held against. */
  schema: FastifySchema | undefined;
  /** Public routes: the path of the Reader operation that replaces it. */
  successor: string | undefined;
  /** The declaration made with `route()`, when it was (a twin in another tree reuses it). */
  def: AnyRouteDef | undefined;
  /** Reader and Public reads: the kind of the records they serve, for their Surrogate-Key. */
  surrogateKind: string | undefined;
  /** Backoffice writes: the record each changes (webhook event, audit entry). */
  record: RecordEffect | undefined;
  /** Backoffice PUT, PATCH and DELETE: where If-Match's version is read. */
  version: VersionSource | undefined;
  /** Reader and Public reads that may go to the replica (DATABASE_READ_URL). */
  replica: boolean;
  /** Where the route is declared, when asked for (docs/routes.md). */
  site: string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the three interface trees, as registered: for docs and route-table tests. */
    routeTable: RouteEntry[];
  }
}

const UUID_FORMAT = /"format":"uuid"/;

/** Records each route of an interface tree in the app's route table. */
export function recordRoutes(app: FastifyInstance, name: InterfaceName, route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const params = route.schema?.params;
  // Read by the route-table tests only: worked out (a JSON Schema of the params) when first read.
  let hasUuidParam: boolean | undefined;
  const uuidParam = () =>
    (hasUuidParam ??= params instanceof z.ZodType && UUID_FORMAT.test(JSON.stringify(z.toJSONSchema(params, { io: 'input' }))));
  for (const method of methods) {
    if (method === 'HEAD') continue;
    app.routeTable.push({
      interface: name,
      operationId: String(route.config?.operationId ?? ''),
      method,
      url: route.url,
      permission: route.config?.permission,
      scope: route.config?.scope,
      anonymous: route.config?.anonymous ?? false,
      mediaOptional: route.config?.mediaOptional ?? false,
      readerRequired: route.config?.readerRequired ?? false,
      get hasUuidParam() {
        return uuidParam();
      },
      ownErrorFormat: route.config?.errorFormat !== undefined,
      schema: route.schema,
      successor: route.config?.successor,
      def: route.config?.routeDef,
      surrogateKind: route.config?.surrogateKind,
      record: route.config?.record,
      version: route.config?.version,
      replica: route.config?.replica ?? false,
      site: route.config?.site,
    });
  }
}
