import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { backofficeResource } from '../../../shared/http/resource.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf, pagingQuery } from '../../../shared/schemas.js';
import { adOpsTags } from '../ad-ops.tags.js';
import { toPlacement } from './placements.mappers.js';
import { placementBody, placementSchema } from './placements.schemas.js';
import type { PlacementsService } from './placements.service.js';

export const placementsBackofficeRoutes: FastifyPluginAsyncZod<{ placements: PlacementsService }> = async (app, { placements }) => {
  route(app, {
    method: 'GET',
    url: '/ads/:id/placements',
    operationId: 'listAdPlacements',
    summary: "List an ad's placements",
    description: 'Newest first; 404 `ad_not_found`.',
    tag: adOpsTags.placements,
    access: { permission: 'ad-ops:read' },
    params: idParams,
    querystring: pagingQuery,
    response: { 200: listOf(placementSchema) },
    handler: async (ctx, { params, query }, reply) => list(reply.request, await placements.listInAd(ctx, params.id, query), toPlacement),
  });

  route(app, {
    method: 'POST',
    url: '/ads/:id/placements',
    operationId: 'placeAd',
    summary: 'Place an ad in an issue or the media',
    description:
      '`{target: "media"}` runs the ad on the whole media (its issues included); `{target: "issue", issue_id}` on one magazine ' +
      'issue (404 `issue_not_found` naming `issue_id`). `position` (top, sidebar, inline, …) narrows it to one slot; without ' +
      'one the ad fits any. 409 `placement_exists` when the ad is placed there already.',
    tag: adOpsTags.placements,
    access: { permission: 'ad-ops:write' },
    params: idParams,
    body: placementBody,
    response: { 201: dataOf(placementSchema) },
    errors: [409],
    handler: async (ctx, { params, body }) => one(toPlacement(await placements.place(ctx, params.id, body))),
  });

  const resource = backofficeResource(app, {
    path: '/placements',
    names: { one: 'Placement', many: 'Placements' },
    tag: adOpsTags.placements,
    item: placementSchema,
    map: toPlacement,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.remove({ summary: 'Remove a placement', description: 'The ad no longer runs there.' }, placements.remove);
};
