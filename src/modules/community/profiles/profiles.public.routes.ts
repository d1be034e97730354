import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicTwin } from '../../../shared/http/public.js';
import { recordPublicRoutes } from '../../../shared/record/index.js';
import { communityTags } from '../community.tags.js';
import type { DeclaredKind } from './profiles.record.js';

/**
 * Public (deprecated): the media's profile types, and each kind's published profiles by media
 * and by id (the media from the profile): the Reader's operations as they are, each kind's
 * declared twins.
 */
export const profilesPublicRoutes: FastifyPluginAsyncZod<{ kinds: DeclaredKind[] }> = async (app, { kinds }) => {
  publicTwin(app, {
    reader: 'readerListProfileTypes',
    url: '/community/v2/medias/:media_id/profile-types',
    operationId: 'publicListProfileTypes',
    media: 'path',
    tag: communityTags.public,
  });
  for (const { record, service } of kinds) recordPublicRoutes(app, record, service);
};
