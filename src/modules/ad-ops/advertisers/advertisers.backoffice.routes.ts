import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { backofficeResource } from '../../../shared/http/resource.js';
import { adOpsTags } from '../ad-ops.tags.js';
import { toAdvertiser } from './advertisers.mappers.js';
import { advertiserBody, advertiserSchema } from './advertisers.schemas.js';
import type { AdvertisersService } from './advertisers.service.js';
import { advertiserAggregate } from './advertisers.repository.js';

export const advertisersBackofficeRoutes: FastifyPluginAsyncZod<{ advertisers: AdvertisersService }> = async (app, { advertisers }) => {
  const resource = backofficeResource(app, {
    path: '/advertisers',
    kind: 'advertiser',
    lock: advertiserAggregate,
    names: { one: 'Advertiser', many: 'Advertisers' },
    tag: adOpsTags.advertisers,
    item: advertiserSchema,
    map: toAdvertiser,
    read: 'ad-ops:read',
    write: 'ad-ops:write',
  });
  resource.list({ summary: 'List advertisers', description: 'Newest first.' }, advertisers.list);
  resource.create({ summary: 'Create an advertiser', body: advertiserBody }, advertisers.create);
  resource.get({ summary: 'Advertiser by id' }, advertisers.get);
  resource.update(
    {
      summary: 'Update an advertiser',
      description: 'A full replace, validated like a create: a field left out takes its default (null; `is_active` true).',
      method: 'PUT',
      body: advertiserBody,
    },
    advertisers.replace,
  );
};
