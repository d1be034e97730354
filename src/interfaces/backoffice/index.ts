import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.js';
import type { Services } from '../../container.js';
import { type AreasByTree, mountAreas } from '../../shared/area.js';
import type { AreaContext } from '../../areas.js';
import { webhookEventHooks } from '../../modules/core/index.js';
import { apiKeyAuth } from '../../plugins/api-key-auth.js';
import type { AuthFailureThrottle } from '../../plugins/auth-failures.js';
import { applyCors } from '../../plugins/cors.js';
import { applyRateLimit } from '../../plugins/rate-limit.js';
import { recordRoutes } from '../../shared/http/route-table.js';
import { checkIfMatch, declaredVersions, ifMatchHeader, validators } from '../../shared/http/conditional.js';
import type { RequestContext } from '../../shared/context.js';
import { hookList } from '../../shared/http/hooks.js';
import { documentRoute, withHeader } from '../../shared/http/route.js';
import { revisionNoteHeader } from '../../shared/revisions.js';

export interface TreeOptions {
  config: Config;
  services: Services;
  redis?: Redis | undefined;
  /** Failed authentications per IP, shared by the Backoffice and Reader trees. */
  authFailures: AuthFailureThrottle;
  /** The areas each tree mounts, in its order (src/areas.ts). */
  areas: AreasByTree<AreaContext>;
}

/** The Backoffice: API-key auth, per-key rate limit, and the areas under their version prefixes. */
export const backofficeTree: FastifyPluginAsync<TreeOptions> = async (app, options) => {
  const { config, services, redis, authFailures } = options;
  // Off unless CORS_BACKOFFICE_ORIGINS names the origins: an admin console is one known site.
  await applyCors(app, config.corsBackofficeOrigins, ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
  // What a write's target holds now: the version If-Match names, the status a write changes.
  const versions = declaredVersions(() => app.routeTable, 'backoffice');
  const ifMatch = checkIfMatch(versions);
  // Each successful write emits its record event and purge to the media's webhooks, once the answer has left.
  const events = webhookEventHooks(services.core.webhooks.emit, app.log, versions);
  // One transaction per write, given to the work in its context (ctx.db, ctx.tx): If-Match checked
  // first, then the work, then its audit entry.
  const writes = (req: FastifyRequest, reply: FastifyReply, ctx: RequestContext, work: (ctx: RequestContext) => Promise<unknown>) =>
    services.core.auditedWrites(req, reply, ctx, async (txCtx) => {
      await ifMatch(req, reply, txCtx);
      return events.around(req, reply, txCtx, work);
    });
  app.addHook('onReady', async () => versions.check());
  app.addHook('onRoute', (route) => {
    // Fail at start-up rather than ship a route nobody thought to protect.
    if (!route.config?.permission) {
      throw new Error(`Backoffice route ${route.method} ${route.url} declares no permission`);
    }
    // Every write names the record it changes (its webhook event and audit entry).
    if (route.method !== 'GET' && route.method !== 'HEAD' && !route.config.record) {
      throw new Error(`Backoffice write ${route.method} ${route.url} declares no record`);
    }
    // Every write but a create honours If-Match against what its declared version source answers (conditional.ts).
    const conditional = route.method === 'PUT' || route.method === 'PATCH' || route.method === 'DELETE';
    if (conditional) {
      route.schema = { ...route.schema, headers: withHeader(route.schema?.headers, 'if-match', ifMatchHeader) };
      route.config = { ...route.config, errors: [...(route.config?.errors ?? []), 412] };
    }
    // A write that adds a revision takes its note (X-Revision-Note, kept with the revision).
    if (route.config.record?.revises) route.schema = { ...route.schema, headers: withHeader(route.schema?.headers, 'x-revision-note', revisionNoteHeader) };
    documentRoute(app, route, [401, 403, 429]);
    route.schema = { ...route.schema, security: [{ apiKey: [] }] };
    // Every answer with a record or a list carries its ETag (conditional.ts `validators`).
    const read = route.method === 'GET';
    // Each write runs in one transaction with its audit entry (core/audit/audit.writes.ts), its If-Match checked inside it.
    const write = conditional || route.method === 'POST';
    route.config = { ...route.config, ...(write && { around: writes }), responseHeaders: [...(route.config?.responseHeaders ?? []), 'ETag'], ...(read && { answerHeaders: [...(route.config?.answerHeaders ?? []), 'Cache-Control' as const] }) };
    // Only a write emits an event: its hooks are the route's own, so that no read runs them.
    if (write) {
      route.onSend = [...hookList(route.onSend), events.onSend] as typeof route.onSend;
      route.onResponse = [...hookList(route.onResponse), events.onResponse] as typeof route.onResponse;
    }
    recordRoutes(app, 'backoffice', route);
  });
  app.addHook('onRequest', apiKeyAuth(services.core.apiKeys.authenticate, authFailures));
  // A strong ETag on every record and list answer, 304 to a matching If-None-Match; a key's
  // reads may be kept by its own client but revalidated each time.
  app.addHook('onSend', validators((req) => (req.method === 'GET' || req.method === 'HEAD' ? 'private, no-cache' : undefined)));
  await applyRateLimit(app, {
    max: config.rateLimit.backoffice,
    keyGenerator: (req) => (req.principal ? `key:${req.principal.keyId}` : `ip:${req.ip}`),
    redis,
    namespace: 'backoffice',
  });

  await mountAreas(app, 'backoffice', options.areas.backoffice, options);
};
