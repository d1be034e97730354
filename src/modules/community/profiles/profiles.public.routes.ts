import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicTwin } from '../../../shared/http/public.js';
import { communityTags } from '../community.tags.js';
import type { KindDef } from './profiles.kind.js';
import type { ProfilesService } from './profiles.service.js';

/**
 * Public (deprecated): the media's profile types, and each kind's published profiles by media
 * and by id (the media from the profile); the Reader's operations as they are, one declaration
 * looped over the kinds.
 */
export const profilesPublicRoutes: FastifyPluginAsyncZod<{ profiles: ProfilesService; kinds: KindDef[] }> = async (app, { profiles, kinds }) => {
  const tag = communityTags.public;
  publicTwin(app, {
    reader: 'readerListProfileTypes',
    url: '/community/v2/medias/:media_id/profile-types',
    operationId: 'publicListProfileTypes',
    media: 'path',
    tag,
  });
  for (const def of kinds) {
    const { one: One, many: Many } = def.names;
    publicTwin(app, { reader: `readerList${Many}`, url: `/community/v2/medias/:media_id/${def.kind}`, operationId: `publicList${Many}`, media: 'path', tag });
    publicTwin(app, {
      reader: `readerGet${One}`,
      url: `/community/v2/${def.kind}/:id`,
      operationId: `publicGet${One}`,
      media: { param: 'id', of: (id) => profiles.mediaOf(def.kind, id) },
      tag,
    });
  }
};
