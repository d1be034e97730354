import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { adOpsTags } from '../ad-ops.tags.js';
import { toPlacement } from './placements.mappers.js';
import { placementBody, placementSchema } from './placements.schemas.js';
import type { PlacementsService } from './placements.service.js';
import { placementAggregate } from './placements.repository.js';

export const placementsBackofficeRoutes: FastifyPluginAsyncZod<{ placements: PlacementsService }> = async (app, { placements }) => {
  const resource = backofficeResource(app, {
    path: '/placements',
    kind: 'placement',
    lock: placementAggregate,
    names: { one: 'Placement', many: 'Placements' },
    tag: adOpsTags.placements,
    item: placementSchema,
    map: toPlacement,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.listUnder(
    { url: '/ads/:id/placements', operationId: 'listAdPlacements', summary: "List an ad's placements", description: 'Newest first; 404 `ad_not_found`.' },
    placements.listInAd,
  );
  resource.createUnder(
    {
      url: '/ads/:id/placements',
      operationId: 'placeAd',
      summary: 'Place an ad in an issue or the media',
      description:
        '`{target: "media"}` runs the ad on the whole media (its issues included); `{target: "issue", issue_id}` on one magazine ' +
        'issue (404 `issue_not_found` naming `issue_id`). `position` (top, sidebar, inline, …) narrows it to one slot; without ' +
        'one the ad fits any. 409 `placement_exists` when the ad is placed there already.',
      body: placementBody,
      errors: [404, 409],
    },
    placements.place,
  );
  resource.remove({ summary: 'Remove a placement', description: 'The ad no longer runs there.', version: null }, placements.remove);
};
